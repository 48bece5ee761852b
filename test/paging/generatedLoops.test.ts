// The generated paging loops (`apiwb generate --paging --lang ts|python`) against the walker: for every
// paging style of the sample collection, the TypeScript and the Python loop walk the sandbox and return
// the rows `apiwb run --all-pages --out` writes, in the same order, with the same verdict. Against small
// servers of this test's own (repeated page, vanished paging headers, a page that fails once, a cursor
// served again, a total that changes, a business error inside a 200) they stop with the walker's
// verdict and keep the rows it keeps: never "complete" with rows missing. A failure thrown by a loop
// (PagingError) is the walker's "failed". The loops run through the one runner (generatedLoopRunner.ts).
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { rowsRule } from '../../src/core/paging/rows';
import { runInProcess } from '../cli/inProcess';
import { generated, signInToken } from '../cli/generateProcess';
import { COLLECTION, openSandboxWorkspace, type SandboxWorkspace } from '../cli/sandboxEnv';
import { runGeneratedLoop, type LoopRun } from './generatedLoopRunner';

let dir: string;

function verdictOfLine(stdout: string): string {
  const line = stdout.split('\n').find((l) => /^[✓✗] /.test(l)) ?? '';
  if (line.startsWith('✓')) return 'complete';
  if (/\binconsistent\b/.test(line)) return 'inconsistent';
  if (/cut short/.test(line)) return 'cut-short';
  return 'failed';
}

async function walker(file: string, name: string, envFile: string, env: Record<string, string>, extra: readonly string[] = []): Promise<LoopRun> {
  const out = join(dir, `${name}-${Math.random().toString(36).slice(2)}.ndjson`);
  const r = await runInProcess([file, '--env-file', envFile, '--env', envNameOf(envFile), '--name', name, '--all-pages', '--out', out, ...extra], env);
  const text = (() => { try { return readFileSync(out, 'utf8'); } catch { return ''; } })();
  return { rows: text.split('\n').filter(Boolean).map((l) => JSON.parse(l) as unknown), verdict: verdictOfLine(r.stdout) };
}

/**
 * Rows as compared. Each new Selection export of the sandbox draws its contact columns from its table's
 * random name, so two exports agree on their CtcID sequence and columns, not on every value.
 */
function comparable(style: string, rows: readonly unknown[]): unknown[] {
  if (style !== 'export-ordinal') return [...rows];
  return rows.map((row) => ({ CtcID: (row as { CtcID?: unknown }).CtcID, columns: Object.keys(row as object) }));
}

const envNameOf = (envFile: string): string => Object.keys(JSON.parse(readFileSync(envFile, 'utf8')) as object)[0]!;

async function generate(file: string, name: string, lang: 'ts' | 'python', envFile: string, env: Record<string, string>): Promise<string> {
  const made = await generated([file, '--name', name, '--paging', '--lang', lang, '--env-file', envFile, '--env', envNameOf(envFile)], env);
  assert.equal(made.code, 0, made.stderr);
  return made.stdout;
}

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'apiwb-loops-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

void describe('generated paging loops walk the sandbox as apiwb run --all-pages does', () => {
  let ws: SandboxWorkspace;
  before(async () => {
    ws = await openSandboxWorkspace();
  });
  after(() => ws.close());

  const CASES = [
    ['engagement.http', 'ordersByCustomer', 'page-number'],
    ['booking.http', 'listBookings', 'page-headers'],
    ['engagement-paging.http', 'leadsOfCustomer', 'offset-remaining'],
    ['engagement-paging.http', 'assetsInBatches', 'batch-cursor'],
    ['engagement-paging.http', 'selectionExport', 'export-ordinal'],
    ['engagement-paging.http', 'factTransactions', 'stateful-extraction'],
  ] as const;
  for (const [file, name, style] of CASES) {
    void it(`${style} (${name}): TypeScript and Python return the walker's rows, in order, and its verdict`, async () => {
      const path = join(COLLECTION, file);
      const expected = await walker(path, name, ws.envFile, ws.secrets);
      assert.equal(expected.verdict, 'complete');
      assert.ok(expected.rows.length > 0);
      const e = ws.descriptor.credentials.engagement;
      for (const lang of ['ts', 'python'] as const) {
        // A token of its own: a stateful extraction's position is kept per token.
        const token = await signInToken(ws.descriptor.engagement.authUrl, e.username, e.password);
        const code = await generate(path, name, lang, ws.envFile, { ...ws.secrets, APIWB_SECRET_ENGAGEMENT_TOKEN: token });
        for (const secret of [...ws.secretValues, token]) assert.ok(!code.includes(secret), 'no secret value in the generated loop');
        assert.match(code, new RegExp(style));
        const got = await runGeneratedLoop(dir, code, lang, { env: { APIWB_SECRET_ENGAGEMENT_TOKEN: token } });
        assert.equal(got.verdict, expected.verdict, `${lang}: verdict`);
        assert.equal(got.rows.length, expected.rows.length, `${lang}: row count`);
        assert.deepEqual(comparable(style, got.rows), comparable(style, expected.rows), `${lang}: the same rows in the same order`);
      }
    });
  }
});

// ---- adversarial servers of this test's own ------------------------------------------------------

const ROWS = Array.from({ length: 10 }, (_, i) => ({ id: i + 1, name: `row ${i + 1}` }));
let failedOnce = new Set<string>();
let extractAt = 0;

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

function bodyOf(req: IncomingMessage): Promise<Record<string, unknown>> {
  return new Promise((resolve) => {
    let text = '';
    req.on('data', (c: Buffer) => { text += c.toString(); });
    req.on('end', () => resolve(text ? JSON.parse(text) as Record<string, unknown> : {}));
  });
}

/** Pages of 3 rows with the four X-Pagination-* headers; `bend` changes what one page says. */
function headerPage(res: ServerResponse, page: number, bend: (page: number, headers: Record<string, string>) => { rows?: unknown[]; headers: Record<string, string> }): void {
  const headers = { 'X-Pagination-Page': String(page), 'X-Pagination-Per-Page': '3', 'X-Pagination-Total-Pages': '4', 'X-Pagination-Total-Results': '10' };
  const bent = bend(page, headers);
  json(res, 200, bent.rows ?? ROWS.slice((page - 1) * 3, page * 3), bent.headers);
}

const once = (key: string): boolean => {
  if (failedOnce.has(key)) return false;
  failedOnce.add(key);
  return true;
};

/**
 * A page whose rows the contract does not name: a business-error list first (empty), a short list of
 * objects, and the page's rows one level further down. The rows rule takes the largest array of objects
 * (never Errors); on the last page the two lists tie and the shallower one wins.
 */
function nestedBody(page: number): unknown {
  return { Errors: [], Notes: [{ note: `page ${page}` }], Result: { Rows: ROWS.slice((page - 1) * 3, page * 3) } };
}

type Route = (req: IncomingMessage, res: ServerResponse, url: URL) => void | Promise<void>;
const ROUTES: Record<string, Route> = {
  '/vanish': (_q, res, url) => headerPage(res, Number(url.searchParams.get('page') ?? 1), (p, h) => {
    if (p === 3) delete h['X-Pagination-Total-Pages'];
    return { headers: h };
  }),
  '/nested': (_q, res, url) => {
    const page = Number(url.searchParams.get('page') ?? 1);
    headerPage(res, page, (p, h) => ({ rows: nestedBody(p) as unknown[], headers: h }));
  },
  '/repeat': (_q, res, url) => headerPage(res, Number(url.searchParams.get('page') ?? 1), (p, h) => (p === 2 ? { rows: ROWS.slice(0, 3), headers: h } : { headers: h })),
  '/flaky': (_q, res, url) => {
    const page = Number(url.searchParams.get('page') ?? 1);
    if (page === 2 && once('flaky')) return json(res, 500, { message: 'try again' });
    return headerPage(res, page, (_p, h) => ({ headers: h }));
  },
  '/pages': (_q, res, url) => headerPage(res, Number(url.searchParams.get('page') ?? 1), (_p, h) => ({ headers: h })),
  // A LoyaltyPoint path: the catalog gives the request its family's catalogue (code 13: Invalid CtcID).
  '/api/LoyaltyPoint/GetBalance': (_q, res, url) => {
    const page = Number(url.searchParams.get('pageNumber') ?? 1);
    if (page === 2) return json(res, 200, { ResponseStatus: false, Errors: [{ ErrorCode: 13, ErrorDescription: '' }] });
    json(res, 200, { PageNumber: page, PageSize: 3, TotalOrders: 10, Orders: ROWS.slice((page - 1) * 3, page * 3) });
  },
  '/orders': (_q, res, url) => {
    const page = Number(url.searchParams.get('pageNumber') ?? 1);
    json(res, 200, { PageNumber: page, PageSize: 3, TotalOrders: page === 2 ? 7 : 10, Orders: ROWS.slice((page - 1) * 3, page * 3), Response: true, Errors: [] });
  },
  '/batches': async (req, res) => {
    const sent = await bodyOf(req);
    const n = sent['BatchID'] === 'B1' ? 1 : 0;
    // The second batch hands back the cursor it was sent: the server's paging points back.
    json(res, 200, { BatchID: 'B1', Remaining: 10 - (n + 1) * 3, Assets: ROWS.slice(n * 3, n * 3 + 3) });
  },
  '/leads': async (req, res) => {
    const sent = await bodyOf(req);
    const offset = Number(sent['Offset'] ?? 0);
    if (offset >= 3) return json(res, 200, { ResponseStatus: false, Errors: [{ ErrorCode: 2, ErrorDescription: 'Internal Error' }] });
    json(res, 200, { _Leads: ROWS.slice(offset, offset + 3), Remaining: 99 });
  },
  '/extract': (_q, res) => {
    // A transient error on the second call that does not move the position: the same call again.
    if (extractAt === 3 && once('extract')) return json(res, 500, { message: 'busy' });
    const rows = ROWS.slice(extractAt, extractAt + 3);
    extractAt += rows.length;
    json(res, 200, { FactTransactions: rows });
  },
};

void describe('generated paging loops against adversarial servers stop with the walker\'s verdict', () => {
  let server: Server;
  let envFile: string;
  let httpFile: string;
  before(async () => {
    server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      const route = ROUTES[url.pathname];
      if (route) void route(req, res, url);
      else json(res, 404, {});
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    envFile = join(dir, 'http-client.env.json');
    writeFileSync(envFile, JSON.stringify({ adv: { base } }));
    httpFile = join(dir, 'adversarial.http');
    writeFileSync(httpFile, [
      '###\n# @name vanish\n# @paging page-headers\nGET {{base}}/vanish',
      '###\n# @name nested\n# @paging page-headers\nGET {{base}}/nested',
      '###\n# @name repeat\n# @paging page-headers\nGET {{base}}/repeat',
      '###\n# @name flaky\n# @paging page-headers\nGET {{base}}/flaky',
      '###\n# @name pages\n# @paging page-headers\nGET {{base}}/pages',
      '###\n# @name balance\n# @paging page-number\nGET {{base}}/api/LoyaltyPoint/GetBalance?pageNumber=1&pageSize=3',
      '###\n# @name orders\n# @paging page-number\nGET {{base}}/orders?pageNumber=1&pageSize=3',
      '###\n# @name batches\n# @paging batch-cursor\nPOST {{base}}/batches\nContent-Type: application/json\n\n{ "BatchSize": 3 }',
      '###\n# @name leads\n# @paging offset-remaining\nPOST {{base}}/leads\nContent-Type: application/json\n\n{ "PageSize": 3, "Offset": 0 }',
      '###\n# @name extract\n# @paging stateful-extraction\nPOST {{base}}/extract\nContent-Type: application/json\n\n{ "PageSize": 3 }',
    ].join('\n\n'));
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const CASES: readonly (readonly [string, string, number])[] = [
    ['vanish', 'inconsistent', 6],
    ['repeat', 'inconsistent', 3],
    ['flaky', 'failed', 3],
    ['orders', 'inconsistent', 3],
    ['batches', 'inconsistent', 6],
    ['leads', 'failed', 3],
    ['extract', 'complete', 10],
    ['balance', 'failed', 3],
  ];
  for (const [name, verdict, kept] of CASES) {
    void it(`${name}: ${verdict}, ${kept} rows kept, as the walker`, async () => {
      const reset = (): void => {
        failedOnce = new Set();
        extractAt = 0;
      };
      reset();
      const expected = await walker(httpFile, name, envFile, {});
      assert.equal(expected.verdict, verdict, 'the walker');
      assert.equal(expected.rows.length, kept, 'the walker keeps');
      for (const lang of ['ts', 'python'] as const) {
        reset();
        const got = await runGeneratedLoop(dir, await generate(httpFile, name, lang, envFile, {}), lang);
        assert.equal(got.verdict, expected.verdict, `${lang}: verdict`);
        assert.deepEqual(got.rows, expected.rows, `${lang}: the rows kept`);
        // A business error inside a 200 is raised with its catalogue's meaning.
        if (name === 'balance') assert.match(got.error ?? '', /page 2: a business error inside HTTP 200: Error code 13 \(Invalid CtcID\)/, lang);
      }
    });
  }

  void it('nested, no field named: the rows rule\'s rows (largest array of objects, never Errors), as the walker', async () => {
    const rule = rowsRule('page-headers', {});
    const oracle = [1, 2, 3, 4].flatMap((p) => {
      const found = rule.find(nestedBody(p));
      assert.ok(found.ok);
      return [...found.rows];
    });
    // Pages 1-3: the three rows two levels down; page 4: one row each, so the shallower Notes.
    assert.deepEqual(oracle, [...ROWS.slice(0, 9), { note: 'page 4' }]);
    const expected = await walker(httpFile, 'nested', envFile, {});
    assert.equal(expected.verdict, 'complete');
    assert.deepEqual(expected.rows, oracle, 'the walker');
    for (const lang of ['ts', 'python'] as const) {
      const got = await runGeneratedLoop(dir, await generate(httpFile, 'nested', lang, envFile, {}), lang);
      assert.equal(got.verdict, 'complete', lang);
      assert.deepEqual(got.rows, oracle, lang);
    }
  });

  void it('maxPages cuts the walk short, as --max-pages does: the same rows, never "complete"', async () => {
    const expected = await walker(httpFile, 'pages', envFile, {}, ['--max-pages', '2']);
    assert.equal(expected.verdict, 'cut-short');
    assert.equal(expected.rows.length, 6);
    for (const lang of ['ts', 'python'] as const) {
      const got = await runGeneratedLoop(dir, await generate(httpFile, 'pages', lang, envFile, {}), lang, { maxPages: 2 });
      assert.equal(got.verdict, 'cut-short', lang);
      assert.deepEqual(got.rows, expected.rows, lang);
    }
  });
});
