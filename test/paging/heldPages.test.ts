// Streamed pages are written to the file while they arrive (RowSink.openPage), held past the bytes kept
// until the walker accepts the page: rows reach the file before the page's body has ended, and a page
// the walker refuses (the same page again, overlapping rows, broken JSON at its end, a sink that fails)
// is cut off the file again, so the file holds exactly the pages kept and the checkpoint's length; a
// resume goes on from there. Pages here are about 1.9 MB, more than one part written as they arrive.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { redactingSink, reopenFileSink, type RowSink } from '../../src/core/export';
import { openNdjsonSink } from '../../src/core/export/ndjsonSink';
import type { HeldPage } from '../../src/core/export/sink';
import { httpClient, type HttpPort } from '../../src/core/http/client';
import { walk } from '../../src/core/paging/walker';
import type { PagingPlan } from '../../src/core/paging/types';
import { Redactor } from '../../src/core/secrets';

const PAGE_ROWS = 30_000;
const PAGES = 3;
const plan: PagingPlan = { style: 'page-headers', options: {}, source: 'directive' };
const row = (i: number): string => `{"id":${i},"email":"person${i}@example.test","city":"Lyon"}`;

/** What the server does to page 2. */
type Twist = 'none' | 'same-as-page-1' | 'overlap' | 'broken-end' | 'secret-late' | 'hold-second-half' | 'stall';

let dir = '';
let server: Server;
let base = '';
let twist: Twist = 'none';
/** For 'hold-second-half': the file's size when the server was let go on, and the release. */
let release: () => void = () => undefined;
let watchFile = '';
let sizeWhenReleased = -1;

function pageBody(page: number): string[] {
  const first = (page - 1) * PAGE_ROWS;
  let ids = Array.from({ length: PAGE_ROWS }, (_, i) => first + i);
  if (page === 2 && twist === 'same-as-page-1') ids = ids.map((id) => id - PAGE_ROWS);
  if (page === 2 && twist === 'overlap') ids = ids.map((id) => id - 1);
  const rows = ids.map((id) => (page === 2 && twist === 'secret-late' && id === first + PAGE_ROWS - 10 ? `{"id":${id},"note":"echo sk_live_heldpage_42"}` : row(id)));
  const half = rows.length / 2;
  const tail = page === 2 && twist === 'broken-end' ? `${rows.slice(half).join(',')},{"id":` : `${rows.slice(half).join(',')}]`;
  return [`[${rows.slice(0, half).join(',')},`, tail];
}

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'apiwb-held-'));
  server = createServer((req, res) => {
    const page = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('page') ?? '1');
    res.writeHead(200, { 'content-type': 'application/json', 'x-pagination-page': String(page), 'x-pagination-total-pages': String(PAGES) });
    const [head, tail] = pageBody(page);
    res.write(head);
    // Three quarters of the page (more than one part), then nothing (the client stops the walk meanwhile).
    if (page === 2 && twist === 'stall') {
      res.write(tail!.slice(0, tail!.length / 2));
      return;
    }
    if (page === 2 && twist === 'hold-second-half') {
      // The rest comes once the first half of the page is in the file (or after 5 s, to fail, not hang).
      const timer = setTimeout(() => release(), 5_000);
      release = () => {
        clearTimeout(timer);
        release = () => undefined;
        sizeWhenReleased = statSync(watchFile).size;
        res.end(tail);
      };
      const poll = setInterval(() => {
        if (res.destroyed) clearInterval(poll);
        else if (statSync(watchFile).size > PAGE_ROWS * row(0).length) {
          clearInterval(poll);
          release();
        }
      }, 5);
      return;
    }
    res.end(tail);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/rows`;
});

after(() => {
  server.closeAllConnections();
  server.close();
  rmSync(dir, { recursive: true, force: true });
});

const ids = (path: string): number[] => readFileSync(path, 'utf8').split('\n').filter(Boolean).map((l) => (JSON.parse(l) as { id: number }).id);
const range = (from: number, n: number): number[] => Array.from({ length: n }, (_, i) => from + i);

async function walkTo(name: string, wrap: (sink: RowSink) => RowSink = (s) => s, signal?: AbortSignal): Promise<{ path: string; result: Awaited<ReturnType<typeof walk>>; sink: RowSink }> {
  const path = join(dir, `${name}.ndjson`);
  watchFile = path;
  const sink = wrap(await openNdjsonSink(path));
  const result = await walk({ method: 'GET', url: base, headers: {} }, { plan, sink, ...(signal ? { signal } : {}) });
  await sink.close();
  return { path, result, sink };
}

type Checkpoint = Awaited<ReturnType<typeof walk>>['checkpoint'];

/** Resumes a walk from `checkpoint` with the server behaving; every row must then be in the file once. */
async function resumeToTheEnd(path: string, checkpoint: Checkpoint): Promise<void> {
  twist = 'none';
  assert.ok(checkpoint.sink);
  const reopened = await reopenFileSink(checkpoint.sink);
  const resumed = await walk({ method: 'GET', url: base, headers: {} }, { plan, sink: reopened, resumeFrom: checkpoint });
  await reopened.close();
  assert.equal(resumed.outcome, 'complete', resumed.message);
  assert.deepEqual(ids(path), range(0, PAGES * PAGE_ROWS), 'no gap, no duplicate');
}

/**
 * `inner`, aborting `controller` once page 2's first part is in the file (page 1 is one part while it
 * arrives and the rest); `page` may change the held page further (a crash: drop never runs).
 */
function stopAtPageTwo(inner: RowSink, controller: AbortController, page: Partial<HeldPage> = {}): RowSink {
  let parts = 0;
  return {
    ...inner,
    openPage: () => {
      const held = inner.openPage!();
      return {
        ...held,
        writeNdjson: async (l, n, k) => {
          await held.writeNdjson(l, n, k);
          if (++parts === 3) controller.abort();
        },
        ...page,
      };
    },
  };
}

void describe('pages written while they arrive', () => {
  void it('a good walk: every row once, in order; the file is the checkpoint\'s length', async () => {
    twist = 'none';
    const { path, result } = await walkTo('good');
    assert.equal(result.outcome, 'complete', result.message);
    assert.deepEqual(ids(path), range(0, PAGES * PAGE_ROWS));
    assert.equal(result.checkpoint.sink?.bytes, statSync(path).size);
  });

  void it('rows reach the file before the page has arrived whole, and are kept once it has', async () => {
    twist = 'hold-second-half';
    sizeWhenReleased = -1;
    const { path, result } = await walkTo('early');
    assert.equal(result.outcome, 'complete', result.message);
    assert.ok(sizeWhenReleased > PAGE_ROWS * row(0).length, `the file grew past page 1 (${sizeWhenReleased} bytes) before page 2's second half was sent`);
    assert.deepEqual(ids(path), range(0, PAGES * PAGE_ROWS));
  });

  for (const [name, twisted, verdict, message] of [
    ['the same page again', 'same-as-page-1', 'inconsistent', /holds exactly the rows of page 1/],
    ['overlapping rows', 'overlap', 'inconsistent', /1 row\(s\) of page 2 were already on page 1/],
    ['broken JSON at the end of the page', 'broken-end', 'failed', /page 2/],
  ] as const) {
    void it(`${name}: the page is cut off the file again; only page 1 and the checkpoint's length remain`, async () => {
      twist = twisted;
      const { path, result } = await walkTo(twisted);
      assert.equal(result.verdict, verdict, result.message);
      assert.match(result.message, message);
      assert.equal(result.pages, 1);
      assert.deepEqual(ids(path), range(0, PAGE_ROWS));
      assert.equal(statSync(path).size, result.checkpoint.sink?.bytes);
      if (verdict === 'failed') await resumeToTheEnd(path, result.checkpoint);
    });
  }

  void it('a secret echoed late in a page is redacted; the parts before it are written as they came', async () => {
    twist = 'secret-late';
    const { path, result } = await walkTo('secret', (inner) => redactingSink(inner, () => new Redactor(['sk_live_heldpage_42'])));
    assert.equal(result.outcome, 'complete', result.message);
    const text = readFileSync(path, 'utf8');
    assert.ok(!text.includes('sk_live_heldpage_42'), 'the secret reached the file');
    assert.match(text, /"note":"echo \*\*\*"/);
    assert.deepEqual(ids(path), range(0, PAGES * PAGE_ROWS));
  });

  void it('stopped while a page arrives: its first rows, already in the file, are cut off; the walk is cut short with page 1 kept', async () => {
    twist = 'stall';
    const controller = new AbortController();
    const { path, result } = await walkTo('stopped', (inner) => stopAtPageTwo(inner, controller), controller.signal);
    assert.equal(result.outcome, 'stopped', result.message);
    assert.equal(result.pages, 1);
    assert.deepEqual(ids(path), range(0, PAGE_ROWS));
    assert.equal(statSync(path).size, result.checkpoint.sink?.bytes);
  });

  void it('a crash while a page arrives (its rows in the file, never cut off): --resume from the last checkpoint cuts them and appends the rest once', async () => {
    twist = 'stall';
    const controller = new AbortController();
    let saved: Checkpoint | undefined;
    const path = join(dir, 'crash.ndjson');
    watchFile = path;
    const inner = await openNdjsonSink(path);
    // The process dies once page 2's first part is in the file: nothing after that runs (drop is never called).
    const crashing = stopAtPageTwo(inner, controller, { drop: () => Promise.resolve() });
    await walk({ method: 'GET', url: base, headers: {} }, { plan, sink: crashing, signal: controller.signal, onPage: (event) => { saved = event.checkpoint; } });
    await inner.close();
    assert.ok(saved?.sink && statSync(path).size > saved.sink.bytes, 'rows of page 2 lie past the checkpoint');
    await resumeToTheEnd(path, saved);
  });

  void it('code of the walk that throws while page 2 is held (a strategy\'s bug): the error goes on, the page is cut off, a resume ends the walk', async () => {
    twist = 'none';
    const path = join(dir, 'throws.ndjson');
    watchFile = path;
    const inner = await openNdjsonSink(path);
    let saved: Checkpoint | undefined;
    // The strategy reads the page's headers while it accepts it: once page 2 is in the file, reading them throws.
    let armed = false;
    const http: HttpPort = {
      send: (request, sendOptions) => httpClient.send(request, sendOptions),
      stream: async (request, sendOptions) => {
        const response = await httpClient.stream(request, sendOptions);
        const headers = new Proxy(response.headers, {
          get: (target, key) => {
            if (armed) throw new Error('a bug in the strategy');
            return typeof key === 'string' ? target[key] : undefined;
          },
        });
        return { ...response, headers };
      },
    };
    const arming: RowSink = { ...inner, openPage: () => { const page = inner.openPage!(); return { ...page, writeNdjson: async (l, n, k) => { await page.writeNdjson(l, n, k); if (saved) armed = true; } }; } };
    await assert.rejects(
      walk({ method: 'GET', url: base, headers: {} }, { plan, http, sink: arming, onPage: (event) => { saved = event.checkpoint; } }),
      /a bug in the strategy/,
    );
    await inner.close();
    assert.ok(armed && saved?.sink);
    assert.deepEqual(ids(path), range(0, PAGE_ROWS), 'only page 1 stays in the file');
    assert.equal(statSync(path).size, saved.sink.bytes);
    await resumeToTheEnd(path, { ...saved, plan });
  });

  void it('a sink that fails while the page arrives fails the walk with what was kept, the page cut off', async () => {
    twist = 'none';
    let parts = 0;
    const { path, result } = await walkTo('sink-fails', (inner) => ({
      ...inner,
      openPage: () => {
        const page = inner.openPage!();
        return { ...page, writeNdjson: (l, n, k) => (++parts === 3 ? Promise.reject(new Error('disk full')) : page.writeNdjson(l, n, k)) };
      },
    }));
    assert.equal(result.outcome, 'failed');
    assert.equal(result.failure?.kind, 'sink');
    assert.match(result.message, /disk full/);
    assert.deepEqual(ids(path), range(0, result.rows));
    assert.equal(statSync(path).size, result.checkpoint.sink?.bytes ?? 0);
  });
});
