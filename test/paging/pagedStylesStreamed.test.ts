// The configurable style and the batch cursor stream each page's rows (issue 37): a walk of either, over
// real HTTP on 127.0.0.1, gives the same rows, counts, verdicts, contract drift, business errors and
// next-page decisions streamed as the same walk read page by page whole (the oracle: `streamRows: false`,
// each page JSON.parse'd), with the page's control fields (next_link, a cursor two levels down,
// BatchID, Remaining) read after its rows array; a page's rows reach the file while it arrives; a page
// cut mid-stream keeps the rows fully received (of a single page) or the pages before it (of a walk),
// whose verdict is never "complete". The rows streamed past are marked not held (notHeld.ts): drift
// compares the first rows held as they passed, never a stand-in.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createCatalog, type JSONSchema, type Operation } from '../../src/core/catalog';
import { detectBusinessErrors } from '../../src/core/catalog/businessErrors';
import { checkContract } from '../../src/core/contract/drift';
import { reopenFileSink } from '../../src/core/export';
import { openNdjsonSink } from '../../src/core/export/ndjsonSink';
import { redactingSink } from '../../src/core/export/redactingSink';
import type { RowSink } from '../../src/core/export/sink';
import { Redactor } from '../../src/core/secrets/redact';
import type { HttpRequest } from '../../src/core/http/types';
import type { PagingPlan } from '../../src/core/paging/types';
import { HELD } from '../../src/core/paging/heldBody';
import { walk, type PageEvent, type WalkResult } from '../../src/core/paging/walker';
import { startLoopback, type Loopback } from './loopback';

const TOTAL = 9000;
const PAGE = 3000;
const PAD = 'x'.repeat(60);

/** Rows as the server sends them; in every page, its 8th row drifts (a number for a string), its 12th has an undocumented field. */
function row(i: number): Record<string, unknown> {
  if (i % PAGE === 7) return { id: i, name: i, city: 'Lyon', pad: PAD };
  if (i % PAGE === 11) return { id: i, name: `n${i}`, city: 'Lyon', pad: PAD, note: 'not in the contract' };
  if (i % PAGE === 13) return { id: i, name: `a "quoted" \\ name\nwith a break ${i}`, city: 'Lyon', pad: PAD };
  return { id: i, name: `n${i}`, city: 'Lyon', pad: PAD };
}
/** A value the walk is told is a secret, echoed (with ?secret=1) in every 1000th row. */
const SECRET = 'sk-live-7Hq2-pages-walk';
const rowsText = (from: number, to: number, secret = false): string => Array.from({ length: Math.max(0, to - from) }, (_, k) => {
  const i = from + k;
  return JSON.stringify(secret && i % 1000 === 5 ? { ...row(i), pad: SECRET } : row(i));
}).join(',');

const ROW_SCHEMA: JSONSchema = { type: 'object', required: ['id', 'name'], properties: { id: { type: 'integer' }, name: { type: 'string' }, city: { type: 'string' }, pad: { type: 'string' } } };
const base = createCatalog().operationById('fundraising/Constituents/GetConstituent')!;
const operation = (properties: Record<string, JSONSchema>): Operation => ({
  ...base, origin: 'import', responseBody: undefined,
  responseBodyJsonSchema: { type: 'object', properties },
  imported: { source: 'pages.json', contributed: ['operation'] },
});
const LIST_OP = operation({ count: { type: 'integer' }, value: { type: 'array', items: ROW_SCHEMA }, next_link: { type: 'string' } });
const DATA_OP = operation({ data: { type: 'array', items: ROW_SCHEMA }, meta: { type: 'object', properties: { cursor: { type: ['string', 'null'] } } } });
const ASSETS_OP = operation({
  Assets: { type: 'array', items: ROW_SCHEMA }, BatchID: { type: 'string' }, Remaining: { type: 'integer' },
  ResponseStatus: { type: 'boolean' }, Errors: { type: 'array', items: { type: 'object' } },
});

/** The server's pages: the configurable style's list (next_link after the rows) and cursor (meta.cursor after them), and the batch cursor. */
function pageText(req: IncomingMessage, body: string, count: number): string {
  const url = new URL(req.url ?? '/', 'http://x');
  const limit = Number(url.searchParams.get('limit') ?? PAGE);
  if (url.pathname === '/v1/items') {
    const total = Number(url.searchParams.get('total') ?? TOTAL);
    // ?other=N: a larger array of other objects before the rows (about 100 bytes each), which the rule passes over for `value`.
    const other = Number(url.searchParams.get('other') ?? 0);
    const others = other > 0 ? `"other":[${Array.from({ length: other }, (_, k) => `{"k":${k},"pad":"${PAD}"}`).join(',')}],` : '';
    const from = Number(url.searchParams.get('offset') ?? 0);
    const to = Math.min(total, from + limit);
    const next = to < total ? `,"next_link":"/v1/items?offset=${to}&limit=${limit}&total=${total}&other=${other}${url.searchParams.has('secret') ? '&secret=1' : ''}"` : '';
    // ?secret=1: a secret value echoed in every 1000th row.
    return `{${others}"count":${total},"value":[${rowsText(from, to, url.searchParams.has('secret'))}]${next}}`;
  }
  if (url.pathname === '/v1/data') {
    const from = Number((url.searchParams.get('cursor') ?? 'c0').slice(1));
    const to = Math.min(TOTAL, from + limit);
    return `{"data":[${rowsText(from, to)}],"meta":{"cursor":${to < TOTAL ? `"c${to}"` : 'null'}}}`;
  }
  // The batch cursor: BatchID and Remaining after the rows (or before them, ?first=1); the second batch carries a business error.
  const asked = JSON.parse(body || '{}') as { BatchID?: string; BatchSize?: number };
  const from = asked.BatchID ? Number(asked.BatchID.slice(1)) : 0;
  const to = Math.min(TOTAL, from + (asked.BatchSize ?? PAGE));
  const control = `"BatchID":"b${to}","Remaining":${TOTAL - to}`;
  const business = count === 2 ? ',"ResponseStatus":false,"Errors":[{"ErrorCode":3,"ErrorDescription":"The brand is not allowed"}]' : '';
  const assets = `"Assets":[${rowsText(from, to)}]`;
  return url.searchParams.get('first') ? `{${control},${assets}${business}}` : `{${assets},${control}${business}}`;
}

interface Armed {
  /** The next request answered is cut after this share of its bytes (once). */
  cut?: number;
  /** The next request answered waits after this many bytes until `resume` (once). */
  hold?: { readonly bytes: number; readonly resume: Promise<void> };
}

let loop: Loopback;
let origin = '';
let dir = '';
/** What the server was asked, in order: the walk's next-page decisions. */
let asked: string[] = [];
let served = 0;
const armed: Armed = {};

async function answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const body = Buffer.concat(chunks).toString('utf8');
  asked.push(`${req.method} ${req.url} ${body}`);
  const text = Buffer.from(pageText(req, body, ++served));
  const cut = armed.cut === undefined ? text.length : Math.floor(text.length * armed.cut);
  const hold = armed.hold;
  armed.cut = undefined;
  armed.hold = undefined;
  res.writeHead(200, { 'content-type': 'application/json' });
  for (let at = 0; at < cut;) {
    if (hold && at >= hold.bytes) await Promise.race([hold.resume, deadline('the walk never wrote rows while the page arrived')]);
    const end = Math.min(cut, at + 16_384, hold && at < hold.bytes ? hold.bytes : Infinity);
    // Each piece handed to the socket before the next (a cut must not lose bytes it says were sent).
    await new Promise<void>((resolve, reject) => res.write(text.subarray(at, end), (error) => (error ? reject(error) : resolve())));
    at = end;
  }
  if (cut < text.length) res.socket?.destroy();
  else res.end();
}

/** A bound on a wait, so a walk that never does what is awaited fails the test instead of hanging it. */
function deadline(what: string): Promise<never> {
  return new Promise((_, reject) => setTimeout(() => reject(new Error(what)), 10_000).unref());
}

/** What a page gave the walk's caller: everything a step reads, and whether it came streamed. */
function pageFacts(event: PageEvent, op: Operation): Record<string, unknown> {
  const drift = checkContract(op, { status: event.response.status, headers: event.response.headers, body: event.body });
  return {
    page: event.page, rowCount: event.rowCount, rowsPath: event.rowsPath, next: event.checkpoint.next ? `${event.checkpoint.next.url} ${event.checkpoint.next.body ?? ''}` : undefined,
    done: event.checkpoint.done, endReason: event.checkpoint.endReason,
    drift: { findings: drift.findings, notChecked: drift.notChecked },
    business: detectBusinessErrors(event.body),
  };
}

interface Walked {
  readonly result: WalkResult;
  readonly pages: Record<string, unknown>[];
  /** Per page: its rows came streamed (never held whole, never handed over as objects). */
  readonly streamed: boolean[];
  readonly lines: string[];
  readonly asked: string[];
}

async function walkTo(name: string, request: HttpRequest, plan: PagingPlan, op: Operation, buffered: boolean, wrap: (sink: RowSink) => RowSink = (s) => s): Promise<Walked> {
  const path = join(dir, `${name}-${buffered ? 'buffered' : 'streamed'}.ndjson`);
  const sink = await openNdjsonSink(path);
  const pages: Record<string, unknown>[] = [];
  const streamed: boolean[] = [];
  asked = [];
  served = 0;
  const result = await walk(request, {
    plan, sink: wrap(sink), ...(buffered ? { streamRows: false } : {}),
    onPage: (event) => {
      pages.push(pageFacts(event, op));
      streamed.push(event.rows.length === 0 && event.response.bodyText === '');
    },
  });
  await sink.close();
  return { result, pages, streamed, lines: readFileSync(path, 'utf8').split('\n').filter(Boolean), asked };
}

/** The walk's result as a caller reads it (its times left out). */
function verdictOf(result: WalkResult): Record<string, unknown> {
  const { outcome, verdict, message, pages, rows, bytes, resumeAt, failure, cannotResume, notices } = result;
  const { next, done, endReason } = result.checkpoint;
  return { outcome, verdict, message, pages, rows, bytes, resumeAt, failure, cannotResume, notices, next, done, endReason };
}

const plan = (style: PagingPlan['style'], options: Record<string, string> = {}): PagingPlan => ({ style, options, source: 'directive' });
const get = (path: string): HttpRequest => ({ method: 'GET', url: `${origin}${path}`, headers: {} });
const post = (path: string, body: unknown): HttpRequest => ({ method: 'POST', url: `${origin}${path}`, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });

const WALKS: readonly { readonly name: string; readonly request: () => HttpRequest; readonly plan: PagingPlan; readonly op: Operation }[] = [
  { name: 'configurable, next_link after the rows', request: () => get(`/v1/items?offset=0&limit=${PAGE}`), plan: plan('generic'), op: LIST_OP },
  // Its first array (1.4 MB, past what is held in memory) is written to the page as it arrives, then cut off again.
  { name: 'configurable, a larger array before the rows', request: () => get(`/v1/items?offset=0&limit=${PAGE}&other=16000`), plan: plan('generic'), op: LIST_OP },
  { name: 'configurable, cursor=cursor cursorField=meta.cursor after the rows', request: () => get(`/v1/data?limit=${PAGE}`), plan: plan('generic', { cursor: 'cursor', cursorField: 'meta.cursor' }), op: DATA_OP },
  { name: 'batch cursor, BatchID and Remaining after the rows', request: () => post('/api/CustomerAsset/GetAssets', { BatchSize: PAGE }), plan: plan('batch-cursor'), op: ASSETS_OP },
  { name: 'batch cursor, items=Assets (a top-level field)', request: () => post('/api/CustomerAsset/GetAssets', { BatchSize: PAGE }), plan: plan('batch-cursor', { items: 'Assets' }), op: ASSETS_OP },
  { name: 'batch cursor, BatchID and Remaining before the rows', request: () => post('/api/CustomerAsset/GetAssets?first=1', { BatchSize: PAGE }), plan: plan('batch-cursor'), op: ASSETS_OP },
];

const expectedLines = (count: number): string[] => Array.from({ length: count }, (_, i) => JSON.stringify(row(i)));

void describe('the configurable and batch-cursor styles stream each page, as buffered', () => {
  // Pages of about 300 KB, past a held bound made small (heldBody.ts): each is streamed, the subject here.
  const heldBound = HELD.bytes;
  before(async () => {
    HELD.bytes = 16 * 1024;
    loop = await startLoopback('apiwb-paged-styles-', (req, res) => void answer(req, res).catch(() => res.socket?.destroy()));
    ({ origin, dir } = loop);
  });
  after(async () => {
    HELD.bytes = heldBound;
    await loop.close();
  });

  for (const w of WALKS) {
    void it(`${w.name}: the same rows, counts, verdict, drift, business errors and next requests`, async () => {
      const oracle = await walkTo(w.name, w.request(), w.plan, w.op, true);
      const streamed = await walkTo(w.name, w.request(), w.plan, w.op, false);
      assert.equal(oracle.result.verdict, 'complete', oracle.result.message);
      assert.deepEqual(oracle.lines, expectedLines(TOTAL), 'the oracle wrote every row once, in order');
      assert.deepEqual(oracle.streamed, [false, false, false], 'the oracle read each page whole');
      assert.deepEqual(streamed.streamed, [true, true, true], 'each page streamed: never held whole');
      assert.deepEqual(streamed.lines, oracle.lines, 'rows');
      assert.deepEqual(verdictOf(streamed.result), verdictOf(oracle.result), 'counts and verdict');
      assert.deepEqual(streamed.asked, oracle.asked, 'the same next requests');
      assert.deepEqual(streamed.pages, oracle.pages, 'per page: counts, rows path, next request, drift, business errors');
      // Drift is there to be found, in every page's first rows, and no stand-in is taken for a row.
      for (const page of streamed.pages) {
        const { findings } = page['drift'] as { findings: { kind: string; path: string }[] };
        const rows = page['rowsPath'] as string;
        const inRows = findings.filter((f) => f.path.startsWith(`$.${rows}[`));
        assert.deepEqual(inRows.map((f) => `${f.kind} ${f.path}`), [`type-mismatch $.${rows}[7].name`, `undocumented-field $.${rows}[11].note`]);
      }
      if (w.plan.style === 'batch-cursor') assert.equal((streamed.pages[1]!['business'] as { failed: boolean }).failed, true, 'the second batch\'s business error is read');
    });
  }

  void it('a page\'s rows reach the file while the page arrives (the next page is not asked before it is kept)', async () => {
    // Two pages of 15 000 rows (about 1.8 MB each, past the 1 MiB a candidate array's rows are held in
    // memory): the server holds back the first page's end until the file has taken rows of it.
    let wrote!: () => void;
    const written = new Promise<void>((resolve) => { wrote = resolve; });
    armed.hold = { bytes: 1_400_000, resume: written };
    const watching = (sink: RowSink): RowSink => ({
      ...sink,
      openPage() {
        const page = sink.openPage!();
        return { ...page, writeNdjson: async (lines, n, keys) => { await page.writeNdjson(lines, n, keys); if (n > 0) wrote(); } };
      },
    });
    const walked = await walkTo('held', get('/v1/items?offset=0&limit=15000&total=30000'), plan('generic'), LIST_OP, false, watching);
    assert.equal(walked.result.verdict, 'complete', walked.result.message);
    assert.deepEqual(walked.lines, expectedLines(30_000));
    assert.deepEqual(walked.streamed, [true, true]);
  });

  void it('a secret echoed in rows written to the lent page never reaches the file (the redacting sink, as the editor walks)', async () => {
    const redacting = (sink: RowSink): RowSink => redactingSink(sink, () => new Redactor([SECRET]));
    const walked = await walkTo('secret', get('/v1/items?offset=0&limit=15000&total=30000&other=16000&secret=1'), plan('generic'), LIST_OP, false, redacting);
    assert.equal(walked.result.verdict, 'complete', walked.result.message);
    assert.deepEqual(walked.streamed, [true, true]);
    assert.equal(walked.lines.length, 30_000);
    const text = walked.lines.join('\n');
    assert.ok(!text.includes(SECRET), 'the secret is not in the file');
    assert.equal(walked.lines.filter((line) => line.includes('"pad":"***"')).length, 30, 'each echo masked in place');
  });

  void it('a walk whose rows are only counted (apiwb run --all-pages) counts as the oracle, and never gathers a page to drop it', async () => {
    let handed = 0;
    const counting = (): RowSink => ({
      format: 'memory', countsOnly: true, checkpoint: () => undefined, close: () => Promise.resolve(),
      writePage: () => Promise.resolve(),
      writeNdjsonPage: (lines) => { handed += lines.reduce((n, b) => n + b.length, 0); return Promise.resolve(); },
    });
    const request = (): HttpRequest => get('/v1/items?offset=0&limit=15000&total=30000&other=16000');
    const oracle = await walk(request(), { plan: plan('generic'), sink: counting(), streamRows: false });
    handed = 0;
    const counted = await walk(request(), { plan: plan('generic'), sink: counting() });
    assert.equal(counted.verdict, 'complete', counted.message);
    assert.deepEqual(verdictOf(counted), verdictOf(oracle));
    assert.equal(counted.rows, 30_000);
    assert.equal(handed, 0, 'no page\'s rows were gathered and handed to a sink that drops them');
  });

  for (const w of [WALKS[0]!, WALKS[3]!, WALKS[4]!]) {
    void it(`${w.name}: a page cut mid-stream is not kept, the pages before it are, and the walk is not complete`, async () => {
      // Once the first page is kept, the next request's answer is cut halfway.
      const cutSecond = async (buffered: boolean): Promise<Walked> => {
        const request = w.request();
        let sent = 0;
        const path = join(dir, `cut-${buffered ? 'b' : 's'}-${w.plan.style}.ndjson`);
        const sink = await openNdjsonSink(path);
        asked = [];
        served = 0;
        const result = await walk(request, {
          plan: w.plan, sink, ...(buffered ? { streamRows: false } : {}),
          onPage: () => { if (++sent === 1) armed.cut = 0.5; },
        });
        await sink.close();
        return { result, pages: [], streamed: [], lines: readFileSync(path, 'utf8').split('\n').filter(Boolean), asked };
      };
      const oracle = await cutSecond(true);
      const streamed = await cutSecond(false);
      assert.equal(oracle.result.verdict, 'failed', oracle.result.message);
      assert.notEqual(streamed.result.verdict, 'complete');
      assert.deepEqual(verdictOf(streamed.result), verdictOf(oracle.result));
      assert.deepEqual(streamed.lines, expectedLines(PAGE), 'the first page kept, nothing of the cut one');
      assert.equal(streamed.result.resumeAt, 2);
      // Resumed from its checkpoint into the same file: every row once.
      const checkpoint = streamed.result.checkpoint;
      const sink = await reopenFileSink(checkpoint.sink!);
      const resumed = await walk(w.request(), { plan: w.plan, sink, resumeFrom: checkpoint });
      await sink.close();
      assert.equal(resumed.verdict, 'complete', resumed.message);
      assert.deepEqual(readFileSync(checkpoint.sink!.path, 'utf8').split('\n').filter(Boolean), expectedLines(TOTAL));
    });
  }

  void it('a single page cut mid-stream keeps exactly the rows fully received, and is not complete', async () => {
    const path = join(dir, 'single-cut.ndjson');
    const sink = await openNdjsonSink(path);
    armed.cut = 0.6;
    asked = [];
    const request = get('/v1/items?offset=0&limit=9000');
    const result = await walk(request, { plan: plan('generic'), sink, maxPages: 1, rowsAsTheyArrive: true, continuable: false });
    await sink.close();
    assert.equal(result.verdict, 'failed', result.message);
    const text = pageText({ url: '/v1/items?offset=0&limit=9000' } as IncomingMessage, '', 1);
    const received = text.slice(0, Math.floor(Buffer.byteLength(text) * 0.6));
    // Every row whose closing brace arrived (the one after it started: its comma came too).
    const whole = expectedLines(TOTAL).filter((line) => received.includes(`${line},`));
    assert.ok(whole.length > 1000 && whole.length < TOTAL, `${whole.length} rows`);
    assert.deepEqual(readFileSync(path, 'utf8').split('\n').filter(Boolean), whole);
  });
});
