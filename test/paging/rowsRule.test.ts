// The one rows rule (src/core/paging/rows.ts) gives one answer at every level: the rule itself, the walker
// over real HTTP (buffered and streamed to an NDJSON file), the exchange (its count, what `apiwb run`
// prints and writes to --out, counted or streamed), the panel's view model, and `apiwb run` in process.
// The reproducer: a booking page {"Errors":[],"Bookings":[2 rows]} with X-Pagination-Total-Pages: 2 was
// counted as 0 rows by the exchange (the first array, the empty error list), its walk ended "complete:
// page 1 is empty" without asking page 2, and the panel showed 2 rows. Beside it: an empty error array
// beside the rows, two arrays of objects (the larger holds the rows), a style's row path (Orders, even
// beside a larger array), a top-level array.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { SecretBindings } from '../../src/core/secrets/bindings';
import { bookingService } from '../../src/core/catalog/booking';
import { engagementService } from '../../src/core/catalog/engagement';
import { fundraisingService } from '../../src/core/catalog/fundraising';
import { createCatalog } from '../../src/core/catalog/index';
import { openNdjsonSink } from '../../src/core/export/ndjsonSink';
import { memorySink } from '../../src/core/export/sink';
import { closeHttpAgents, httpClient } from '../../src/core/http/client';
import { parseHttpFile } from '../../src/core/httpfile/parser';
import { rowsRule } from '../../src/core/paging/rows';
import { walk } from '../../src/core/paging/walker';
import type { PagingPlan } from '../../src/core/paging/types';
import { rowsOfBody } from '../../src/core/paging/rows';
import { viewModelOfExchange } from '../../src/core/results/exchangeView';
import { buildResultsViewModel } from '../../src/core/results/viewModel';
import { DISCARD, runExchange, type ExchangePorts } from '../../src/core/run/exchange';
import { Redactor } from '../../src/core/secrets';
import { runInProcess } from '../cli/inProcess';
import type { PrepareContext } from '../../src/core/run/prepareRequest';
import { devContext } from '../unit/exchangeContext';

const rowsOf = (from: number, count: number) => Array.from({ length: count }, (_, i) => ({ id: from + i, name: `row ${from + i}` }));
const LINKS = [{ rel: 'self', href: '/x' }];

/** Each case: a route serving two pages (page-headers) and where the rows must be found. */
interface Case {
  readonly name: string;
  readonly route: string;
  /** The rows of a page, and the body that holds them. */
  readonly rows: (page: number) => readonly { id: number }[];
  readonly body: (rows: readonly unknown[]) => unknown;
  readonly path: string;
}
const two = (p: number) => rowsOf(p * 10, 2);
const CASES: readonly Case[] = [
  { name: 'the reproducer: an empty error list before the rows', route: '/bookings', rows: two, body: (rows) => ({ Errors: [], Bookings: rows }), path: 'Bookings' },
  { name: 'an empty error list after the rows', route: '/after', rows: two, body: (rows) => ({ Bookings: rows, Errors: [] }), path: 'Bookings' },
  { name: 'two arrays of objects: the larger holds the rows', route: '/two', rows: (p) => rowsOf(p * 10, 3), body: (rows) => ({ Links: LINKS, Rows: rows }), path: 'Rows' },
  { name: 'a top-level array', route: '/top', rows: two, body: (rows) => rows, path: '$' },
];
const ORDERS = (page: number) => ({ Response: true, PageNumber: page, PageSize: 2, TotalOrders: 4, Recent: rowsOf(900, 5), Orders: rowsOf(page * 10, 2) });

let server: Server;
let base = '';
const asked: string[] = [];
let dir = '';

function send(res: ServerResponse, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(200, { 'Content-Type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

const context = (): PrepareContext => devContext(base);
const ports: ExchangePorts = { http: httpClient, catalog: createCatalog([engagementService, fundraisingService, bookingService]), timeoutMs: 5000, guard: new SecretBindings() };
const fileOf = (c: Case) => parseHttpFile(`# @paging page-headers\nGET {{base}}${c.route}\n`);
const ids = (rows: readonly unknown[]) => rows.map((r) => (r as { id: number }).id);
const linesIn = (path: string) => readFileSync(path, 'utf8').split('\n').filter(Boolean).map((l) => (JSON.parse(l) as { id: number }).id);

void describe('the one rows rule', () => {
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'apiwb-rows-rule-'));
    server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      asked.push(`${url.pathname}?${url.searchParams.toString()}`);
      const page = Number(url.searchParams.get('page') ?? url.searchParams.get('pageNumber') ?? 1);
      if (url.pathname === '/orders') return send(res, ORDERS(page));
      const found = CASES.find((c) => c.route === url.pathname);
      if (!found) return send(res, {}, {});
      // Totals that agree with the two pages served: a walk that keeps fewer rows than announced is inconsistent.
      const perPage = found.rows(1).length;
      const total = perPage + found.rows(2).length;
      send(res, found.body(found.rows(page)), { 'X-Pagination-Page': String(page), 'X-Pagination-Total-Pages': '2', 'X-Pagination-Per-Page': String(perPage), 'X-Pagination-Total-Results': String(total) });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    await closeHttpAgents();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    rmSync(dir, { recursive: true, force: true });
  });

  void it('the rule: where each body holds its rows, for the panel (no style) and for page-headers alike', () => {
    for (const c of CASES) {
      const body = c.body(c.rows(1));
      const found = rowsRule('page-headers', {}).find(body);
      assert.ok(found.ok, c.name);
      assert.deepEqual([found.path, ids(found.rows)], [c.path, ids(c.rows(1))], c.name);
      assert.equal(rowsOfBody(body)?.path, c.path, `${c.name}: the panel's table of the body`);
    }
    // A style's row path wins over a larger array; items= wins over everything; a business-error list is never rows.
    assert.deepEqual(rowsRule('page-number', {}).find(ORDERS(1)), { ok: true, path: 'Orders', rows: rowsOf(10, 2) });
    assert.deepEqual(rowsRule('page-headers', { items: 'Recent' }).find(ORDERS(1)), { ok: true, path: 'Recent', rows: rowsOf(900, 5) });
    assert.equal(rowsRule('page-headers', {}).find({ Errors: [{ ErrorCode: 3 }] }).ok, false);
    assert.equal(rowsRule('page-number', {}).find({ Rows: rowsOf(1, 2) }).ok, false, 'page-number: the contract fixes Orders');
    assert.deepEqual(rowsRule('page-headers', {}).find({ Errors: [], Bookings: [] }), { ok: true, path: 'Bookings', rows: [] }, 'an empty page is a page of no rows');
  });

  for (const c of CASES) {
    void it(`${c.name}: the walker over HTTP finds them on every page and asks page 2 (buffered and streamed)`, async () => {
      const plan: PagingPlan = { style: 'page-headers', options: {}, source: 'directive' };
      const memory = memorySink();
      asked.length = 0;
      const paths: string[] = [];
      const buffered = await walk({ method: 'GET', url: `${base}${c.route}`, headers: {} }, { plan, sink: memory, onPage: (e) => { paths.push(e.rowsPath); } });
      assert.equal(buffered.verdict, 'complete', buffered.message);
      assert.deepEqual(asked, [`${c.route}?`, `${c.route}?page=2`], 'page 2 is asked for');
      assert.deepEqual([buffered.pages, ids(memory.pages.flat()), paths], [2, [...ids(c.rows(1)), ...ids(c.rows(2))], [c.path, c.path]]);

      const out = join(dir, `${c.route.slice(1)}.ndjson`);
      const file = await openNdjsonSink(out);
      const streamed = await walk({ method: 'GET', url: `${base}${c.route}`, headers: {} }, { plan, sink: file });
      await file.close();
      assert.equal(streamed.verdict, 'complete', streamed.message);
      assert.deepEqual(linesIn(out), [...ids(c.rows(1)), ...ids(c.rows(2))], 'the NDJSON file holds both pages');
    });

    void it(`${c.name}: the exchange counts what the panel shows, and --out gets them`, async () => {
      const first = await runExchange({ file: fileOf(c), requestIndex: 0, prepare: context(), pages: 'first' }, ports);
      assert.equal(first.ok, true, first.problem);
      assert.deepEqual([first.rows?.path, first.rows?.count, ids(first.rows?.items ?? [])], [c.path, c.rows(1).length, ids(c.rows(1))]);
      assert.equal(first.paging?.more, true, 'page 2 is offered');
      const view = viewModelOfExchange(first, first.response!, { requestKey: 'k', title: 't', redactor: new Redactor([]) });
      assert.deepEqual([view.table?.source, view.table?.rows.length], [c.path, first.rows?.count], 'the panel: one row count');
      const fromHistory = buildResultsViewModel({ requestKey: 'h', title: 'h', request: { method: 'GET', url: base, headers: {} }, response: first.response! });
      assert.equal(fromHistory.table?.rows.length, first.rows?.count, 'the panel from history (no paging plan)');

      // The CLI's counted page (rowsTo that only counts) and its all-pages walk into a file.
      const counted = await runExchange({ file: fileOf(c), requestIndex: 0, prepare: context(), pages: 'first', rowsTo: DISCARD, continuable: false }, ports);
      assert.deepEqual([counted.rows?.path, counted.rows?.count], [c.path, c.rows(1).length], 'counted as the CLI counts');
      const out = join(dir, `exchange-${c.route.slice(1)}.ndjson`);
      const sink = await openNdjsonSink(out);
      const all = await runExchange({ file: fileOf(c), requestIndex: 0, prepare: context(), pages: 'all', walk: { sink } }, ports);
      await sink.close();
      assert.deepEqual([all.ok, all.walk?.verdict, all.pages, all.rows?.count, all.rows?.path], [true, 'complete', 2, c.rows(1).length * 2, c.path]);
      assert.deepEqual(linesIn(out), [...ids(c.rows(1)), ...ids(c.rows(2))]);
    });
  }

  void it("a style's row path: page-number counts Orders, not the larger array beside it, at every level", async () => {
    const file = parseHttpFile('# @paging page-number\nGET {{base}}/orders?pageNumber=1&pageSize=2\n');
    const first = await runExchange({ file, requestIndex: 0, prepare: context(), pages: 'first' }, ports);
    assert.deepEqual([first.rows?.path, ids(first.rows?.items ?? [])], ['Orders', [10, 11]], first.problem);
    const view = viewModelOfExchange(first, first.response!, { requestKey: 'k', title: 't', redactor: new Redactor([]) });
    assert.deepEqual([view.table?.source, view.table?.rows.length], ['Orders', 2]);
    const all = await runExchange({ file, requestIndex: 0, prepare: context(), pages: 'all' }, ports);
    assert.deepEqual([all.walk?.verdict, all.rows?.count], ['complete', 4], all.walk?.message);
  });

  void it('apiwb run prints the rows the panel shows and writes every page to --out', async () => {
    const http = join(dir, 'bookings.http');
    const envFile = join(dir, 'http-client.env.json');
    writeFileSync(http, '### bookings\n# @name bookings\n# @paging page-headers\nGET {{base}}/bookings\n');
    writeFileSync(envFile, JSON.stringify({ local: { base } }));
    const one = await runInProcess([http, '--env', 'local', '--env-file', envFile]);
    assert.equal(one.code, 0, one.stdout + one.stderr);
    assert.match(one.stdout, /^✓ bookings {2}GET \S+\/bookings {2}200 {2}\d+ ms \(server \d+ ms\) {2}2 rows/m);
    const out = join(dir, 'cli.ndjson');
    const walked = await runInProcess([http, '--env', 'local', '--env-file', envFile, '--all-pages', '--out', out]);
    assert.equal(walked.code, 0, walked.stdout + walked.stderr);
    assert.deepEqual(linesIn(out), [10, 11, 20, 21]);
  });
});

