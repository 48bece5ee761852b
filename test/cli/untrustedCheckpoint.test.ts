// A checkpoint read back is untrusted input (issue 29 item 3): `apiwb run --resume` against a small server
// on 127.0.0.1 (port 0), the real runCommand in process. A walk is cut at page 3; its record beside --out
// is then tampered field by field (method, path, query, headers, body, plan, counts, file length, the row
// before it, done, output file, a link in its place), and each --resume is refused with the part named,
// exit 2, NOTHING sent to the server, and the rows already kept as they were. The record as written
// resumes to every row once.
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startLocalServer, type LocalServer } from './localServer';
import { runInProcess } from './inProcess';
import { writeSignedRecord } from './signedRecord';

const ROWS = Array.from({ length: 10 }, (_, i) => ({ id: i + 1, name: `row ${i + 1}` }));
let local: LocalServer | undefined;
/** Every request the server received: method, path and query, headers, body. */
const received: { method: string; url: string; headers: IncomingMessage['headers']; body: string }[] = [];
let failPage3 = true;

function page(res: ServerResponse, url: URL): void {
  const n = Number(url.searchParams.get('page') ?? 1);
  if (n === 3 && failPage3) {
    res.writeHead(500, { 'Content-Type': 'application/json' });
    res.end('{"Message":"try again later"}');
    return;
  }
  res.writeHead(200, { 'Content-Type': 'application/json', 'X-Pagination-Page': String(n), 'X-Pagination-Total-Pages': '4', 'X-Pagination-Total-Results': '10' });
  res.end(JSON.stringify(ROWS.slice((n - 1) * 3, n * 3)));
}

interface SavedRecord {
  file: string;
  requestIndex: number;
  out?: string;
  tail?: string;
  checkpoint: {
    plan: { style: string; options: Record<string, string> };
    next?: { method: string; url: string; headers: Record<string, string>; body?: string };
    pages: number; rows: number; bytes: number; done: boolean;
    sink?: { format: string; path: string; bytes: number };
  };
}

void describe('a tampered checkpoint is refused, nothing is sent', () => {
  let dir = '';
  let envFile = '';
  let httpFile = '';
  let out = '';
  let record = '';
  let args: string[] = [];
  let original = '';
  let keptRows = '';

  before(async () => {
    local = await startLocalServer('apiwb-untrusted-cp-', (req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => { body += c.toString('utf8'); });
      req.on('end', () => {
        const url = new URL(req.url ?? '/', 'http://x');
        received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
        page(res, url);
      });
    });
    ({ dir, envFile } = local);
    httpFile = join(dir, 'walk.http');
    writeFileSync(httpFile, ['# @name walk', '# @paging page-headers', 'GET {{base}}/items?kind=open', 'Accept: application/json', ''].join('\n'));
    out = join(dir, 'rows.ndjson');
    record = `${out}.apiwb-resume.json`;
    args = [httpFile, '--env', 'local', '--env-file', envFile, '--all-pages', '--out', out];
    failPage3 = true;
    const cut = await runInProcess(args);
    assert.equal(cut.code, 1, cut.stdout + cut.stderr);
    assert.match(cut.stdout, /failed at page 3/);
    original = readFileSync(record, 'utf8');
    keptRows = readFileSync(out, 'utf8');
    assert.equal(keptRows.split('\n').filter(Boolean).length, 6, 'two pages of three rows kept');
  });
  after(() => local?.close());

  /** Restores the walk's own output and record, then applies `edit` to the record. */
  const tampered = (edit: (r: SavedRecord) => void, rows = keptRows): void => {
    writeFileSync(out, rows);
    rmSync(record, { force: true });
    const r = JSON.parse(original) as SavedRecord;
    edit(r);
    writeSignedRecord(record, r);
  };

  const cases: [string, (r: SavedRecord) => void, RegExp][] = [
    ['method', (r) => { r.checkpoint.next!.method = 'DELETE'; }, /sends DELETE, but the request is GET/],
    ['path', (r) => { r.checkpoint.next!.url = r.checkpoint.next!.url.replace('/items', '/admin/purge'); }, /asks for path \/admin\/purge, but the request's is \/items/],
    ['query', (r) => { r.checkpoint.next!.url = r.checkpoint.next!.url.replace('kind=open', 'kind=all'); }, /has the query .*kind=all.*\(only page may differ\)/],
    ['origin', (r) => { r.checkpoint.next!.url = r.checkpoint.next!.url.replace('127.0.0.1', 'localhost'); }, /goes to http:\/\/localhost:\d+, but the request goes to http:\/\/127\.0\.0\.1/],
    ['added header', (r) => { r.checkpoint.next!.headers['X-Forwarded-For'] = '10.0.0.1'; }, /has a header x-forwarded-for the request does not have/],
    ['changed header', (r) => { r.checkpoint.next!.headers['Accept'] = 'text/html'; }, /another value of the header accept/],
    ['body', (r) => { r.checkpoint.next!.body = '{"delete":true}'; }, /has another body than the request/],
    ['plan', (r) => { r.checkpoint.plan = { style: 'generic', options: { next: 'next' } }; }, /pages with 'generic next=next', but the request pages with 'page-headers'/],
    ['negative pages', (r) => { r.checkpoint.pages = -1; }, /pages \(-1\) is not a count/],
    ['fractional rows', (r) => { r.checkpoint.rows = 2.5; }, /rows \(2\.5\) is not a count/],
    ['file length past the end', (r) => { r.checkpoint.sink!.bytes += 100; }, /says \d+ bytes were written, but .* holds \d+/],
    ['file length mid-row', (r) => { r.checkpoint.sink!.bytes -= 3; }, /is not at the end of a row/],
    ['file length at another row', (r) => { r.checkpoint.sink!.bytes -= Buffer.byteLength(`${JSON.stringify(ROWS[5])}\n`); }, /is not the row it saw last/],
    ['done', (r) => { r.checkpoint.done = true; }, /finished walk is not resumed/],
    ['output file', (r) => { r.out = join(dir, 'elsewhere.ndjson'); }, /written for another output file/],
    ['sink path', (r) => { r.checkpoint.sink!.path = join(dir, 'elsewhere.ndjson'); }, /written for another output file/],
    ['not a record', (r) => { (r as unknown as { version: number }).version = 2; }, /is not an apiwb checkpoint/],
  ];

  for (const [field, edit, words] of cases) {
    void it(`${field}: refused in words, exit 2, nothing sent, the kept rows untouched`, async () => {
      tampered(edit);
      const before = received.length;
      const r = await runInProcess([...args, '--resume']);
      assert.equal(r.code, 2, `${field}: ${r.stdout}${r.stderr}`);
      assert.match(r.stdout + r.stderr, words);
      assert.doesNotMatch(r.stdout + r.stderr, /To continue from page/, 'a refused checkpoint offers no resume command');
      assert.deepEqual(received.slice(before), [], `${field}: the server received nothing`);
      assert.equal(readFileSync(out, 'utf8'), keptRows, `${field}: the rows kept are as they were`);
    });
  }

  void it('a record that is a symbolic link (to a record of another walk) is not read', async () => {
    tampered(() => undefined);
    const elsewhere = join(dir, 'planted.json');
    copyFileSync(record, elsewhere);
    rmSync(record);
    symlinkSync(elsewhere, record);
    const before = received.length;
    const r = await runInProcess([...args, '--resume']);
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.match(r.stderr, /is a symbolic link/);
    assert.equal(received.length, before);
    rmSync(record);
  });

  void it('a record others may write is not read', async () => {
    tampered(() => undefined);
    writeFileSync(record, readFileSync(record), { mode: 0o666 });
    const { chmodSync } = await import('node:fs');
    chmodSync(record, 0o666);
    const r = await runInProcess([...args, '--resume']);
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.match(r.stderr, /others than its owner may write it/);
  });

  void it('the record as the walk wrote it resumes: every row once, exit 0, the record gone', async () => {
    tampered(() => undefined);
    failPage3 = false;
    const before = received.length;
    const r = await runInProcess([...args, '--resume']);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.deepEqual(received.slice(before).map((x) => x.url), ['/items?kind=open&page=3', '/items?kind=open&page=4']);
    const ids = readFileSync(out, 'utf8').split('\n').filter(Boolean).map((l) => (JSON.parse(l) as { id: number }).id);
    assert.deepEqual(ids, ROWS.map((x) => x.id));
    assert.equal(existsSync(record), false);
    failPage3 = true;
  });
});
