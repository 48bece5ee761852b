// `apiwb run` against small servers that behave like real ones rather than like our sandbox: paging
// headers that vanish, totals that shrink, a cursor served again, an offset ignored, pages that overlap,
// a page size the server caps, next links and redirects to another origin, a downgrade to http, a body
// that trickles, and a walk cut by a fault then resumed. Real HTTP on 127.0.0.1 (port 0), the real
// `runCommand` in process. Each case asserts the rows written, the verdict in the summary line, the exit
// code and, for the cross-origin cases, that the other origin received no credential.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { CliResult } from '../cli/cliProcess';
import { runInProcess } from '../cli/inProcess';
import { resumePathFor } from '../../src/cli/resumeFile';
import { importOpenApiText, overlayFileText } from '../../src/core/openapi';

type Handler = (req: IncomingMessage, res: ServerResponse, url: URL) => void;

const ROWS = Array.from({ length: 10 }, (_, i) => ({ id: i + 1, name: `row ${i + 1}` }));
const TOKEN = jwt();
const TENANT = 'tenant-adversarial';

function jwt(): string {
  const part = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${part({ alg: 'HS256', typ: 'JWT' })}.${part({ sub: 'adversary', exp: Math.floor(Date.now() / 1000) + 3600 })}.c2lnbmF0dXJl`;
}

function json(res: ServerResponse, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(200, { 'Content-Type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/** Pages of 3 rows for page-headers, with the headers a route chooses. */
function headerPage(res: ServerResponse, page: number, headers: (page: number) => Record<string, string>): void {
  json(res, ROWS.slice((page - 1) * 3, page * 3), headers(page));
}

let flakyFailures = 0;
const otherSeen: IncomingHttpHeaders[] = [];
let main: Server;
let other: Server;
let secure: Server | undefined;
let base = '';
let otherBase = '';
let secureBase = '';
let dir = '';
let ordersAsked: string[] = [];

const routes: Record<string, Handler> = {
  '/vanish': (_req, res, url) => {
    const page = Number(url.searchParams.get('page') ?? 1);
    headerPage(res, page, (p): Record<string, string> => (p < 3 ? { 'X-Pagination-Page': String(p), 'X-Pagination-Total-Pages': '4', 'X-Pagination-Total-Results': '10' } : {}));
  },
  '/shrink': (_req, res, url) => {
    const page = Number(url.searchParams.get('page') ?? 1);
    headerPage(res, page, (p) => ({ 'X-Pagination-Page': String(p), 'X-Pagination-Total-Pages': p === 1 ? '4' : '2' }));
  },
  '/pages': (_req, res, url) => {
    const page = Number(url.searchParams.get('page') ?? 1);
    headerPage(res, page, (p) => ({ 'X-Pagination-Page': String(p), 'X-Pagination-Total-Pages': '4', 'X-Pagination-Total-Results': '10' }));
  },
  // Page 3 fails once with a 500, then works: a mid-walk fault to resume after.
  '/flaky': (_req, res, url) => {
    const page = Number(url.searchParams.get('page') ?? 1);
    if (page === 3 && flakyFailures === 0) {
      flakyFailures++;
      res.writeHead(500, { 'Content-Type': 'application/json' });
      res.end('{"Message":"try again later"}');
      return;
    }
    headerPage(res, page, (p) => ({ 'X-Pagination-Page': String(p), 'X-Pagination-Total-Pages': '4', 'X-Pagination-Total-Results': '10' }));
  },
  // The cursor never moves after the first page.
  '/cursor': (_req, res, url) => {
    const cursor = url.searchParams.get('cursor');
    json(res, { items: cursor ? ROWS.slice(3, 6) : ROWS.slice(0, 3), next: 'A' });
  },
  // The offset is ignored: the first rows again and again.
  '/ignored': (_req, res) => json(res, { items: ROWS.slice(0, 3) }),
  // Pages overlap by one row.
  '/overlap': (_req, res, url) => {
    const offset = Number(url.searchParams.get('offset') ?? 0);
    json(res, { items: ROWS.slice(Math.max(0, offset - 1), offset + 3) });
  },
  // limit is silently capped at 4: a walk must advance by what came, not by what it asked.
  '/capped': (_req, res, url) => {
    const offset = Number(url.searchParams.get('offset') ?? 0);
    const limit = Math.min(Number(url.searchParams.get('limit') ?? 10), 4);
    json(res, { items: ROWS.slice(offset, offset + limit) });
  },
  // GetOrdersByCustomer (page-number, contract cap 500): 1200 orders.
  '/api/Transaction/GetOrdersByCustomer': (req, res, url) => {
    ordersAsked.push(req.url ?? '');
    const page = Number(url.searchParams.get('pageNumber') ?? 1);
    const size = Math.min(Number(url.searchParams.get('pageSize') ?? 50), 500);
    const orders = Array.from({ length: Math.max(0, Math.min(size, 1200 - (page - 1) * size)) }, (_, i) => ({ OrderID: (page - 1) * size + i + 1 }));
    json(res, { Response: true, Errors: [], PageNumber: page, PageSize: size, TotalOrders: 1200, Orders: orders });
  },
  // An imported OpenAPI operation (campaigns-3.1.json): page/per_page, rows in data, total in total.
  '/v1/campaigns': (_req, res, url) => {
    const page = Number(url.searchParams.get('page') ?? 1);
    const size = Number(url.searchParams.get('per_page') ?? 2);
    json(res, { total: ROWS.length, page, data: ROWS.slice((page - 1) * size, page * size) });
  },
  // A next link to another origin.
  '/away': (_req, res) => json(res, { items: ROWS.slice(0, 3), next_link: `${otherBase}/landing` }),
  '/redirect-away': (_req, res) => {
    res.writeHead(307, { Location: `${otherBase}/landing` });
    res.end();
  },
  // One byte every 50 ms: no gap is long, the whole body never arrives in time.
  '/trickle': (_req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json' });
    const timer = setInterval(() => res.write(' '), 50);
    res.on('close', () => clearInterval(timer));
  },
};

function apiwb(args: readonly string[]): Promise<CliResult> {
  return runInProcess(args, { APIWB_SECRET_SVC_TOKEN: TOKEN });
}

/** A one-request .http file for `path` with the given paging directive, credentials from the env. */
function httpFile(name: string, target: string, paging?: string): string {
  const file = join(dir, `${name}.http`);
  writeFileSync(file, `### ${name}\n# @name ${name}\n${paging ? `# @paging ${paging}\n` : ''}GET ${target}\nAuthorization: Bearer {{$auth.token("svc")}}\nX-API-Key: {{tenant}}\n`);
  return file;
}

function rowsIn(path: string): unknown[] {
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as unknown);
}

async function walkTo(name: string, target: string, paging: string | undefined, extra: readonly string[] = []) {
  const out = join(dir, `${name}.ndjson`);
  const result = await apiwb([httpFile(name, target, paging), '--env', 'adv', '--env-file', join(dir, 'http-client.env.json'), '--all-pages', '--out', out, ...extra]);
  return { ...result, out, rows: rowsIn(out) };
}

function assertNoCredentialAtOtherOrigin(): void {
  assert.ok(otherSeen.length > 0, 'the other origin was asked');
  for (const headers of otherSeen) {
    assert.equal(headers['authorization'], undefined, 'no Authorization reached the other origin');
    assert.equal(headers['x-api-key'], undefined, 'no X-API-Key reached the other origin');
    assert.doesNotMatch(JSON.stringify(headers), new RegExp(`${TOKEN.slice(0, 20)}|${TENANT}`));
  }
}

void describe('walks against adversarial servers (apiwb run)', () => {
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'apiwb-adversarial-'));
    main = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      const route = routes[url.pathname];
      if (route) route(req, res, url);
      else {
        res.writeHead(404);
        res.end();
      }
    });
    other = createServer((req, res) => {
      otherSeen.push(req.headers);
      json(res, { items: ROWS.slice(3, 6) });
    });
    base = `http://127.0.0.1:${await listen(main)}`;
    // "localhost" and 127.0.0.1 are different origins on the same loopback interface.
    otherBase = `http://localhost:${await listen(other)}`;
    writeFileSync(join(dir, 'http-client.env.json'), JSON.stringify({
      adv: { base, tenant: TENANT, ApiWorkbench: { Auth: { svc: { Type: 'JWT Bearer' } } } },
    }));
  });
  after(async () => {
    await new Promise<void>((resolve) => main.close(() => resolve()));
    await new Promise<void>((resolve) => other.close(() => resolve()));
    if (secure) await new Promise<void>((resolve) => secure?.close(() => resolve()));
    rmSync(dir, { recursive: true, force: true });
  });

  void it('a well-behaved walk is complete: every row once, exit 0, no checkpoint left', async () => {
    const r = await walkTo('pages', '{{base}}/pages', 'page-headers');
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.equal(r.rows.length, 10);
    assert.match(r.stdout, /^✓ pages .* 10 rows {2}4 pages/m);
    assert.equal(existsSync(resumePathFor(r.out)), false);
  });

  void it('paging headers that vanish on page 3: inconsistent, 2 pages kept, exit 1', async () => {
    const r = await walkTo('vanish', '{{base}}/vanish', 'page-headers');
    assert.equal(r.code, 1);
    assert.equal(r.rows.length, 6);
    assert.match(r.stdout, /✗ vanish .*inconsistent: the walk stopped at page 3 .*X-Pagination-Total-Pages was 4 on the first page but is missing on page 3/);
  });

  void it('a total that shrinks mid-walk: inconsistent at once, exit 1', async () => {
    const r = await walkTo('shrink', '{{base}}/shrink', 'page-headers');
    assert.equal(r.code, 1);
    assert.equal(r.rows.length, 3);
    assert.match(r.stdout, /inconsistent: .*X-Pagination-Total-Pages changed from 4 to 2 on page 2/);
  });

  void it('a repeated cursor stops the walk at once, not at the request guard', async () => {
    const r = await walkTo('cursor', '{{base}}/cursor', 'generic cursor=cursor cursorField=next items=items');
    assert.equal(r.code, 1);
    assert.equal(r.rows.length, 6, 'the two distinct pages are kept, nothing more');
    assert.match(r.stdout, /inconsistent: after page 2 .*points back to a request already answered/);
  });

  void it('an ignored offset (the same page again) stops at page 2 with no duplicate written', async () => {
    const r = await walkTo('ignored', '{{base}}/ignored?limit=3', 'generic offset=offset limit=limit items=items');
    assert.equal(r.code, 1);
    assert.equal(r.rows.length, 3);
    assert.match(r.stdout, /inconsistent: the walk stopped at page 2 .*exactly the rows of page 1: the server ignored the page it was asked for/);
  });

  void it('overlapping pages (a row of page 1 again on page 2): inconsistent, the overlap is not written', async () => {
    const r = await walkTo('overlap', '{{base}}/overlap?limit=3', 'generic offset=offset limit=limit items=items');
    assert.equal(r.code, 1);
    assert.deepEqual(r.rows.map((row) => (row as { id: number }).id), [1, 2, 3]);
    assert.match(r.stdout, /1 row\(s\) of page 2 were already on page 1/);
  });

  void it('a limit the server caps silently: the walk advances by the rows that came, every row once', async () => {
    const r = await walkTo('capped', '{{base}}/capped?limit=10', 'generic offset=offset limit=limit items=items');
    assert.equal(r.code, 0, r.stdout);
    assert.deepEqual(r.rows.map((row) => (row as { id: number }).id), ROWS.map((row) => row.id));
  });

  void it("a pageSize above the contract's cap is clamped with a notice; the walk reaches every order", async () => {
    ordersAsked = [];
    const r = await walkTo('orders', '{{base}}/api/Transaction/GetOrdersByCustomer?ctcID=1&pageNumber=1&pageSize=1000', undefined);
    assert.equal(r.code, 0, r.stdout);
    assert.equal(r.rows.length, 1200);
    assert.equal(new Set(r.rows.map((row) => (row as { OrderID: number }).OrderID)).size, 1200, 'no order twice');
    assert.ok(ordersAsked.every((u) => u.includes('pageSize=500')), `every request asks for the cap: ${ordersAsked.join(' ')}`);
    assert.match(r.stdout, /pageSize=1000 is above the contract's maximum of 500 for GetOrdersByCustomer; sent pageSize=500/);
  });

  void it('a next link to another origin is followed without the credentials', async () => {
    otherSeen.length = 0;
    const r = await walkTo('away', '{{base}}/away', 'generic next=next_link items=items');
    assert.equal(r.code, 0, r.stdout);
    assert.equal(r.rows.length, 6);
    assert.match(r.stdout, /page 2 is on another origin \(http:\/\/localhost:\d+\) than page 1 \(http:\/\/127\.0\.0\.1:\d+\): sent without header Authorization/);
    assertNoCredentialAtOtherOrigin();
  });

  void it('a redirect to another origin is followed without the credentials, and shown', async () => {
    otherSeen.length = 0;
    const file = httpFile('redirected', '{{base}}/redirect-away');
    const r = await apiwb([file, '--env', 'adv', '--env-file', join(dir, 'http-client.env.json')]);
    assert.equal(r.code, 0, r.stdout);
    assert.match(r.stdout, /redirected \(307\) to http:\/\/localhost:\d+\/landing, another origin: sent without header Authorization/);
    assertNoCredentialAtOtherOrigin();
  });

  void it('a redirect from https to http is refused: exit 1, the http origin gets nothing', async () => {
    const tls = certificate();
    // Never skipped: npm test installs openssl before the suites (scripts/ensure-debian-packages.sh).
    assert.ok(tls, 'openssl is not installed: run bash scripts/ensure-debian-packages.sh openssl');
    otherSeen.length = 0;
    secure = createTlsServer(tls, (_req, res) => {
      res.writeHead(302, { Location: `${otherBase}/landing` });
      res.end();
    });
    secureBase = `https://127.0.0.1:${await listen(secure)}`;
    // The https server is one of the environment's origins (the token may go there, and only there).
    const envFile = join(dir, 'secure.env.json');
    writeFileSync(envFile, JSON.stringify({ adv: { base, secure: secureBase, tenant: TENANT, ApiWorkbench: { Auth: { svc: { Type: 'JWT Bearer' } } } } }));
    const file = httpFile('downgrade', `${secureBase}/start`);
    const r = await apiwb([file, '--env', 'adv', '--env-file', envFile, '--insecure']);
    assert.equal(r.code, 1);
    assert.match(r.stdout, /✗ downgrade .*redirected \(302\): the redirect goes from https to plain http .*not followed/);
    assert.equal(otherSeen.length, 0, 'the http origin received no request at all');
  });

  void it('a trickling body is cut off at --timeout: exit 1, the deadline in words', async () => {
    const file = httpFile('trickle', '{{base}}/trickle');
    const r = await apiwb([file, '--env', 'adv', '--env-file', join(dir, 'http-client.env.json'), '--timeout', '400']);
    assert.equal(r.code, 1);
    assert.match(r.stdout, /✗ trickle .*no complete response within 400 ms \(the body was still arriving\)/);
  });

  void it('--max-pages cuts the walk short: exit 1, the rows kept, the resume command named', async () => {
    const r = await walkTo('maxpages', '{{base}}/pages', 'page-headers', ['--max-pages', '2']);
    assert.equal(r.code, 1);
    assert.equal(r.rows.length, 6);
    assert.match(r.stdout, /✗ maxpages .*cut short: stopped after 2 request\(s\) \(the page limit of 2\), not at the end of the data/);
    assert.match(r.stdout, /To continue from page 3, appending to .*maxpages\.ndjson: apiwb run .* --resume/);
  });

  void it('a mid-walk fault, then --resume: the exact total, no row twice, the checkpoint holds no secret', async () => {
    flakyFailures = 0;
    const first = await walkTo('flaky', '{{base}}/flaky', 'page-headers');
    assert.equal(first.code, 1);
    assert.equal(first.rows.length, 6, 'two pages kept before the fault');
    assert.match(first.stdout, /failed at page 3 .*HTTP 500/);
    const command = /apiwb run (.*) --resume/.exec(first.stdout)?.[1];
    assert.ok(command, `the failure names the resuming command: ${first.stdout}`);
    const record = readFileSync(resumePathFor(first.out), 'utf8');
    assert.doesNotMatch(record, new RegExp(`${TOKEN.slice(0, 20)}|Bearer|authorization`, 'i'), 'no credential in the checkpoint');

    const resumed = await apiwb([...command.split(' '), '--resume']);
    assert.equal(resumed.code, 0, resumed.stdout + resumed.stderr);
    const rows = rowsIn(first.out);
    assert.deepEqual(rows.map((row) => (row as { id: number }).id), ROWS.map((row) => row.id), 'every row once, in order');
    assert.equal(existsSync(resumePathFor(first.out)), false, 'a complete walk removes its checkpoint');
  });

  void it("--overlay: an imported operation's paging reaches the walker in the CLI", async () => {
    const imported = importOpenApiText(readFileSync(join(import.meta.dirname, '..', 'fixtures', 'openapi', 'campaigns-3.1.json'), 'utf8'), 'campaigns-3.1.json');
    const overlay = join(dir, 'campaigns.overlay.json');
    writeFileSync(overlay, overlayFileText(imported));
    const r = await walkTo('campaigns', '{{base}}/v1/campaigns?page=1&per_page=3', undefined, ['--overlay', overlay]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.deepEqual(r.rows.map((row) => (row as { id: number }).id), ROWS.map((row) => row.id));
    assert.match(r.stdout, /10 rows {2}4 pages/);
  });

  void it('a run of two walks into one file: the first complete is skipped on --resume, the second continues', async () => {
    flakyFailures = 0;
    const file = join(dir, 'two.http');
    writeFileSync(file, ['### a', '# @name first', '# @paging page-headers', 'GET {{base}}/pages', '',
      '### b', '# @name second', '# @paging page-headers', 'GET {{base}}/flaky', 'Authorization: Bearer {{$auth.token("svc")}}', ''].join('\n'));
    const out = join(dir, 'two.ndjson');
    const args = [file, '--env', 'adv', '--env-file', join(dir, 'http-client.env.json'), '--all-pages', '--out', out];
    const failed = await apiwb(args);
    assert.equal(failed.code, 1);
    assert.equal(rowsIn(out).length, 16, 'all of the first walk, two pages of the second');
    const resumed = await apiwb([...args, '--resume']);
    assert.equal(resumed.code, 0, resumed.stdout + resumed.stderr);
    assert.match(resumed.stdout, /^· first {2}skipped: its rows were written by the run being resumed$/m);
    const ids = rowsIn(out).map((row) => (row as { id: number }).id);
    assert.deepEqual(ids, [...ROWS.map((row) => row.id), ...ROWS.map((row) => row.id)], 'each walk once, in order, no duplicate');
  });

  void it('--resume with no checkpoint beside --out is a usage error', async () => {
    const r = await walkTo('nothing', '{{base}}/pages', 'page-headers', ['--resume']);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /--resume: no checkpoint beside/);
  });
});

/** A self-signed certificate for 127.0.0.1, or undefined without openssl. */
function certificate(): { key: Buffer; cert: Buffer } | undefined {
  const folder = mkdtempSync(join(tmpdir(), 'apiwb-adv-tls-'));
  try {
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', join(folder, 'key.pem'), '-out', join(folder, 'cert.pem'),
      '-days', '1', '-subj', '/CN=127.0.0.1'], { stdio: 'ignore' });
    return { key: readFileSync(join(folder, 'key.pem')), cert: readFileSync(join(folder, 'cert.pem')) };
  } catch {
    return undefined;
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
