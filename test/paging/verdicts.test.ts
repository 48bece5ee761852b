// Every verdict and rule of a walk, on recorded responses through a scripted transport: complete, cut
// short, inconsistent (paging headers missing or changed, another page served than asked, the same page
// again, overlapping rows, a repeated cursor) and failed; next links to another origin; resume notes.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { memorySink } from '../../src/core/export/sink';
import type { HttpRequest, HttpResponse } from '../../src/core/http/types';
import { HttpFault } from '../../src/core/http/types';
import { walk } from '../../src/core/paging/walker';
import { withSecretsFrom } from '../../src/core/paging/checkpoint';
import type { Send } from '../../src/core/paging/pageFetch';
import type { PagingPlan } from '../../src/core/paging/types';
import { recordedResponse } from './recorded';

type Reply = { status?: number; headers?: Record<string, string>; body: unknown } | HttpFault;

function scripted(answer: (req: HttpRequest, n: number) => Reply): Send & { requests: HttpRequest[] } {
  const requests: HttpRequest[] = [];
  const send = (req: HttpRequest): Promise<HttpResponse> => {
    requests.push(req);
    const reply = answer(req, requests.length);
    if (reply instanceof HttpFault) return Promise.reject(reply);
    return Promise.resolve(recordedResponse(reply.status ?? 200, reply.headers ?? {}, JSON.stringify(reply.body)));
  };
  return Object.assign(send, { requests });
}

const credentials = { Authorization: 'Bearer secret-token', 'X-API-Key': 'tenant-secret' };
const rows = (from: number, n: number): { id: number }[] => Array.from({ length: n }, (_, i) => ({ id: from + i }));
const plan = (style: PagingPlan['style'], options: Record<string, string> = {}): PagingPlan => ({ style, options, source: 'directive' });
const page = (req: HttpRequest, name = 'page'): number => Number(new URL(req.url).searchParams.get(name) ?? 1);

const bookings: HttpRequest = { method: 'GET', url: 'https://booking.test/bookings', headers: { ...credentials } };
const orders: HttpRequest = { method: 'GET', url: 'https://eng.test/api/Transaction/GetOrdersByCustomer?ctcID=1&pageNumber=1&pageSize=2', headers: { ...credentials } };

void describe('walk verdicts', () => {
  void it('complete: the last page by X-Pagination-Total-Pages', async () => {
    const send = scripted((req) => ({ headers: { 'X-Pagination-Page': String(page(req)), 'X-Pagination-Total-Pages': '2' }, body: rows(page(req) * 10, 2) }));
    const result = await walk(bookings, { plan: plan('page-headers'), sink: memorySink(), send });
    assert.deepEqual([result.verdict, result.rows, result.resumeAt, result.cannotResume], ['complete', 4, undefined, undefined]);
  });

  void it('cut short: the page limit, resumable from the next page', async () => {
    const send = scripted((req) => ({ headers: { 'X-Pagination-Page': String(page(req)), 'X-Pagination-Total-Pages': '9' }, body: rows(page(req) * 10, 2) }));
    const result = await walk(bookings, { plan: plan('page-headers'), sink: memorySink(), send, maxPages: 2 });
    assert.deepEqual([result.outcome, result.verdict, result.rows, result.resumeAt], ['max-pages', 'cut-short', 4, 3]);
  });

  void it('cut short: stopped by the user', async () => {
    const controller = new AbortController();
    const send = scripted((req) => ({ headers: { 'X-Pagination-Page': String(page(req)), 'X-Pagination-Total-Pages': '9' }, body: rows(page(req) * 10, 2) }));
    const result = await walk(bookings, { plan: plan('page-headers'), sink: memorySink(), send, signal: controller.signal, onPage: () => controller.abort() });
    assert.deepEqual([result.verdict, result.pages], ['cut-short', 1]);
    assert.match(result.message, /^cut short: stopped by the user/);
  });

  void it('inconsistent: X-Pagination-Total-Pages vanishes on page 2; page 2 is not written', async () => {
    const send = scripted((req) => {
      const headers: Record<string, string> = page(req) === 1 ? { 'X-Pagination-Page': '1', 'X-Pagination-Total-Pages': '3' } : {};
      return { headers, body: rows(page(req) * 10, 2) };
    });
    const sink = memorySink();
    const result = await walk(bookings, { plan: plan('page-headers'), sink, send });
    assert.deepEqual([result.verdict, result.rows, sink.pages.length], ['inconsistent', 2, 1]);
    assert.match(result.message, /X-Pagination-Total-Pages was 3 on the first page but is missing on page 2/);
    assert.match(result.cannotResume ?? '', /contradicted itself/);
  });

  void it('inconsistent: TotalOrders shrinks between pages', async () => {
    const send = scripted((req) => {
      const n = page(req, 'pageNumber');
      return { body: { Response: true, PageNumber: n, PageSize: 2, TotalOrders: n === 1 ? 10 : 4, Orders: rows(n * 10, 2) } };
    });
    const result = await walk(orders, { plan: plan('page-number'), sink: memorySink(), send });
    assert.equal(result.verdict, 'inconsistent');
    assert.match(result.message, /TotalOrders changed from 10 to 4 on page 2/);
  });

  void it('inconsistent: the server serves another page than the one asked for', async () => {
    const send = scripted(() => ({ headers: { 'X-Pagination-Page': '1', 'X-Pagination-Total-Pages': '3' }, body: rows(1, 2) }));
    const result = await walk(bookings, { plan: plan('page-headers'), sink: memorySink(), send });
    assert.equal(result.verdict, 'inconsistent');
    assert.match(result.message, /page 2 was asked for but X-Pagination-Page says 1/);
  });

  void it('inconsistent: the same page again (an ignored offset) stops at once, not at the request guard', async () => {
    const send = scripted(() => ({ body: { value: rows(1, 3) } }));
    const result = await walk({ method: 'GET', url: 'https://x.test/items?limit=3', headers: {} }, { plan: plan('generic', { offset: 'offset', limit: 'limit', items: 'value' }), sink: memorySink(), send });
    assert.deepEqual([result.verdict, result.rows, send.requests.length], ['inconsistent', 3, 2]);
  });

  void it('inconsistent: rows of the previous page repeated', async () => {
    const send = scripted((req) => {
      const offset = Number(new URL(req.url).searchParams.get('offset') ?? 0);
      return { body: { value: rows(Math.max(1, offset), 3) } };
    });
    const result = await walk({ method: 'GET', url: 'https://x.test/items', headers: {} }, { plan: plan('generic', { offset: 'offset', items: 'value' }), sink: memorySink(), send });
    assert.equal(result.verdict, 'inconsistent');
    assert.match(result.message, /1 row\(s\) of page 2 were already on page 1/);
  });

  void it('a walk nothing continues (continuable: false): the same verdicts and checkpoint, without the hashes only a continuation reads', async () => {
    const send = scripted((req) => ({ headers: { 'X-Pagination-Page': String(page(req)), 'X-Pagination-Total-Pages': '9' }, body: rows(page(req) * 10, 2) }));
    const kept = await walk(bookings, { plan: plan('page-headers'), sink: memorySink(), send, maxPages: 1 });
    const alone = await walk(bookings, { plan: plan('page-headers'), sink: memorySink(), send, maxPages: 1, continuable: false });
    assert.ok(kept.checkpoint.lastRequest && kept.checkpoint.lastPageHash);
    const { lastRequest: _r, lastPageHash: _h, ...rest } = kept.checkpoint;
    assert.deepEqual(alone.checkpoint, rest);
    assert.deepEqual([alone.outcome, alone.rows, alone.message], [kept.outcome, kept.rows, kept.message]);
    // On the last page, a next link back to a request answered is caught as on any other.
    const back = scripted((req) => ({ body: { value: rows(req.url.endsWith('p=2') ? 3 : 1, 2), next_link: req.url.endsWith('p=2') ? 'https://x.test/items' : 'https://x.test/items?p=2' } }));
    for (const continuable of [true, false]) {
      const result = await walk({ method: 'GET', url: 'https://x.test/items', headers: {} }, { plan: plan('generic', { next: 'next_link', items: 'value' }), sink: memorySink(), send: back, maxPages: 2, continuable });
      assert.equal(result.verdict, 'inconsistent', `continuable ${continuable}: ${result.message}`);
      assert.match(result.message, /points back to a request already answered/);
    }
    // Several pages: a page served again is caught between pages as before.
    const again = scripted(() => ({ body: { value: rows(1, 3) } }));
    const repeated = await walk({ method: 'GET', url: 'https://x.test/items?limit=3', headers: {} }, { plan: plan('generic', { offset: 'offset', limit: 'limit', items: 'value' }), sink: memorySink(), send: again, maxPages: 5, continuable: false });
    assert.deepEqual([repeated.verdict, repeated.rows], ['inconsistent', 3]);
  });

  void it('inconsistent: a batch cursor that does not move', async () => {
    const send = scripted((_req, n) => ({ body: { BatchID: 'B-1', Assets: rows(n * 10, 2) } }));
    const request: HttpRequest = { method: 'POST', url: 'https://eng.test/api/CustomerAsset/GetAssets', headers: {}, body: '{}' };
    const result = await walk(request, { plan: plan('batch-cursor'), sink: memorySink(), send });
    assert.deepEqual([result.verdict, result.pages, send.requests.length], ['inconsistent', 2, 2]);
    assert.match(result.message, /points back to a request already answered/);
  });

  void it('failed: an HTTP 500, resumable from the lost page; a stateful extraction says it cannot resume', async () => {
    const send = scripted((req) => (page(req) === 2 ? { status: 500, body: { Message: 'boom' } } : { headers: { 'X-Pagination-Page': String(page(req)), 'X-Pagination-Total-Pages': '3' }, body: rows(page(req) * 10, 2) }));
    const failed = await walk(bookings, { plan: plan('page-headers'), sink: memorySink(), send });
    assert.deepEqual([failed.verdict, failed.resumeAt], ['failed', 2]);
    const extraction = scripted((_req, n) => (n === 2 ? { status: 200, body: '{broken' } : { body: { FactTransactions: rows(n, 2) } }));
    const stateful = await walk({ method: 'POST', url: 'https://eng.test/api/BIDWHouse/GetFactTransactions', headers: {}, body: '{}' },
      { plan: plan('stateful-extraction'), sink: memorySink(), send: extraction });
    assert.equal(stateful.verdict, 'failed');
    assert.equal(stateful.resumeAt, undefined);
    assert.match(stateful.cannotResume ?? '', /cannot resume: every call hands out the next rows/);
  });
});

void describe('next links to another origin', () => {
  void it('are followed without the credentials, with a notice', async () => {
    const send = scripted((req) => (req.url.startsWith('https://api.test')
      ? { body: { value: rows(1, 2), next_link: 'https://cdn.other.test/page2' } }
      : { body: { value: rows(3, 2) } }));
    const result = await walk({ method: 'GET', url: 'https://api.test/items', headers: { ...credentials, Accept: 'application/json' } },
      { plan: plan('generic', { next: 'next_link', items: 'value' }), sink: memorySink(), send });
    assert.deepEqual([result.verdict, result.rows], ['complete', 4]);
    const away = send.requests[1];
    assert.deepEqual(away?.headers, { Accept: 'application/json' }, 'no Authorization, no X-API-Key at the other origin');
    assert.match(result.notices.join(' '), /page 2 is on another origin \(https:\/\/cdn\.other\.test\) than page 1 \(https:\/\/api\.test\): sent without header Authorization, header X-API-Key/);
  });

  void it('from https to http are refused', async () => {
    const send = scripted(() => ({ body: { value: rows(1, 2), next_link: 'http://api.test/page2' } }));
    const result = await walk({ method: 'GET', url: 'https://api.test/items', headers: { ...credentials } },
      { plan: plan('generic', { next: 'next_link', items: 'value' }), sink: memorySink(), send });
    assert.deepEqual([result.verdict, result.rows, send.requests.length], ['failed', 2, 1]);
    assert.match(result.message, /the next link goes from https to plain http \(http:\/\/api\.test\); not followed/);
  });

  void it('a resume puts credentials back only for the first request\'s origin', () => {
    const fresh: HttpRequest = { method: 'GET', url: 'https://api.test/items', headers: { ...credentials } };
    const sameOrigin = withSecretsFrom({ method: 'GET', url: 'https://api.test/items?page=2', headers: {} }, fresh);
    assert.equal(sameOrigin.headers['Authorization'], 'Bearer secret-token');
    const elsewhere = withSecretsFrom({ method: 'GET', url: 'https://cdn.other.test/p2', headers: {} }, fresh);
    assert.deepEqual(elsewhere.headers, {});
  });
});
