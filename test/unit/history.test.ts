// History (issue 13): redacted before anything is written, bounded by count and size, bodies stored
// once and cut with a note, hostile index files survived; Compare documents with volatile fields marked.
import assert from 'node:assert/strict';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { HttpRequest, HttpResponse } from '../../src/core/http/types';
import { Redactor } from '../../src/core/secrets';
import { HistoryStore, compareDocument, directoryHistoryFiles, type HistoryRecord } from '../../src/core/history';
import { VOLATILE_MARK } from '../../src/core/history/compare';
import { memoryHistoryFiles } from './memoryHistoryFiles';

const TOKEN = 'eyJhbGciOiJIUzI1NiJ9.c2FuZGJveA.sig-4f1d2c3b';
const PASSWORD = 'Sandbox Demo&1=x';
const SERVICE_KEY = 'sk_961d8d1fda54eb8f1cdef8236bdb91cb';
const redactor = (): Redactor => new Redactor([TOKEN, PASSWORD, SERVICE_KEY]);

function response(body: unknown, headers: Record<string, string> = {}): HttpResponse {
  const bodyText = typeof body === 'string' ? body : JSON.stringify(body);
  return { status: 200, statusText: 'OK', headers: { 'content-type': 'application/json', ...headers }, bodyText, timing: { startedAt: 0, firstByteMs: 3, totalMs: 9 }, sizeBytes: bodyText.length };
}
const get = (url: string, headers: Record<string, string> = {}): HttpRequest => ({ method: 'GET', url, headers });
const record = (over: Partial<HistoryRecord> = {}): HistoryRecord => ({ request: get('http://127.0.0.1:1/api/x'), response: response({ a: 1 }), ...over });

const dirs: string[] = [];
after(async () => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));
async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'apiwb-history-'));
  dirs.push(dir);
  return dir;
}

void describe('history: secrets never reach the disk', () => {
  void it('credentials in headers, URL, form body, response body, source text and fault are redacted before writing', async () => {
    const dir = await tempDir();
    const store = new HistoryStore(directoryHistoryFiles(dir), redactor);
    await store.record({
      request: {
        method: 'POST',
        url: `http://127.0.0.1:1/auth/token?api_key=${SERVICE_KEY}`,
        headers: { Authorization: `Bearer ${TOKEN}`, 'X-API-Key': 'TENANT-1', 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'password', username: 'demo', password: PASSWORD }).toString(),
      },
      source: `POST {{auth_url}}/token\nAuthorization: Bearer ${TOKEN}\n`,
      response: response({ access_token: TOKEN, echo: `the key was ${SERVICE_KEY}` }, { 'set-cookie': `sid=${TOKEN}` }),
      business: { failed: true, summary: `rejected ${PASSWORD}` },
      walk: { verdict: 'failed', reason: `401 for Bearer ${TOKEN}`, pages: 1, rows: 0 },
      environment: 'sandbox',
    });
    await store.record({ request: get('http://127.0.0.1:1/x', { Authorization: `Basic ${Buffer.from(`p:${SERVICE_KEY}`).toString('base64')}` }), fault: `connect ECONNREFUSED with ${SERVICE_KEY}` });

    const files = await readdir(dir);
    assert.ok(files.includes('index.json'));
    assert.ok(files.some((f) => f.endsWith('.body')), 'the body is stored in its own file');
    const everything = (await Promise.all(files.map((f) => readFile(join(dir, f), 'utf8')))).join('\n');
    for (const secret of [TOKEN, PASSWORD, encodeURIComponent(PASSWORD), SERVICE_KEY, Buffer.from(`p:${SERVICE_KEY}`).toString('base64')]) {
      assert.equal(everything.includes(secret), false, `no ${secret.slice(0, 8)}… on disk`);
    }
    const [newest, first] = await store.list();
    assert.equal(newest?.fault?.startsWith('connect ECONNREFUSED'), true);
    assert.equal(first?.request.headers['Authorization'], 'Bearer ***');
    assert.equal(first?.environment, 'sandbox');
    assert.equal(first?.business.verdict, 'failed');
    assert.equal(first?.walk?.verdict, 'failed');
  });
});

void describe('history: the request block text', () => {
  void it('credential headers, secret variables, query parameters and JSON or form body fields unknown to the credential store are masked; references stay', async () => {
    const store = new HistoryStore(memoryHistoryFiles(), () => new Redactor());
    const source = [
      '@db_password = pw-leak-1',
      '@host = https://api.test',
      'POST {{host}}/login?subscription_key=sub-leak-2&page=1',
      'X-Auth-Token: hdr-leak-3',
      'Ocp-Apim-Subscription-Key: hdr-leak-4',
      'Authorization: Bearer {{token}}',
      'Content-Type: application/json',
      '',
      '{',
      '  "user": "ann",',
      '  "Password": "hunter22",',
      '  "nested": { "client_secret": "cs-leak-5", "pin": {{pin}} }',
      '}',
      '',
      '###',
      'POST {{host}}/form',
      'Content-Type: application/x-www-form-urlencoded',
      '',
      'grant_type=password&username=ann&passwd=pwd-leak-6',
    ].join('\n');
    const entry = await store.record(record({ source }));
    const stored = entry.source ?? '';
    for (const secret of ['pw-leak-1', 'sub-leak-2', 'hdr-leak-3', 'hdr-leak-4', 'hunter22', 'cs-leak-5', 'pwd-leak-6']) {
      assert.equal(stored.includes(secret), false, `${secret} reached the history:\n${stored}`);
    }
    for (const kept of ['@host = https://api.test', 'Authorization: Bearer {{token}}', '"user": "ann"', '"pin": {{pin}}', 'grant_type=password&username=ann', 'page=1']) {
      assert.ok(stored.includes(kept), `${kept} is kept:\n${stored}`);
    }
    assert.equal(stored.split('\n').length, source.split('\n').length, 'line for line');
  });
});

void describe('history: entries and bodies', () => {
  void it('lists newest first and rebuilds the stored response without a network', async () => {
    const store = new HistoryStore(memoryHistoryFiles(), redactor);
    const one = await store.record(record({ name: 'one', response: response({ n: 1 }) }));
    const two = await store.record(record({ name: 'two', response: response({ n: 2 }) }));
    assert.deepEqual((await store.list()).map((e) => e.name), ['two', 'one']);
    const stored = await store.exchange(one.id);
    assert.equal(stored?.response?.bodyText, '{"n":1}');
    assert.equal(stored?.response?.status, 200);
    assert.equal(stored?.entry.id, one.id);
    assert.notEqual(one.id, two.id);
  });

  void it('an identical body is stored once', async () => {
    const files = memoryHistoryFiles();
    const store = new HistoryStore(files, redactor);
    await store.record(record());
    await store.record(record());
    assert.equal([...files.contents.keys()].filter((n) => n.endsWith('.body')).length, 1);
    assert.equal((await store.list()).length, 2);
  });

  void it('a body beyond the limit is cut and the entry says how much was kept', async () => {
    const store = new HistoryStore(memoryHistoryFiles(), redactor, { maxBodyChars: 100 });
    const entry = await store.record(record({ response: response('x'.repeat(1000)) }));
    assert.equal(entry.response?.storedChars, 100);
    assert.equal(entry.response?.sizeBytes, 1000);
    assert.match(entry.response?.bodyNote ?? '', /Kept the first 100 of 1000 characters/);
    assert.equal((await store.exchange(entry.id))?.response?.bodyText.length, 100);
  });

  void it('a body of exactly the limit is kept whole, without a note (the boundary)', async () => {
    const store = new HistoryStore(memoryHistoryFiles(), redactor, { maxBodyChars: 100 });
    const entry = await store.record(record({ response: response('x'.repeat(100)) }));
    assert.equal(entry.response?.storedChars, 100);
    assert.equal(entry.response?.bodyNote, undefined, 'nothing was cut, so nothing is said');
    const over = await store.record(record({ response: response('x'.repeat(101)) }));
    assert.match(over.response?.bodyNote ?? '', /Kept the first 100 of 101 characters/);
  });

  void it('keeps at most maxEntries, dropping the oldest and their bodies', async () => {
    const files = memoryHistoryFiles();
    const store = new HistoryStore(files, redactor, { maxEntries: 3 });
    for (let i = 0; i < 5; i++) await store.record(record({ name: `r${i}`, response: response({ i }) }));
    assert.deepEqual((await store.list()).map((e) => e.name), ['r4', 'r3', 'r2']);
    assert.equal([...files.contents.keys()].filter((n) => n.endsWith('.body')).length, 3);
  });

  void it('keeps at most maxTotalBytes (the newest entry always)', async () => {
    const store = new HistoryStore(memoryHistoryFiles(), redactor, { maxTotalBytes: 5_000 });
    for (let i = 0; i < 4; i++) await store.record(record({ name: `r${i}`, response: response({ pad: String(i).repeat(2_000) }) }));
    assert.deepEqual((await store.list()).map((e) => e.name), ['r3', 'r2']);
    const big = new HistoryStore(memoryHistoryFiles(), redactor, { maxTotalBytes: 10 });
    await big.record(record({ name: 'alone' }));
    assert.deepEqual((await big.list()).map((e) => e.name), ['alone']);
  });

  void it('records made together are all kept', async () => {
    const store = new HistoryStore(memoryHistoryFiles(), redactor);
    await Promise.all(Array.from({ length: 10 }, (_, i) => store.record(record({ name: `p${i}` }))));
    assert.equal((await store.list()).length, 10);
  });

  void it('clear removes entries and bodies', async () => {
    const files = memoryHistoryFiles();
    const store = new HistoryStore(files, redactor);
    await store.record(record());
    await store.clear();
    assert.deepEqual(await store.list(), []);
    assert.deepEqual([...files.contents.keys()], ['index.json']);
  });

  void it('a hostile index: broken JSON, foreign entries and a body name reaching out are ignored', async () => {
    const dir = await tempDir();
    const store = new HistoryStore(directoryHistoryFiles(dir), redactor);
    await writeFile(join(dir, 'index.json'), '{"version":1,');
    assert.deepEqual(await store.list(), []);
    const good = await store.record(record({ name: 'good' }));
    const index = JSON.parse(await readFile(join(dir, 'index.json'), 'utf8')) as { entries: unknown[] };
    index.entries.push({ nonsense: true }, { ...good, id: 'evil', response: { ...good.response, bodyFile: '../../etc/passwd' } });
    await writeFile(join(dir, 'index.json'), JSON.stringify(index));
    assert.deepEqual((await store.list()).map((e) => e.id), [good.id]);
  });
});

void describe('compare documents', () => {
  const side = (body: unknown, date: string) => compareDocument({
    label: 'GET /api/x (10:00)',
    request: { method: 'GET', url: 'http://127.0.0.1/api/x' },
    response: response(body, { date, 'x-pagination-page': '1' }),
  });

  void it('pretty JSON of status, headers and body, keys sorted, the per-response headers marked volatile', () => {
    const text = side({ z: 1, ID: 42, createdAt: '2026-11-22T10:00:00Z', name: 'same', nested: { BatchID: 'abc', count: 3 } }, 'Sun, 22 Nov 2026 10:00:00 GMT');
    const lines = text.split('\n');
    assert.equal(lines[0], '// GET /api/x (10:00)');
    const marked = lines.filter((l) => l.endsWith(VOLATILE_MARK)).map((l) => l.trim().split(':')[0]);
    assert.deepEqual(marked, ['"date"']);
    assert.ok(text.indexOf('"name"') < text.indexOf('"nested"') && text.indexOf('"nested"') < text.indexOf('"z"'), 'keys sorted');
    assert.ok(lines.some((l) => l.trim() === '"status": "200 OK",'));
    // Without the comments it is plain JSON.
    const json = JSON.parse(lines.filter((l) => !l.startsWith('//')).map((l) => l.replace(/ \/\/ volatile$/, '')).join('\n')) as Record<string, unknown>;
    assert.deepEqual((json['body'] as Record<string, unknown>)['ID'], 42);
  });

  void it('two answers differing only in their Date header differ only on a marked line', () => {
    const a = side({ ID: 1, name: 'x' }, 'Sun, 22 Nov 2026 10:00:00 GMT').split('\n');
    const b = side({ ID: 1, name: 'x' }, 'Sun, 22 Nov 2026 10:05:00 GMT').split('\n');
    const differing = a.filter((line, i) => line !== b[i]);
    assert.deepEqual(differing.map((l) => l.trim().split(':')[0]), ['"date"']);
    assert.ok(differing.every((l) => l.endsWith(VOLATILE_MARK)));
  });

  // apiwb compare's rule (src/core/compare/records.ts): an id, a date, a UUID or a cursor in a body is
  // data, never volatile; the History diff marked them by their name or look.
  void it("a body's ids, dates, UUIDs, cursors and tokens are data: no body line is marked volatile", () => {
    const body = {
      bookingId: 'BK-1', id: 7, customer_id: 5, uuid: 'u', arrival: '2024-01-01', createdAt: '2026-11-22T10:00:00Z',
      productRef: '0f8fad5b-d9cb-469f-a165-70867728950e', nextCursor: 'c2', pageToken: 'p', updatedTime: 3, TableName: 'T',
    };
    const a = side(body, 'Sun, 22 Nov 2026 10:00:00 GMT').split('\n');
    const b = side({ ...body, bookingId: 'BK-2', customer_id: 6, arrival: '2024-02-01' }, 'Sun, 22 Nov 2026 10:00:00 GMT').split('\n');
    assert.deepEqual(a.filter((l) => l.endsWith(VOLATILE_MARK)).map((l) => l.trim().split(':')[0]), ['"date"']);
    const differing = a.filter((line, i) => line !== b[i]).map((l) => l.trim());
    assert.deepEqual(differing, ['"arrival": "2024-01-01",', '"bookingId": "BK-1",', '"customer_id": 5,']);
  });

  void it('a text body and a fault are shown as they are', () => {
    assert.match(compareDocument({ label: 'x', request: { method: 'GET', url: 'u' }, response: response('plain <b>text</b>') }), /"body": "plain <b>text<\/b>"/);
    assert.match(compareDocument({ label: 'x', request: { method: 'GET', url: 'u' }, fault: 'connection refused' }), /"fault": "connection refused"/);
  });
});
