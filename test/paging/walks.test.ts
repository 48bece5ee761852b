// Walks over real HTTP against the sandbox (in-process, port 0): every paging style to the row count
// the sandbox declares, then faults (drop mid-page, 500, malformed JSON, timeout) that keep every page
// already written and resume to the same total without duplicates.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { reopenFileSink, type RowSink } from '../../src/core/export';
import { memorySink } from '../../src/core/export/sink';
import { openCsvSink } from '../../src/core/export/csvSink';
import { openNdjsonSink } from '../../src/core/export/ndjsonSink';
import { closeHttpAgents, sendRequest } from '../../src/core/http/client';
import type { HttpRequest } from '../../src/core/http/types';
import { type WalkResult } from '../../src/core/paging';
import { walk } from '../../src/core/paging/walker';
import type { PagingPlan } from '../../src/core/paging/types';
import { startSandbox, type RunningSandbox } from '../../src/sandbox';
import type { SandboxDescriptor } from '../../src/sandbox/descriptor';

const plan = (style: PagingPlan['style'], options: Record<string, string> = {}): PagingPlan => ({ style, options, source: 'catalog' });

async function signIn(d: SandboxDescriptor): Promise<string> {
  const form = new URLSearchParams({ grant_type: 'password', username: d.credentials.engagement.username, password: d.credentials.engagement.password });
  const res = await sendRequest({ method: 'POST', url: `${d.engagement.authUrl}/token`, headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: form.toString() });
  assert.equal(res.status, 200, res.bodyText);
  return (JSON.parse(res.bodyText) as { access_token: string }).access_token;
}

function fundraisingHeaders(d: SandboxDescriptor): Record<string, string> {
  const { tenantCode, fullAccess } = d.credentials.fundraising;
  return { 'X-API-Key': tenantCode, Authorization: `Basic ${Buffer.from(`${fullAccess.permissionName}:${fullAccess.serviceKey}`).toString('base64')}` };
}

const post = (url: string, token: string, body: unknown): HttpRequest =>
  ({ method: 'POST', url, headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });

function collecting(): RowSink & { rows: unknown[] } {
  const inner = memorySink();
  const rows: unknown[] = [];
  return { ...inner, rows, async writePage(page) { rows.push(...page); await inner.writePage(page); } };
}

function assertComplete(result: WalkResult, rows: number): void {
  assert.equal(result.outcome, 'complete', result.message);
  assert.equal(result.rows, rows);
}

void describe('walks against the sandbox, every style', () => {
  let sandbox: RunningSandbox;
  let d: SandboxDescriptor;
  let token: string;
  let clock = Date.now();

  before(async () => {
    // Rate-limited only where a request asks it (X-Sandbox-Choice: rate-limit): the generic walk below.
    sandbox = await startSandbox({ facts: 12_000, bidwTransientEvery: 3, assets: 2_300, rateLimitPerSecond: 2, choices: { 'rate-limit': false }, now: () => clock });
    d = sandbox.descriptor;
    token = await signIn(d);
  });
  after(async () => {
    await sandbox.close();
    await closeHttpAgents();
  });

  void it('page-number: every order of the sample customer (TotalOrders)', async () => {
    const sink = collecting();
    const url = `${d.engagement.baseUrl}/api/Transaction/GetOrdersByCustomer?ctcID=${d.samples.ctcID}&pageSize=500`;
    const result = await walk({ method: 'GET', url, headers: { Authorization: `Bearer ${token}` } }, { plan: plan('page-number'), sink });
    assertComplete(result, d.samples.ordersOfCtcID);
    assert.equal(result.pages, Math.ceil(d.samples.ordersOfCtcID / 500));
    assert.equal(new Set(sink.rows.map((r) => (r as { OrderID: number }).OrderID)).size, d.samples.ordersOfCtcID);
  });

  void it('page-headers: every booking up to X-Pagination-Total-Pages', async () => {
    const result = await walk({ method: 'GET', url: `${d.booking.baseUrl}/bookings`, headers: {} }, { plan: plan('page-headers'), sink: collecting() });
    assertComplete(result, d.samples.bookings);
    assert.equal(result.pages, Math.ceil(d.samples.bookings / d.samples.bookingsPerPage));
  });

  void it('page-headers are detected on their own when no style is named', async () => {
    const result = await walk({ method: 'GET', url: `${d.booking.baseUrl}/bookings`, headers: {} }, { sink: collecting() });
    assert.equal(result.checkpoint.plan.style, 'page-headers');
    assertComplete(result, d.samples.bookings);
  });

  void it('offset-remaining: every lead, ending on the empty page although Remaining stays above 0', async () => {
    const sink = collecting();
    const req = post(`${d.engagement.baseUrl}/api/SalesLeads/GetLeads`, token, { CtcID: d.samples.ctcID, BrandID: d.samples.brandID, PageSize: 100, Offset: 0 });
    const result = await walk(req, { plan: plan('offset-remaining'), sink });
    assertComplete(result, d.samples.leadsOfCtcID);
    assert.match(result.message, /empty page/);
  });

  void it('batch-cursor: every asset, echoing each BatchID', async () => {
    const req = post(`${d.engagement.baseUrl}/api/CustomerAsset/GetAssets`, token, { BatchSize: 1000 });
    const result = await walk(req, { plan: plan('batch-cursor'), sink: collecting() });
    assertComplete(result, d.samples.assets);
    assert.equal(result.pages, 3);
  });

  void it('stateful-extraction: every fact, through the transient errors', async () => {
    const own = await signIn(d); // the extraction position belongs to the token
    const sink = collecting();
    const req = post(`${d.engagement.baseUrl}/api/BIDWHouse/GetFactTransactions`, own, { PageSize: 5000 });
    const result = await walk(req, { plan: plan('stateful-extraction'), sink, retry: { retryDelayMs: 1 } });
    assertComplete(result, d.samples.facts);
    assert.equal(new Set(sink.rows.map((r) => (r as { FactID: number }).FactID)).size, d.samples.facts);
  });

  void it('generic: every constituent by next_link, pacing itself on the announced quota (2 a second)', async () => {
    const waits: number[] = [];
    const result = await walk({ method: 'GET', url: `${d.fundraising.baseUrl}/v1/constituents?limit=200`, headers: { ...fundraisingHeaders(d), 'X-Sandbox-Choice': 'rate-limit' } }, {
      plan: plan('generic'), sink: collecting(),
      // The sandbox runs on a test clock: waiting advances it instead of sleeping.
      sleep: (ms) => { waits.push(ms); clock += ms; return Promise.resolve(); },
      now: () => clock,
    });
    assertComplete(result, d.samples.constituents);
    // 7 pages at 2 a second: a wait after every second page, each to the end of its one-second window.
    assert.equal(waits.length, Math.floor((result.pages - 1) / 2));
    assert.ok(waits.every((ms) => ms > 0 && ms <= 1000), waits.join(', '));
    assert.equal(result.waits, waits.length);
  });

  void it('export-ordinal: 100 000-row pages to NDJSON until the short page', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'apiwb-export-'));
    try {
      const path = join(dir, 'export.ndjson');
      const sink = await openNdjsonSink(path);
      const req = post(`${d.engagement.baseUrl}/api/Selection/GetSelectionResult_Ext`, token, { OFFSET: 1, TableName: '', FormatID: 3 });
      const result = await walk(req, { plan: plan('export-ordinal'), sink });
      await sink.close();
      assertComplete(result, d.samples.exportRows);
      assert.equal(result.pages, Math.ceil(d.samples.exportRows / 100_000));
      const text = readFileSync(path, 'utf8');
      assert.equal(text.split('\n').length - 1, d.samples.exportRows);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

void describe('faults keep what was written and resume to the same total', () => {
  let sandbox: RunningSandbox;
  let d: SandboxDescriptor;
  let token: string;
  let dir: string;

  before(async () => {
    sandbox = await startSandbox({ exportRows: 2_500, selectionPageRows: 1_000, orders: 730, bidwTransientEvery: 0 });
    d = sandbox.descriptor;
    token = await signIn(d);
    dir = mkdtempSync(join(tmpdir(), 'apiwb-faults-'));
  });
  after(async () => {
    await sandbox.close();
    await closeHttpAgents();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Walks to a file, expects a failure of `kind`, checks what is on disk, resumes and checks the total. */
  async function faultAndResume(name: string, req: HttpRequest, walkPlan: PagingPlan, kind: string, total: number, key: string, extra: { timeoutMs?: number } = {}) {
    const path = join(dir, `${name}.ndjson`);
    const sink = await openNdjsonSink(path);
    const sendOptions = extra.timeoutMs ? { timeoutMs: extra.timeoutMs } : {};
    const failed = await walk(req, { plan: walkPlan, sink, sendOptions });
    await sink.close();
    assert.equal(failed.outcome, 'failed', failed.message);
    assert.equal(failed.failure?.kind, kind, failed.message);
    assert.match(failed.message, /written are kept\.$/);
    assert.equal(failed.verdict, 'failed');
    assert.equal(failed.resumeAt, failed.pages + 1);
    const kept = readFileSync(path, 'utf8').split('\n').filter(Boolean);
    assert.equal(kept.length, failed.rows, 'every row of the pages before the fault is on disk');
    assert.ok(failed.rows > 0);
    assert.doesNotMatch(JSON.stringify(failed.checkpoint), new RegExp(token));

    const checkpoint = JSON.parse(JSON.stringify(failed.checkpoint)) as typeof failed.checkpoint;
    assert.ok(checkpoint.sink);
    const reopened = await reopenFileSink(checkpoint.sink);
    const resumed = await walk(req, { plan: walkPlan, sink: reopened, resumeFrom: checkpoint });
    await reopened.close();
    assertComplete(resumed, total);
    const lines = readFileSync(path, 'utf8').split('\n').filter(Boolean);
    assert.equal(lines.length, total);
    assert.equal(new Set(lines.map((l) => (JSON.parse(l) as Record<string, unknown>)[key])).size, total, 'no duplicates');
  }

  void it('a connection dropped mid-page of an export', async () => {
    sandbox.armPageFault('export-ordinal:2:drop');
    const req = post(`${d.engagement.baseUrl}/api/Selection/GetSelectionResult_Ext`, token, { OFFSET: 1, TableName: '', FormatID: 2 });
    await faultAndResume('export-drop', req, plan('export-ordinal', { pageRows: '1000' }), 'dropped', 2_500, 'TransactionID');
  });

  void it('an HTTP 500 on a page of orders', async () => {
    sandbox.armPageFault('page-number:2:status=500');
    const url = `${d.engagement.baseUrl}/api/Transaction/GetOrdersByCustomer?ctcID=${d.samples.ctcID}&pageSize=200`;
    await faultAndResume('orders-500', { method: 'GET', url, headers: { Authorization: `Bearer ${token}` } }, plan('page-number'), 'http', 730, 'OrderID');
  });

  void it('malformed JSON on a page of leads', async () => {
    sandbox.armPageFault('offset-remaining:3:malformed-json');
    const req = post(`${d.engagement.baseUrl}/api/SalesLeads/GetLeads`, token, { CtcID: d.samples.ctcID, BrandID: d.samples.brandID, PageSize: 100, Offset: 0 });
    await faultAndResume('leads-malformed', req, plan('offset-remaining'), 'paging', d.samples.leadsOfCtcID, 'LeadID');
  });

  void it('a timeout on a page of bookings', async () => {
    sandbox.armPageFault('page-headers:4:delay=3000');
    await faultAndResume('bookings-timeout', { method: 'GET', url: `${d.booking.baseUrl}/bookings`, headers: {} }, plan('page-headers'), 'timeout',
      d.samples.bookings, 'bookingId', { timeoutMs: 200 });
  });

  void it('a dropped batch is fetched again with the same BatchID', async () => {
    sandbox.armPageFault('batch-cursor:2:drop');
    const req = post(`${d.engagement.baseUrl}/api/CustomerAsset/GetAssets`, token, { BatchSize: 1000 });
    await faultAndResume('assets-drop', req, plan('batch-cursor'), 'dropped', d.samples.assets, 'AssetID');
  });

  void it('a huge body is stopped at maxBodyBytes with a clear message, pages before it kept', async () => {
    const url = `${d.engagement.baseUrl}/api/Transaction/GetOrdersByCustomer?ctcID=${d.samples.ctcID}&pageSize=500`;
    const sink = collecting();
    let sends = 0;
    const result = await walk({ method: 'GET', url, headers: { Authorization: `Bearer ${token}` } }, {
      plan: plan('page-number'), sink, sendOptions: { maxBodyBytes: 1024 * 1024 },
      // The second page asks the sandbox for a 5 MB body.
      send: (req, options) => sendRequest(++sends === 2 ? { ...req, headers: { ...req.headers, 'X-Sandbox-Fault': 'huge-body=5000000' } } : req, options),
    });
    assert.equal(result.outcome, 'failed');
    assert.equal(result.failure?.kind, 'too-large');
    assert.match(result.message, /page 2: GET .* exceeded the 1\.0 MiB limit/);
    assert.equal(sink.rows.length, 500);
  });

  void it('all pages to CSV: one header, every row', async () => {
    const path = join(dir, 'bookings.csv');
    const sink = await openCsvSink(path);
    const result = await walk({ method: 'GET', url: `${d.booking.baseUrl}/bookings`, headers: {} }, { plan: plan('page-headers'), sink });
    await sink.close();
    assertComplete(result, d.samples.bookings);
    const lines = readFileSync(path, 'utf8').split('\r\n').filter(Boolean);
    assert.equal(lines.length, d.samples.bookings + 1);
    assert.match(lines[0] ?? '', /^bookingId,guestName,/);
  });

  void it('the last export page dropped in flight cannot be fetched again, and the walk says so', async () => {
    sandbox.armPageFault('export-ordinal:3:drop');
    const path = join(dir, 'export-last.ndjson');
    const sink = await openNdjsonSink(path);
    const req = post(`${d.engagement.baseUrl}/api/Selection/GetSelectionResult_Ext`, token, { OFFSET: 1, TableName: '', FormatID: 2 });
    const walkPlan = plan('export-ordinal', { pageRows: '1000' });
    const failed = await walk(req, { plan: walkPlan, sink });
    assert.equal(failed.failure?.kind, 'dropped');
    const resumed = await walk(req, { plan: walkPlan, sink, resumeFrom: failed.checkpoint });
    await sink.close();
    assert.equal(resumed.outcome, 'failed');
    assert.match(resumed.message, /HTTP 400.*cannot be fetched twice/);
    assert.equal(readFileSync(path, 'utf8').split('\n').filter(Boolean).length, 2_000, 'the two pages already written are kept');
  });
});
