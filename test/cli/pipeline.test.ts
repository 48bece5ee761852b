// The request pipeline of `apiwb run` against a small server on 127.0.0.1 (port 0), the real `runCommand`
// in process: a resume record that belongs to the first walk cut short, a paged first page the paging
// engine refuses, one row rule for a single response with and without --all-pages, which assertions
// excuse a failure, and contract drift carried into the reports.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { CliResult } from './cliProcess';
import { startLocalServer, type LocalServer } from './localServer';
import { runInProcess } from './inProcess';
import { readResumeRecord, resumeKey } from '../../src/cli/resumeFile';

type Handler = (req: IncomingMessage, res: ServerResponse, url: URL) => void;

const ROWS = Array.from({ length: 10 }, (_, i) => ({ id: i + 1, name: `row ${i + 1}` }));
let local: LocalServer | undefined;
let dir = '';
let envFile = '';
let brokenFailures = 0;

function json(res: ServerResponse, body: unknown, headers: Record<string, string> = {}, status = 200): void {
  res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
  res.end(typeof body === 'string' ? body : JSON.stringify(body));
}

function headerPage(res: ServerResponse, url: URL): void {
  const page = Number(url.searchParams.get('page') ?? 1);
  json(res, ROWS.slice((page - 1) * 3, page * 3), { 'X-Pagination-Page': String(page), 'X-Pagination-Total-Pages': '4', 'X-Pagination-Total-Results': '10' });
}

const routes: Record<string, Handler> = {
  '/pages': (_req, res, url) => headerPage(res, url),
  // Page 2 fails once with a 500, then works.
  '/broken': (_req, res, url) => {
    if (url.searchParams.get('page') === '2' && brokenFailures === 0) {
      brokenFailures++;
      json(res, '{"Message":"try again later"}', {}, 500);
      return;
    }
    headerPage(res, url);
  },
  // A paged first page that is a 200 the paging engine cannot read.
  '/malformed': (_req, res) => json(res, '[{"id": 1}, {"id": 2', { 'X-Pagination-Page': '1', 'X-Pagination-Total-Pages': '4' }),
  '/no-items': (_req, res) => json(res, { other: [{ id: 1 }], next: 'B' }),
  // A single object: no collection of rows.
  '/object': (_req, res) => json(res, { id: 7, name: 'one thing' }),
  '/missing': (_req, res) => json(res, { Message: 'no such thing' }, {}, 404),
  '/business': (_req, res) => json(res, { Response: false, Errors: [{ ErrorCode: 12, ErrorDescription: 'Customer not found' }] }),
  // GetOrdersByCustomer (page-number) without its documented PageNumber field: contract drift.
  '/api/Transaction/GetOrdersByCustomer': (_req, res) => json(res, { Response: true, Errors: [], PageSize: 20, TotalOrders: 1, Orders: [{ OrderID: 1 }] }),
};

function apiwb(args: readonly string[]): Promise<CliResult> {
  return runInProcess(args);
}

function httpFile(name: string, text: string): string {
  const file = join(dir, `${name}.http`);
  writeFileSync(file, text);
  return file;
}

function rowsIn(path: string): { id: number }[] {
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as { id: number });
}

void describe('the request pipeline of apiwb run', () => {
  before(async () => {
    local = await startLocalServer('apiwb-pipeline-', (req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      const route = routes[url.pathname];
      if (route) route(req, res, url);
      else json(res, {}, {}, 404);
    });
    ({ dir, envFile } = local);
  });
  after(() => local?.close());

  void it('a walk cut short keeps the resume record: a later complete walk neither overwrites nor removes it, --resume restores every row', async () => {
    brokenFailures = 0;
    const file = httpFile('cut-then-complete', ['### a', '# @name cut', '# @paging page-headers', 'GET {{base}}/broken', '',
      '### b', '# @name whole', '# @paging page-headers', 'GET {{base}}/pages', ''].join('\n'));
    const out = join(dir, 'cut-then-complete.ndjson');
    const args = [file, '--env', 'local', '--env-file', envFile, '--all-pages', '--out', out];
    const failed = await apiwb(args);
    assert.equal(failed.code, 1, failed.stdout);
    assert.match(failed.stdout, /✗ cut .*failed at page 2/);
    assert.equal(readResumeRecord(out, resumeKey()).requestIndex, 0, 'the record is the cut walk\'s, not the later complete one\'s');

    const resumed = await apiwb([...args, '--resume']);
    assert.equal(resumed.code, 0, resumed.stdout + resumed.stderr);
    assert.doesNotMatch(resumed.stdout, /· cut {2}skipped/);
    assert.deepEqual(rowsIn(out).map((r) => r.id), [...ROWS.map((r) => r.id), ...ROWS.map((r) => r.id)], 'both walks whole, once each, in order');
    assert.equal(existsSync(`${out}.apiwb-resume.json`), false);
  });

  void it('a walk that cannot be resumed: a later walk does not leave a record that skips it', async () => {
    const file = httpFile('unresumable-then-complete', ['### a', '# @name bad', '# @paging page-headers', 'GET {{base}}/malformed', '',
      '### b', '# @name whole', '# @paging page-headers', 'GET {{base}}/pages', ''].join('\n'));
    const out = join(dir, 'unresumable-then-complete.ndjson');
    const args = [file, '--env', 'local', '--env-file', envFile, '--all-pages', '--out', out];
    const failed = await apiwb(args);
    assert.equal(failed.code, 1, failed.stdout);
    const resumed = await apiwb([...args, '--resume']);
    assert.notEqual(resumed.code, 0, `a --resume must not skip the failed walk and succeed: ${resumed.stdout}${resumed.stderr}`);
  });

  void it('a paged response read by name later in the run (another file, a file variable) is kept for it, not streamed away', async () => {
    const first = httpFile('named-first', ['### a', '# @name firstPage', '# @paging page-headers', 'GET {{base}}/pages', '',
      '### b', '# @name unread', '# @paging page-headers', 'GET {{base}}/pages?page=2', ''].join('\n'));
    const second = httpFile('named-second', ['@third = {{unread.response.body.$[2].id}}', '',
      '### c', '# @name reader', 'GET {{base}}/object?first={{firstPage.response.body.$[1].id}}&third={{third}}', ''].join('\n'));
    const r = await apiwb([first, second, '--env', 'local', '--env-file', envFile]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /^✓ firstPage {2}GET \S+\/pages {2}200 {2}\d+ ms \(server \d+ ms\) {2}3 rows$/m);
    assert.match(r.stdout, /^✓ reader {2}GET \S+\/object\?first=2&third=6 {2}200 /m);
  });

  void it('without --all-pages, a paged first page that is a 200 with malformed JSON fails the request (exit 1)', async () => {
    const file = httpFile('malformed-first', ['# @name malformed', '# @paging page-headers', 'GET {{base}}/malformed', ''].join('\n'));
    const r = await apiwb([file, '--env', 'local', '--env-file', envFile]);
    assert.equal(r.code, 1, r.stdout);
    assert.match(r.stdout, /✗ malformed .*not valid JSON/);
  });

  void it('without --all-pages, a paged first page without rows where the style expects them fails the request (exit 1)', async () => {
    const file = httpFile('no-items-first', ['# @name noItems', '# @paging generic cursor=cursor cursorField=next items=items', 'GET {{base}}/no-items', ''].join('\n'));
    const r = await apiwb([file, '--env', 'local', '--env-file', envFile]);
    assert.equal(r.code, 1, r.stdout);
    assert.match(r.stdout, /✗ noItems .*no array at "items"/);
  });

  void it('a paged first page that is fine, more pages to come: still a success without --all-pages', async () => {
    const file = httpFile('first-page', ['# @name first', '# @paging page-headers', 'GET {{base}}/pages', ''].join('\n'));
    const r = await apiwb([file, '--env', 'local', '--env-file', envFile]);
    assert.equal(r.code, 0, r.stdout);
    assert.match(r.stdout, /✓ first .* 3 rows/);
  });

  void it('an object response: the same rows into --out with and without --all-pages (one row rule)', async () => {
    const file = httpFile('object', ['# @name object', 'GET {{base}}/object', ''].join('\n'));
    const single = join(dir, 'object-single.ndjson');
    const walked = join(dir, 'object-walked.ndjson');
    const a = await apiwb([file, '--env', 'local', '--env-file', envFile, '--out', single]);
    const b = await apiwb([file, '--env', 'local', '--env-file', envFile, '--all-pages', '--out', walked]);
    assert.equal(a.code, 0, a.stdout);
    assert.equal(b.code, 0, b.stdout);
    assert.deepEqual(rowsIn(walked), rowsIn(single));
    assert.equal(rowsIn(walked).length, 0, 'an object holds no collection of rows (the panel shows no table either)');
    assert.doesNotMatch(b.stdout, /\b1 row\b/);
  });

  void it('only an == assertion on the status excuses a status >= 400', async () => {
    const expects = httpFile('status-eq', ['# @name expects404', 'GET {{base}}/missing', '', '?? status == 404', ''].join('\n'));
    const below = httpFile('status-lt', ['# @name below500', 'GET {{base}}/missing', '', '?? status < 500', ''].join('\n'));
    const exists = httpFile('status-exists', ['# @name statusExists', 'GET {{base}}/missing', '', '?? status exists', ''].join('\n'));
    const eq = await apiwb([expects, '--env', 'local', '--env-file', envFile]);
    assert.equal(eq.code, 0, eq.stdout);
    const lt = await apiwb([below, '--env', 'local', '--env-file', envFile]);
    assert.equal(lt.code, 1, lt.stdout);
    assert.match(lt.stdout, /✗ below500 /);
    assert.equal((await apiwb([exists, '--env', 'local', '--env-file', envFile])).code, 1);
  });

  void it('only an == assertion on the business code excuses a business failure', async () => {
    const expects = httpFile('business-eq', ['# @name expects12', 'GET {{base}}/business', '', '?? business code == 12', ''].join('\n'));
    const other = httpFile('business-ne', ['# @name not12', 'GET {{base}}/business', '', '?? business code != 13', ''].join('\n'));
    const eq = await apiwb([expects, '--env', 'local', '--env-file', envFile]);
    assert.equal(eq.code, 0, eq.stdout);
    const ne = await apiwb([other, '--env', 'local', '--env-file', envFile]);
    assert.equal(ne.code, 1, ne.stdout);
    assert.match(ne.stdout, /✗ not12 .*business failure: code 12/);
  });

  void it('contract drift reaches the JUnit, JSON and GitHub reports of a request that fails only on drift', async () => {
    const file = httpFile('drift', ['# @name orders', 'GET {{base}}/api/Transaction/GetOrdersByCustomer?ctcID=1&pageNumber=1&pageSize=20', ''].join('\n'));
    const junit = join(dir, 'drift.xml');
    const jsonFile = join(dir, 'drift.json');
    const base = [file, '--env', 'local', '--env-file', envFile, '--check-contract'];
    const a = await apiwb([...base, '--reporter', 'junit', '--report', junit]);
    assert.equal(a.code, 1, a.stdout);
    assert.match(a.stdout, /drift: \$\.PageNumber/);
    const xml = readFileSync(junit, 'utf8');
    assert.match(xml, /<failure message="contract drift: \$\.PageNumber: the contract names the paging field PageNumber/);
    await apiwb([...base, '--reporter', 'json', '--report', jsonFile]);
    const report = JSON.parse(readFileSync(jsonFile, 'utf8')) as { requests: { ok: boolean; drift?: string[] }[] };
    assert.equal(report.requests[0]?.ok, false);
    assert.match(report.requests[0]?.drift?.join('\n') ?? '', /\$\.PageNumber/);
    const github = await apiwb([...base, '--reporter', 'github']);
    assert.match(github.stdout, /^::error file=.*drift\.http,line=2,title=apiwb%3A orders::GET .*contract drift: \$\.PageNumber/m);
  });
});
