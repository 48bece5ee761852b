// A review of the merge of deep (items=a.b.c streamed through path lanes) and pages (the configurable
// and batch-cursor styles streaming each page, their steps' fields kept): a dotted items= under those styles
// goes through BOTH path lanes and kept fields. Each walk over real HTTP on 127.0.0.1 is compared with the
// same walk read page by page whole (the oracle: `streamRows: false`): rows in the file, counts, verdict,
// next requests, per-page counts, rows path, drift.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createCatalog, type JSONSchema, type Operation } from '../../src/core/catalog';
import { detectBusinessErrors } from '../../src/core/catalog/businessErrors';
import { checkContract } from '../../src/core/contract/drift';
import { openNdjsonSink } from '../../src/core/export/ndjsonSink';
import type { HttpRequest } from '../../src/core/http/types';
import type { PagingPlan } from '../../src/core/paging/types';
import { HELD } from '../../src/core/paging/heldBody';
import { walk, type WalkResult } from '../../src/core/paging/walker';
import { startLoopback, type Loopback } from './loopback';

const PAD = 'p'.repeat(80);
const row = (i: number, extra: Record<string, unknown> = {}): Record<string, unknown> => ({ id: i, name: i % 500 === 7 ? i : `n${i}`, pad: PAD, ...extra });
const rowsText = (from: number, to: number, extra?: (i: number) => Record<string, unknown>): string =>
  Array.from({ length: Math.max(0, to - from) }, (_, k) => JSON.stringify(row(from + k, extra?.(from + k)))).join(',');

const ROW_SCHEMA: JSONSchema = { type: 'object', required: ['id', 'name'], properties: { id: { type: 'integer' }, name: { type: 'string' }, pad: { type: 'string' } } };
const base = createCatalog().operationById('fundraising/Constituents/GetConstituent')!;
const OP: Operation = {
  ...base, origin: 'import', responseBody: undefined,
  responseBodyJsonSchema: {
    type: 'object', properties: {
      data: { type: 'object', properties: { rows: { type: 'array', items: ROW_SCHEMA } } },
      a: { type: 'object', properties: { Assets: { type: 'array', items: ROW_SCHEMA } } },
      warnings: { type: 'array', items: { type: 'object', properties: { code: { type: 'integer' } } } },
    },
  },
  imported: { source: 'pathItems.json', contributed: ['operation'] },
};

/** Page bodies per case: `from` the first row, `to` past the last, `total` rows in all; `next` the next page's URL (undefined on the last). */
type Body = (from: number, to: number, total: number, next: string | undefined, body: Record<string, unknown>) => string;

const BIG = 'B'.repeat(1_500_000);
const CASES: Record<string, Body> = {
  // next_link after the rows, top level (the configurable style's own field).
  nextAfter: (f, t, _n, next) => `{"data":{"rows":[${rowsText(f, t)}]}${next ? `,"next_link":"${next}"` : ''}}`,
  // next=data.next: the next link inside the path's own object, after the rows.
  nextInData: (f, t, _n, next) => `{"data":{"rows":[${rowsText(f, t)}],"next":${next ? `"${next}"` : 'null'}}}`,
  // Rows whose objects hold next_link, data and rows keys of their own.
  nextInRows: (f, t, _n, next) => `{"data":{"rows":[${rowsText(f, t, (i) => ({ next_link: `/nowhere/${i}`, data: { rows: [i] }, rows: [{ id: -i }] }))}]}${next ? `,"next_link":"${next}"` : ''}}`,
  // The path's keys given twice BEFORE its rows (JSON.parse keeps the last): at the top and one level down.
  twiceBefore: (f, t, _n, next) => `{"data":{"rows":{"x":1}},"data":{"rows":null,"rows":[${rowsText(f, t)}]}${next ? `,"next_link":"${next}"` : ''}}`,
  // Unicode-escaped keys on the path and of the next link.
  escaped: (f, t, _n, next) => `{"d\\u0061ta":{"r\\u006fws":[${rowsText(f, t)}]}${next ? `,"next\\u005flink":"${next}"` : ''}}`,
  // A kept field (next=data.next keeps data) larger than 1 MiB besides the rows.
  keptLarge: (f, t, _n, next) => `{"data":{"rows":[${rowsText(f, t)}],"blob":"${BIG}","next":${next ? `"${next}"` : 'null'}}}`,
  // A top-level array that is not the rows, whose items drift, before the rows.
  warnings: (f, t, _n, next) => `{"warnings":[{"code":"not a number"},{"code":2}],"data":{"rows":[${rowsText(f, t)}]}${next ? `,"next_link":"${next}"` : ''}}`,
  // The last page's rows array is empty, in a body too large to hold (a large field before it).
  emptyLast: (f, t, _n, next) => `{"meta":{"pad":"${'m'.repeat(400_000)}"},"data":{"rows":[${rowsText(f, t)}]}${next ? `,"next_link":"${next}"` : ''}}`,
  // The whole path as one top-level key (read first by the rule) and the path too, each large.
  wholeAndPath: (f, t, _n, next) => `{"data":{"rows":[${rowsText(f + 100000, t + 100000)}]},"data.rows":[${rowsText(f, t)}]${next ? `,"next_link":"${next}"` : ''}}`,
  // The whole path as one top-level key holds the rows (the rule reads it first); the path's object is given twice after an array at the path.
  wholeThenTwice: (f, t, _n, next) => `{"data.rows":[${rowsText(f, t)}],"data":{"rows":[{"id":-1}]},"data":{"x":1}${next ? `,"next_link":"${next}"` : ''}}`,
  // A business failure whose messages are a list under Message (Success+Error convention), with the rows at the path.
  message: (f, t, _n, next) => `{"Success":false,"Message":["The brand is not allowed","Quota spent"],"data":{"rows":[${rowsText(f, t)}]}${next ? `,"next_link":"${next}"` : ''}}`,
  // The same business failure, the rows in `value` (the configurable style's own name, no items=).
  messageTop: (f, t, _n, next) => `{"Success":false,"Message":["The brand is not allowed","Quota spent"],"value":[${rowsText(f, t)}]${next ? `,"next_link":"${next}"` : ''}}`,
  // The whole path as one top-level key given twice, each large (JSON.parse keeps the second).
  wholeTwice: (f, t, _n, next) => `{"data.rows":[${rowsText(f + 100000, t + 100000)}],"data.rows":[${rowsText(f, t)}]${next ? `,"next_link":"${next}"` : ''}}`,
  // The path's first object given twice before its rows, the first one larger than 1 MiB (not kept).
  batchTwiceBig: (f, t, n) => `{"a":{"Assets":{"x":"${BIG}"}},"a":{"Assets":[${rowsText(f, t)}]},"BatchID":"b${t}","Remaining":${n - t}}`,
  // The batch cursor: rows at a.Assets, BatchID and Remaining after them, top level.
  batchAfter: (f, t, n) => `{"a":{"Assets":[${rowsText(f, t)}]},"BatchID":"b${t}","Remaining":${n - t}}`,
  // The batch cursor: BatchID inside the path's object, before the rows; Remaining after.
  batchBefore: (f, t, n) => `{"BatchID":"b${t}","a":{"Assets":[${rowsText(f, t)}]},"Remaining":${n - t}}`,
  // A batch cursor whose BatchID is larger than 1 MiB.
  batchBigId: (f, t, n) => `{"a":{"Assets":[${rowsText(f, t)}]},"BatchID":"b${t}-${BIG}","Remaining":${n - t}}`,
};

let loop: Loopback;
let origin = '';
let dir = '';
let asked: string[] = [];
let cutNext: number | undefined;

async function answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const body = Buffer.concat(chunks).toString('utf8');
  asked.push(`${req.method} ${req.url} ${body}`);
  const url = new URL(req.url ?? '/', 'http://x');
  const name = url.pathname.slice(1);
  const total = Number(url.searchParams.get('total') ?? 9000);
  const limit = Number(url.searchParams.get('limit') ?? 3000);
  const posted = JSON.parse(body || '{}') as { BatchID?: string };
  const from = posted.BatchID ? Number(/^b(\d+)/.exec(posted.BatchID)![1]) : Number(url.searchParams.get('offset') ?? 0);
  const to = Math.min(total, from + limit);
  const next = to < total ? `/${name}?offset=${to}&limit=${limit}&total=${total}` : undefined;
  const text = Buffer.from(CASES[name]!(from, to, total, next, posted));
  const cut = cutNext === undefined ? text.length : Math.floor(text.length * cutNext);
  cutNext = undefined;
  res.writeHead(200, { 'content-type': 'application/json' });
  for (let at = 0; at < cut;) {
    const end = Math.min(cut, at + 16_384);
    await new Promise<void>((resolve, reject) => res.write(text.subarray(at, end), (error) => (error ? reject(error) : resolve())));
    at = end;
  }
  if (cut < text.length) res.socket?.destroy();
  else res.end();
}

interface Walked { result: WalkResult; pages: Record<string, unknown>[]; lines: string[]; asked: string[] }

async function walkTo(name: string, request: HttpRequest, plan: PagingPlan, buffered: boolean, cutOnPage?: number): Promise<Walked> {
  const path = join(dir, `${name}-${buffered ? 'b' : 's'}-${Math.random().toString(36).slice(2)}.ndjson`);
  const sink = await openNdjsonSink(path);
  const pages: Record<string, unknown>[] = [];
  asked = [];
  let seen = 0;
  const result = await walk(request, {
    plan, sink, ...(buffered ? { streamRows: false } : {}),
    onPage: (event) => {
      if (cutOnPage !== undefined && ++seen === cutOnPage) cutNext = 0.5;
      const drift = checkContract(OP, { status: event.response.status, headers: event.response.headers, body: event.body });
      pages.push({
        page: event.page, rowCount: event.rowCount, rowsPath: event.rowsPath, done: event.checkpoint.done, endReason: event.checkpoint.endReason,
        next: event.checkpoint.next ? `${event.checkpoint.next.url} ${event.checkpoint.next.body ?? ''}` : undefined,
        drift: drift.findings.map((f) => `${f.kind} ${f.path}`),
        business: detectBusinessErrors(event.body),
      });
      if (!buffered) assert.ok(event.rows.length === 0 && event.response.bodyText === '', `page ${event.page} streamed`);
    },
  });
  await sink.close();
  return { result, pages, lines: readFileSync(path, 'utf8').split('\n').filter(Boolean), asked };
}

function verdictOf(result: WalkResult): Record<string, unknown> {
  const { outcome, verdict, message, pages, rows, resumeAt, failure } = result;
  return { outcome, verdict, message, pages, rows, resumeAt, failure, next: result.checkpoint.next, done: result.checkpoint.done };
}

const plan = (style: PagingPlan['style'], options: Record<string, string>): PagingPlan => ({ style, options, source: 'directive' });
const get = (path: string): HttpRequest => ({ method: 'GET', url: `${origin}${path}`, headers: {} });
const post = (path: string): HttpRequest => ({ method: 'POST', url: `${origin}${path}`, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ BatchSize: 3000 }) });

const WALKS: readonly { name: string; request: () => HttpRequest; plan: PagingPlan; rows: number }[] = [
  { name: 'nextAfter', request: () => get('/nextAfter?limit=3000&total=9000'), plan: plan('generic', { items: 'data.rows' }), rows: 9000 },
  { name: 'nextAfter, large pages (lent page)', request: () => get('/nextAfter?limit=12000&total=30000'), plan: plan('generic', { items: 'data.rows' }), rows: 30000 },
  { name: 'nextInData', request: () => get('/nextInData?limit=12000&total=30000'), plan: plan('generic', { items: 'data.rows', next: 'data.next' }), rows: 30000 },
  { name: 'nextInRows', request: () => get('/nextInRows?limit=6000&total=12000'), plan: plan('generic', { items: 'data.rows' }), rows: 12000 },
  { name: 'twiceBefore', request: () => get('/twiceBefore?limit=6000&total=12000'), plan: plan('generic', { items: 'data.rows' }), rows: 12000 },
  { name: 'escaped', request: () => get('/escaped?limit=6000&total=12000'), plan: plan('generic', { items: 'data.rows' }), rows: 12000 },
  { name: 'keptLarge', request: () => get('/keptLarge?limit=6000&total=12000'), plan: plan('generic', { items: 'data.rows', next: 'data.next' }), rows: 12000 },
  { name: 'warnings', request: () => get('/warnings?limit=6000&total=12000'), plan: plan('generic', { items: 'data.rows' }), rows: 12000 },
  { name: 'emptyLast', request: () => get('/emptyLast?limit=6000&total=12000'), plan: plan('generic', { items: 'data.rows', offset: 'offset' }), rows: 12000 },
  { name: 'wholeAndPath', request: () => get('/wholeAndPath?limit=12000&total=24000'), plan: plan('generic', { items: 'data.rows' }), rows: 24000 },
  { name: 'wholeThenTwice', request: () => get('/wholeThenTwice?limit=6000&total=12000'), plan: plan('generic', { items: 'data.rows' }), rows: 12000 },
  { name: 'message', request: () => get('/message?limit=6000&total=12000'), plan: plan('generic', { items: 'data.rows' }), rows: 12000 },
  { name: 'messageTop', request: () => get('/messageTop?limit=6000&total=12000'), plan: plan('generic', {}), rows: 12000 },
  { name: 'wholeTwice', request: () => get('/wholeTwice?limit=12000&total=24000'), plan: plan('generic', { items: 'data.rows' }), rows: 24000 },
  { name: 'batchTwiceBig', request: () => post('/batchTwiceBig?total=9000'), plan: plan('batch-cursor', { items: 'a.Assets' }), rows: 9000 },
  { name: 'batchAfter', request: () => post('/batchAfter?total=9000'), plan: plan('batch-cursor', { items: 'a.Assets' }), rows: 9000 },
  { name: 'batchBefore', request: () => post('/batchBefore?total=9000'), plan: plan('batch-cursor', { items: 'a.Assets' }), rows: 9000 },
  { name: 'batchBigId', request: () => post('/batchBigId?total=9000'), plan: plan('batch-cursor', { items: 'a.Assets' }), rows: 9000 },
];

void describe('a dotted items= under the configurable and batch-cursor styles, streamed as buffered', () => {
  // Pages of about 300 KB, past a held bound made small (heldBody.ts): each is streamed, the subject here.
  const heldBound = HELD.bytes;
  before(async () => {
    HELD.bytes = 16 * 1024;
    loop = await startLoopback('apiwb-pathitems-', (req, res) => void answer(req, res).catch(() => res.socket?.destroy()));
    ({ origin, dir } = loop);
  });
  after(async () => {
    HELD.bytes = heldBound;
    await loop.close();
  });

  for (const w of WALKS) {
    // Known gap (said in the release notes): when the whole path as one key is taken, the array at the
    // nested path streams past and is dropped, so the buffered walk's drift of its items is missing from
    // the streamed walk; every other part of the page is the same.
    const driftOfDropped = w.name === 'wholeAndPath' ? /^\S+ \$\.data\.rows\[/ : undefined;
    void it(`${w.name}: rows, counts, verdict, next requests and drift as the buffered walk`, async () => {
      const oracle = await walkTo(w.name, w.request(), w.plan, true);
      const streamed = await walkTo(w.name, w.request(), w.plan, false);
      assert.equal(oracle.result.verdict, 'complete', `oracle: ${oracle.result.message}`);
      assert.equal(oracle.lines.length, w.rows, 'oracle rows');
      assert.deepEqual(verdictOf(streamed.result), verdictOf(oracle.result), 'verdict and counts');
      assert.equal(streamed.lines.length, oracle.lines.length, 'rows in the file');
      assert.ok(streamed.lines.every((line, i) => line === oracle.lines[i]), 'the same rows in order');
      assert.deepEqual(streamed.asked, oracle.asked, 'next requests');
      const without = (pages: Record<string, unknown>[]): Record<string, unknown>[] => (driftOfDropped ? pages.map((p) => ({ ...p, drift: (p['drift'] as string[]).filter((f) => !driftOfDropped.test(f)) })) : pages);
      assert.deepEqual(without(streamed.pages), without(oracle.pages), 'per page');
    });
  }

  for (const w of WALKS.filter((x) => ['nextAfter, large pages (lent page)', 'nextInData', 'batchAfter'].includes(x.name))) {
    void it(`${w.name}: a page cut mid-stream keeps the earlier pages only, the walk failed`, async () => {
      const oracle = await walkTo(`cut-${w.name}`, w.request(), w.plan, true, 1);
      const streamed = await walkTo(`cut-${w.name}`, w.request(), w.plan, false, 1);
      assert.equal(oracle.result.verdict, 'failed', oracle.result.message);
      assert.deepEqual(verdictOf(streamed.result), verdictOf(oracle.result));
      assert.equal(streamed.lines.length, oracle.lines.length);
      assert.ok(streamed.lines.every((line, i) => line === oracle.lines[i]));
    });
  }
});
