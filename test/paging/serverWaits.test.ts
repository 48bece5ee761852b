// Walks through a server that rate-limits, over real HTTP on loopback: refusals that say when (429 with
// Retry-After in seconds, 503 with Retry-After as an HTTP date, a 429 whose quota headers say when), a
// quota announced spent on a page, one that says nothing, and a wait beyond the bound. The walk's sleep
// is injected (it records the waits instead of sleeping), so the test is fast; the server counts every
// request it sees, and the walk must end with exactly its rows after pages + refusals requests.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { memorySink } from '../../src/core/export/sink';
import { closeHttpAgents } from '../../src/core/http/client';
import { QuotaBook, quotaResetAt, refusalOf, retryAfterMs } from '../../src/core/http/serverWaits';
import type { HttpRequest } from '../../src/core/http/types';
import { type WalkProgress } from '../../src/core/paging';
import { walk } from '../../src/core/paging/walker';
import type { PagingPlan } from '../../src/core/paging/types';

const PAGES = 8;
const PER_PAGE = 3;

/** What the server answers to the nth request for a page (1 = its first), before serving it. */
type Refuse = (page: number, attempt: number) => { status: number; headers: Record<string, string> } | undefined;

let server: Server;
let base = '';
let refuse: Refuse = () => undefined;
/** Headers added to a page served. */
let pageHeaders: (page: number) => Record<string, string> = () => ({});
const seen: { page: number; status: number }[] = [];
const attempts = new Map<number, number>();

function rowsOf(page: number): { id: number }[] {
  return Array.from({ length: PER_PAGE }, (_, i) => ({ id: (page - 1) * PER_PAGE + i + 1 }));
}

const plan: PagingPlan = { style: 'page-headers', options: {}, source: 'directive' };
const request = (): HttpRequest => ({ method: 'GET', url: `${base}/bookings`, headers: { Accept: 'application/json' } });

function reset(refusing: Refuse, headers: (page: number) => Record<string, string> = () => ({})): void {
  refuse = refusing;
  pageHeaders = headers;
  seen.length = 0;
  attempts.clear();
}

/** A sleep that records each wait instead of sleeping. */
function recordingSleep(): { waits: number[]; sleep: (ms: number) => Promise<void> } {
  const waits: number[] = [];
  return { waits, sleep: (ms) => { waits.push(ms); return Promise.resolve(); } };
}

void describe('walks through rate limits (real HTTP)', () => {
  before(async () => {
    server = createServer((req, res) => {
      const page = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('page') ?? 1);
      const attempt = (attempts.get(page) ?? 0) + 1;
      attempts.set(page, attempt);
      const refusal = refuse(page, attempt);
      if (refusal) {
        seen.push({ page, status: refusal.status });
        res.writeHead(refusal.status, { 'content-type': 'application/json', ...refusal.headers });
        res.end('{"message":"slow down"}');
        return;
      }
      seen.push({ page, status: 200 });
      res.writeHead(200, {
        'content-type': 'application/json', 'x-pagination-page': String(page), 'x-pagination-per-page': String(PER_PAGE),
        'x-pagination-total-pages': String(PAGES), 'x-pagination-total-results': String(PAGES * PER_PAGE), ...pageHeaders(page),
      });
      res.end(JSON.stringify(rowsOf(page)));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await closeHttpAgents();
  });

  void it('Retry-After in seconds, as an HTTP date, and a quota header: the walk ends complete with exactly the rows, after pages + refusals requests', async () => {
    reset((page, attempt): ReturnType<Refuse> => {
      if (attempt > 1) return undefined;
      if (page === 2) return { status: 429, headers: { 'retry-after': '1' } };
      // An HTTP date one second ahead (whole seconds: the wait is up to a second).
      if (page === 4) return { status: 503, headers: { 'retry-after': new Date(Date.now() + 1000).toUTCString() } };
      // No Retry-After, but the quota headers say when it resets.
      if (page === 7) return { status: 429, headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '1' } };
      return undefined;
    }, (page): Record<string, string> => (page === 5 ? { 'ratelimit-limit': '5', 'ratelimit-remaining': '0', 'ratelimit-reset': '1' } : {}));
    const sink = memorySink();
    const { waits, sleep } = recordingSleep();
    const told: WalkProgress[] = [];
    const result = await walk(request(), { plan, sink, sleep, onProgress: (p) => told.push(p) });

    assert.equal(result.verdict, 'complete', result.message);
    assert.deepEqual(sink.pages.flat(), Array.from({ length: PAGES }, (_, i) => rowsOf(i + 1)).flat(), 'every row once, in order');
    const refusals = seen.filter((s) => s.status !== 200);
    assert.equal(refusals.length, 3);
    assert.equal(seen.length, PAGES + refusals.length, 'the server saw each page once, plus each refusal');
    // The position never moves on a refusal: the page refused is the very next one asked.
    for (const [i, s] of seen.entries()) if (s.status !== 200) assert.equal(seen[i + 1]?.page, s.page);
    // Four waits: 1 s (seconds), ≤ 1 s (date), ≤ 1 s before page 6 (quota spent on page 5), ≤ 1 s (quota of a 429).
    assert.equal(waits.length, 4, waits.join(', '));
    assert.equal(waits[0], 1000);
    assert.ok(waits.every((ms) => ms >= 0 && ms <= 1000), waits.join(', '));
    assert.equal(result.waits, 4);
    assert.ok(told.some((p) => p.waiting === 'rate limited: waiting 1 s'), 'the wait is said while it lasts');
    assert.ok(told.some((p) => p.waiting === 'quota used up: waiting 1 s'));
    assert.equal(told.at(-1)?.totalPages, PAGES);
  });

  void it('a Retry-After beyond the bound: the walk ends failed at that page, resumable, without waiting', async () => {
    reset((page) => (page === 3 ? { status: 429, headers: { 'retry-after': '3600' } } : undefined));
    const sink = memorySink();
    const { waits, sleep } = recordingSleep();
    const result = await walk(request(), { plan, sink, sleep, maxWaitMs: 60_000 });
    assert.equal(result.verdict, 'failed');
    assert.equal(result.resumeAt, 3, 'it resumes with the page refused');
    assert.match(result.message, /^failed at page 3 .*HTTP 429 Too Many Requests, Retry-After asks to wait 3600 s, beyond the 60 s left of the 60 s of waiting allowed/);
    assert.deepEqual(waits, [], 'nothing was waited');
    assert.equal(seen.length, 3);
    assert.equal(sink.pages.flat().length, 2 * PER_PAGE, 'the pages before it are kept');
  });

  void it('the bound is for all the waits of the walk together: the third wait of 1 s does not fit in 2 s', async () => {
    reset((page, attempt) => (attempt === 1 && page <= 3 ? { status: 429, headers: { 'retry-after': '1' } } : undefined));
    const { waits, sleep } = recordingSleep();
    const result = await walk(request(), { plan, sink: memorySink(), sleep, maxWaitMs: 2000 });
    assert.equal(result.verdict, 'failed');
    assert.deepEqual(waits, [1000, 1000]);
    assert.equal(result.resumeAt, 3);
    assert.match(result.message, /beyond the 0 s left of the 2 s of waiting allowed/);
  });

  void it('a refusal without Retry-After (nor a quota that says when) is not sent again', async () => {
    reset((page) => (page === 2 ? { status: 503, headers: {} } : undefined));
    const { waits, sleep } = recordingSleep();
    const result = await walk(request(), { plan, sink: memorySink(), sleep });
    assert.equal(result.verdict, 'failed');
    assert.match(result.message, /HTTP 503 Service Unavailable without Retry-After: not sent again at a guess/);
    assert.deepEqual(waits, []);
    assert.deepEqual(seen.map((s) => s.page), [1, 2], 'page 2 was asked once');
    assert.equal(result.resumeAt, 2);
  });

  void it('a server that refuses the same page for ever: the walk gives up after 10 waits, not 11', async () => {
    reset((page) => (page === 2 ? { status: 429, headers: { 'retry-after': '0' } } : undefined));
    const { waits, sleep } = recordingSleep();
    const result = await walk(request(), { plan, sink: memorySink(), sleep });
    assert.equal(result.verdict, 'failed');
    assert.equal(waits.length, 10);
    assert.equal(seen.filter((s) => s.page === 2).length, 11);
    assert.match(result.message, /refused 11 times in a row/);
  });

  void it('Stop while waiting ends the walk cut short at once', async () => {
    reset((page) => (page === 2 ? { status: 429, headers: { 'retry-after': '1' } } : undefined));
    const stop = new AbortController();
    const result = await walk(request(), {
      plan, sink: memorySink(), signal: stop.signal,
      sleep: (_ms, signal) => new Promise((_resolve, reject) => {
        signal?.addEventListener('abort', () => reject(new Error('aborted')), { once: true });
        stop.abort();
      }),
    });
    assert.equal(result.verdict, 'cut-short');
    assert.match(result.message, /stopped by the user while waiting/);
    assert.equal(result.resumeAt, 2);
  });

  void it('a quota announced spent holds the next request to that origin, across walks (one book)', async () => {
    reset(() => undefined, (page): Record<string, string> => (page === PAGES ? { 'ratelimit-remaining': '0', 'ratelimit-reset': '1' } : {}));
    const quotas = new QuotaBook();
    const first = recordingSleep();
    const one = await walk(request(), { plan, sink: memorySink(), sleep: first.sleep, quotas });
    assert.equal(one.verdict, 'complete');
    assert.deepEqual(first.waits, [], 'no request followed the last page');
    const second = recordingSleep();
    const two = await walk(request(), { plan, sink: memorySink(), sleep: second.sleep, quotas });
    assert.equal(two.verdict, 'complete');
    assert.equal(second.waits.length, 1, 'the next walk to the origin waited for the reset first');
  });
});

void describe('the wait rule (http/serverWaits.ts)', () => {
  const at = Date.parse('2026-11-22T10:00:00Z');
  const response = (status: number, headers: Record<string, string>) => ({ status, statusText: '', headers });

  void it('Retry-After: delta-seconds or an HTTP date; anything else says nothing', () => {
    assert.equal(retryAfterMs('12', at), 12_000);
    assert.equal(retryAfterMs('Sun, 22 Nov 2026 10:00:03 GMT', at), 3000);
    assert.equal(retryAfterMs('Sun, 22 Nov 2026 09:59:00 GMT', at), 0, 'a date past is no wait');
    assert.equal(retryAfterMs('1.5', at), undefined);
    assert.equal(retryAfterMs('soon', at), undefined);
    assert.equal(retryAfterMs(undefined, at), undefined);
  });

  void it('only 429 and 503 are refusals; 500, 401 and 200 are not, whatever their headers', () => {
    assert.equal(refusalOf(response(429, { 'retry-after': '2' }), at)?.kind, 'wait');
    assert.equal(refusalOf(response(503, { 'retry-after': '2' }), at)?.kind, 'wait');
    assert.equal(refusalOf(response(500, { 'retry-after': '2' }), at), undefined);
    assert.equal(refusalOf(response(401, {}), at), undefined);
    assert.equal(refusalOf(response(429, {}), at)?.kind, 'final');
  });

  void it('quota: remaining 0 with a reset in seconds, in epoch seconds, or the structured field; remaining 1 is no wait', () => {
    assert.equal(quotaResetAt({ headers: { 'ratelimit-remaining': '0', 'ratelimit-reset': '7' } }, at), at + 7000);
    assert.equal(quotaResetAt({ headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(at / 1000 + 4) } }, at), at + 4000);
    assert.equal(quotaResetAt({ headers: { ratelimit: 'limit=100, remaining=0, reset=5' } }, at), at + 5000);
    assert.equal(quotaResetAt({ headers: { ratelimit: '"default";r=0;t=6' } }, at), at + 6000);
    assert.equal(quotaResetAt({ headers: { 'ratelimit-remaining': '1', 'ratelimit-reset': '7' } }, at), undefined);
    assert.equal(quotaResetAt({ headers: { 'ratelimit-remaining': '0' } }, at), undefined, 'no reset: nothing to wait for');
    // Both said: the earliest counts.
    assert.equal(quotaResetAt({ headers: { 'ratelimit-remaining': '0', 'ratelimit-reset': '1', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(at / 1000 + 0.25) } }, at), at + 250);
  });
});
