// A History entry's stored response as a side of a comparison (issue 32): written by the real History
// store (which redacts before writing), read back by storedSide and compared by compareSides. The rows
// are found by the request's paging plan (the catalog's operation, or the stored block's # @paging),
// the key is the operation's identifying field, a secret never reaches the rows or the summary, and a
// body History cut, or no response at all, is said and never compared as an empty page.
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { CONTRACT_SERVICES, createCatalog } from '../../src/core/catalog';
import { compareSides } from '../../src/core/compare/compareSides';
import { storedSide } from '../../src/core/compare/storedSide';
import { HistoryStore, type HistoryRecord, type StoredExchange } from '../../src/core/history';
import type { HttpResponse } from '../../src/core/http/types';
import { Redactor } from '../../src/core/secrets';
import { memoryHistoryFiles } from './memoryHistoryFiles';

const SERVICE_KEY = 'sk_5be0c2a8d1f94e7aa3c6b0d2e4f6a8c1';
const catalog = createCatalog(CONTRACT_SERVICES);
const TRANSACTIONS = 'http://127.0.0.1:9/v1/transactions?limit=5';

function response(body: unknown, status = 200): HttpResponse {
  const bodyText = typeof body === 'string' ? body : JSON.stringify(body);
  return { status, statusText: 'OK', headers: { 'content-type': 'application/json' }, bodyText, timing: { startedAt: 0, firstByteMs: 1, totalMs: 2 }, sizeBytes: bodyText.length };
}

const payment = (id: number, amount: number, extra: Record<string, unknown> = {}): Record<string, unknown> => ({ transactionId: id, amount, dateAdded: `2026-11-0${id % 9 + 1}T10:00:00Z`, ...extra });

let dir: string;
let n = 0;
before(async () => { dir = await mkdtemp(join(tmpdir(), 'apiwb-stored-side-')); });
after(async () => rm(dir, { recursive: true, force: true }));

/** Records through a real History store (redacting with the service key known) and reads the entry back. */
async function stored(over: Partial<HistoryRecord>, limits: { maxBodyChars?: number } = {}): Promise<StoredExchange> {
  const store = new HistoryStore(memoryHistoryFiles(), () => new Redactor([SERVICE_KEY]), limits);
  const entry = await store.record({ request: { method: 'GET', url: TRANSACTIONS, headers: { Authorization: `Basic ${Buffer.from(`perm:${SERVICE_KEY}`).toString('base64')}` } }, environment: 'sandbox', ...over });
  const back = await store.exchange(entry.id);
  assert.ok(back);
  return back;
}

const rowsFile = (): string => join(dir, `${n++}.ndjson`);

void describe('a stored response as a side of a comparison', () => {
  void it('two stored responses compare record by record, keyed by the operation\'s identifying field', async () => {
    const older = await stored({ response: response({ count: 4, value: [payment(1, 10), payment(2, 20), payment(3, 30), payment(4, 40)] }) });
    const newer = await stored({ response: response({ count: 4, value: [payment(4, 40), payment(3, 31), payment(1, 10), payment(5, 50)] }) });
    const a = await storedSide(older, catalog, rowsFile());
    const b = await storedSide(newer, catalog, rowsFile());
    assert.equal(a.recordKey, 'transactionId');
    assert.deepEqual([a.summary.status, a.summary.rows, a.summary.business], [200, 4, 'ok']);
    const differences: unknown[] = [];
    const comparison = await compareSides('payments', a, b, { ignore: [], tempDir: dir, onDifference: (d) => { differences.push(d); } });
    const r = comparison.records;
    // Moved records (4, 1) are no change; 3 changed its amount, 2 went, 5 came.
    assert.deepEqual([r?.added, r?.removed, r?.changed, r?.unchanged], [1, 1, 1, 2]);
    assert.equal(comparison.differs, true);
    assert.deepEqual(comparison.differences, []);
  });

  void it('a secret in a stored row is not in the rows compared (History redacted it before writing)', async () => {
    const withSecret = await stored({ response: response({ count: 1, value: [payment(7, 70, { note: `key ${SERVICE_KEY}` })] }) });
    const file = rowsFile();
    const side = await storedSide(withSecret, catalog, file);
    assert.equal(side.rowsFile, file);
    const rows = await readFile(file, 'utf8');
    assert.equal(rows.split('\n').filter(Boolean).length, 1);
    assert.ok(!rows.includes(SERVICE_KEY), 'the service key is not in the rows');
    assert.match(rows, /"transactionId":7/);
    assert.ok(!JSON.stringify(side.summary).includes(SERVICE_KEY));
  });

  void it('the stored block\'s # @paging items= says where the rows are, as it does for the request sent', async () => {
    const body = { big: [{ id: 1 }, { id: 2 }, { id: 3 }], chosen: [{ id: 9 }] };
    const url = 'http://127.0.0.1:9/api/unknown';
    const plain = await storedSide(await stored({ request: { method: 'GET', url, headers: {} }, response: response(body) }), catalog, rowsFile());
    assert.equal(plain.summary.rows, 3, 'with no plan: the largest array of objects');
    const directed = await storedSide(await stored({ request: { method: 'GET', url, headers: {} }, source: `# @name x\n# @paging generic items=chosen\nGET ${url}\n`, response: response(body) }), catalog, rowsFile());
    assert.equal(directed.summary.rows, 1);
    assert.match(await readFile(directed.rowsFile ?? '', 'utf8'), /"id":9/);
  });

  void it('a body History cut has no rows to compare: said as side A\'s problem, never compared as empty', async () => {
    const cut = await stored({ response: response({ count: 3, value: [payment(1, 10), payment(2, 20), payment(3, 30)] }) }, { maxBodyChars: 40 });
    const whole = await stored({ response: response({ count: 3, value: [payment(1, 10), payment(2, 20), payment(3, 30)] }) });
    const a = await storedSide(cut, catalog, rowsFile());
    assert.equal(a.rowsFile, undefined);
    assert.match(a.summary.problem ?? '', /^the stored body was cut \(Kept the first 40 of \d+ characters/);
    const comparison = await compareSides('payments', a, await storedSide(whole, catalog, rowsFile()), { ignore: [], tempDir: dir });
    assert.equal(comparison.records, undefined);
    assert.equal(comparison.differs, true);
    assert.match(comparison.differences.join('\n'), /side A failed: the stored body was cut/);
  });

  void it('an entry with no response is a side with its fault, and no rows', async () => {
    const fault = await stored({ fault: 'connect ECONNREFUSED 127.0.0.1:9' });
    const side = await storedSide(fault, catalog, rowsFile());
    assert.deepEqual([side.summary.status, side.summary.problem, side.rowsFile], [undefined, 'connect ECONNREFUSED 127.0.0.1:9', undefined]);
  });

  void it('an empty list is a side with zero rows (compared: everything on the other side is added)', async () => {
    const empty = await storedSide(await stored({ response: response({ count: 0, value: [] }) }), catalog, rowsFile());
    const full = await storedSide(await stored({ response: response({ count: 2, value: [payment(1, 10), payment(2, 20)] }) }), catalog, rowsFile());
    assert.equal(empty.summary.rows, 0);
    const r = (await compareSides('payments', empty, full, { ignore: [], tempDir: dir })).records;
    assert.deepEqual([r?.added, r?.removed, r?.changed, r?.unchanged], [2, 0, 0, 0]);
  });
});
