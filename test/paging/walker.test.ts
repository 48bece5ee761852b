// The walker with a scripted transport: the order of writes and requests, retries, guards, stop,
// and checkpoints without secrets.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { RowSink } from '../../src/core/export';
import { memorySink } from '../../src/core/export/sink';
import type { HttpRequest, HttpResponse } from '../../src/core/http/types';
import { HttpFault } from '../../src/core/http/types';
import { walk } from '../../src/core/paging/walker';
import type { Send } from '../../src/core/paging/pageFetch';
import type { WalkCheckpoint } from '../../src/core/paging/checkpoint';
import { recordedResponse } from './recorded';

type Reply = { status?: number; headers?: Record<string, string>; body: unknown } | HttpFault;

/** A transport that answers from a function and logs every request into a shared event list. */
function scripted(events: string[], answer: (req: HttpRequest, n: number) => Reply): Send & { requests: HttpRequest[] } {
  const requests: HttpRequest[] = [];
  const send = (req: HttpRequest): Promise<HttpResponse> => {
    requests.push(req);
    events.push(`send ${req.body ?? req.url}`);
    const reply = answer(req, requests.length);
    if (reply instanceof HttpFault) return Promise.reject(reply);
    const text = typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body);
    return Promise.resolve(recordedResponse(reply.status ?? 200, reply.headers ?? {}, text));
  };
  return Object.assign(send, { requests });
}

function loggingSink(events: string[]): RowSink & { rows: unknown[] } {
  const inner = memorySink();
  const rows: unknown[] = [];
  return {
    ...inner,
    rows,
    async writePage(page) {
      events.push(`write ${page.length}`);
      rows.push(...page);
      await inner.writePage(page);
    },
  };
}

const exportRequest: HttpRequest = {
  method: 'POST', url: 'http://sandbox.test/api/Selection/GetSelectionResult_Ext',
  headers: { Authorization: 'Bearer secret-token', 'X-API-Key': 'tenant-secret', 'Content-Type': 'application/json' },
  body: '{"TableName":""}',
};

/** Three export pages of 2, 2 and 1 rows (pageRows=2). */
function exportPages(req: HttpRequest): Reply {
  const body = JSON.parse(req.body ?? '{}') as { OFFSET: number };
  const sizes = [2, 2, 1];
  const size = sizes[body.OFFSET - 1] ?? 0;
  const first = (body.OFFSET - 1) * 2;
  return { body: { TableName: 'SEL_1', Result: Array.from({ length: size }, (_, i) => ({ row: first + i })) } };
}

const noSleep = (): Promise<void> => Promise.resolve();

void describe('walk', () => {
  void it('writes each export page before sending the next request', async () => {
    const events: string[] = [];
    const sink = loggingSink(events);
    const result = await walk(exportRequest, {
      plan: { style: 'export-ordinal', options: { pageRows: '2' }, source: 'directive' }, sink, send: scripted(events, exportPages),
    });
    assert.equal(result.outcome, 'complete');
    assert.deepEqual(events, [
      'send {"TableName":"","OFFSET":1}', 'write 2',
      'send {"TableName":"SEL_1","OFFSET":2}', 'write 2',
      'send {"TableName":"SEL_1","OFFSET":3}', 'write 1',
    ]);
    assert.equal(result.rows, 5);
    assert.equal(result.pages, 3);
  });

  void it('onPage runs after the write and before the next request', async () => {
    const events: string[] = [];
    await walk(exportRequest, {
      plan: { style: 'export-ordinal', options: { pageRows: '2' }, source: 'directive' }, sink: loggingSink(events),
      send: scripted(events, exportPages), onPage: (e) => { events.push(`onPage ${e.page}`); },
    });
    assert.deepEqual(events.slice(0, 4), ['send {"TableName":"","OFFSET":1}', 'write 2', 'onPage 1', 'send {"TableName":"SEL_1","OFFSET":2}']);
  });

  void it('a fault keeps the pages written and resumes to the same total without duplicates; no secret in the checkpoint', async () => {
    const events: string[] = [];
    const sink = loggingSink(events);
    let failed = false;
    const send = scripted(events, (req) => {
      const offset = (JSON.parse(req.body ?? '{}') as { OFFSET: number }).OFFSET;
      if (offset === 2 && !failed) {
        failed = true;
        return new HttpFault('dropped', `POST ${req.url}: the connection was dropped in the middle of the response body`, req);
      }
      return exportPages(req);
    });
    const plan = { style: 'export-ordinal' as const, options: { pageRows: '2' }, source: 'directive' as const };
    const first = await walk(exportRequest, { plan, sink, send });
    assert.equal(first.outcome, 'failed');
    assert.equal(first.failure?.kind, 'dropped');
    assert.equal(first.failure?.page, 2);
    assert.match(first.message, /^failed at page 2: POST .* dropped.*1 page\(s\), 2 row\(s\) written are kept\.$/);
    assert.equal(first.verdict, 'failed');
    assert.equal(first.resumeAt, 2, 'the resume starts with the page that was lost');
    const stored = JSON.stringify(first.checkpoint);
    assert.doesNotMatch(stored, /secret-token|tenant-secret/);
    const checkpoint = JSON.parse(stored) as WalkCheckpoint;

    const resumed = await walk(exportRequest, { plan, sink, send, resumeFrom: checkpoint });
    assert.equal(resumed.outcome, 'complete');
    assert.equal(resumed.rows, 5);
    assert.deepEqual(sink.rows.map((r) => (r as { row: number }).row), [0, 1, 2, 3, 4]);
    const last = send.requests.at(-1);
    assert.equal(last?.headers['Authorization'], 'Bearer secret-token', 'the caller\'s credentials are re-added on resume');
    assert.equal(last?.headers['X-API-Key'], 'tenant-secret');
  });

  void it('a 429 waits the Retry-After before sending the same request again', async () => {
    const events: string[] = [];
    const waits: number[] = [];
    const send = scripted(events, (_req, n) => (n === 1
      ? { status: 429, headers: { 'retry-after': '3' }, body: { message: 'slow down' } }
      : { body: { value: [{ id: 1 }], next_link: null } }));
    const result = await walk({ method: 'GET', url: 'http://sandbox.test/v1/constituents', headers: {} }, {
      plan: { style: 'generic', options: {}, source: 'catalog' }, sink: loggingSink(events), send,
      sleep: (ms) => { waits.push(ms); return Promise.resolve(); },
    });
    assert.equal(result.outcome, 'complete');
    assert.deepEqual(waits, [3000]);
    assert.equal(send.requests.length, 2);
    assert.equal(send.requests[0]?.url, send.requests[1]?.url);
  });

  void it('an extraction error is retried, not taken as the end of data', async () => {
    const events: string[] = [];
    const sink = loggingSink(events);
    const script: Reply[] = [
      { body: { FactTransactions: [{ f: 1 }, { f: 2 }] } },
      { status: 500, body: { Message: 'An error has occurred.' } },
      { body: { FactTransactions: [{ f: 3 }] } },
      { body: { FactTransactions: [] } },
    ];
    const result = await walk({ method: 'POST', url: 'http://sandbox.test/api/BIDWHouse/GetFactTransactions', headers: {}, body: '{"PageSize":2}' }, {
      plan: { style: 'stateful-extraction', options: {}, source: 'catalog' }, sink, sleep: noSleep,
      send: scripted(events, (_req, n) => script[n - 1] ?? { body: { FactTransactions: [] } }),
    });
    assert.equal(result.outcome, 'complete');
    assert.equal(result.rows, 3);
  });

  void it('the max-pages guard stops an endless walk with a checkpoint to continue', async () => {
    const events: string[] = [];
    const result = await walk({ method: 'POST', url: 'http://sandbox.test/api/BIDWHouse/GetFactTransactions', headers: {}, body: '{}' }, {
      plan: { style: 'stateful-extraction', options: {}, source: 'catalog' }, sink: loggingSink(events), maxPages: 3,
      send: scripted(events, (_req, n) => ({ body: { FactTransactions: [{ f: n }] } })),
    });
    assert.equal(result.outcome, 'max-pages');
    assert.equal(result.verdict, 'cut-short', 'a page limit is not the end of the data');
    assert.match(result.message, /^cut short: stopped after 3 request\(s\)/);
    assert.equal(result.pages, 3);
    assert.ok(result.checkpoint.next);
  });

  void it('an abort stops the walk and keeps what was written', async () => {
    const events: string[] = [];
    const controller = new AbortController();
    const result = await walk({ method: 'GET', url: 'http://sandbox.test/bookings', headers: {} }, {
      plan: { style: 'page-headers', options: {}, source: 'catalog' }, sink: loggingSink(events), signal: controller.signal,
      send: scripted(events, (req) => {
        const page = Number(new URL(req.url).searchParams.get('page') ?? '1');
        return { headers: { 'x-pagination-page': String(page), 'x-pagination-total-pages': '9' }, body: [{ page }] };
      }),
      onPage: (e) => { if (e.page === 2) controller.abort(); },
    });
    assert.equal(result.outcome, 'stopped');
    assert.equal(result.pages, 2);
    assert.equal(new URL(result.checkpoint.next?.url ?? 'http://x').searchParams.get('page'), '3');
  });

  void it('without a plan the style is detected from the first response (X-Pagination-*)', async () => {
    const events: string[] = [];
    const result = await walk({ method: 'GET', url: 'http://sandbox.test/bookings', headers: {} }, {
      sink: loggingSink(events),
      send: scripted(events, (req) => {
        const page = Number(new URL(req.url).searchParams.get('page') ?? '1');
        return { headers: { 'x-pagination-page': String(page), 'x-pagination-total-pages': '2' }, body: [{ page }] };
      }),
    });
    assert.equal(result.checkpoint.plan.style, 'page-headers');
    assert.equal(result.checkpoint.plan.source, 'detected');
    assert.equal(result.rows, 2);
  });

  void it('a 400 fails the walk with the page, the request and the body in the message', async () => {
    const events: string[] = [];
    const result = await walk({ method: 'GET', url: 'http://sandbox.test/api/Transaction/GetOrdersByCustomer?ctcID=1&pageNumber=0', headers: {} }, {
      plan: { style: 'page-number', options: {}, source: 'catalog' }, sink: loggingSink(events),
      send: scripted(events, () => ({ status: 400, body: { Response: false, Errors: ['pageNumber must be an integer of at least 1.'] } })),
    });
    assert.equal(result.outcome, 'failed');
    assert.equal(result.failure?.kind, 'http');
    assert.match(result.message, /^failed at page 1 \(GET http:\/\/sandbox\.test\/api\/Transaction\/GetOrdersByCustomer\?ctcID=1&pageNumber=0\): HTTP 400.*pageNumber must be/);
  });
});
