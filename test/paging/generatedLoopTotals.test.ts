// A paging loop made by `apiwb generate --paging` never ends "complete" with rows the server announced
// missing, as `apiwb run --all-pages` never does (the walker judges the announced totals in
// src/core/paging/walkRate.ts missingByTotals; the loops print the same rule, loopParts.ts). Servers of
// this test's own on 127.0.0.1:
//   - page-headers, 5 pages and 10 rows announced, page 2 empty;
//   - page-headers, 2 pages and 10 rows announced, one row on each page;
//   - page-number, TotalOrders 10 and PageSize 5 announced, one row on each page.
// The walker says each is not complete; so does each loop (found by review: they said "complete").
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runInProcess } from '../cli/inProcess';
import { generated } from '../cli/generateProcess';
import { startLocalServer, type LocalServer } from '../cli/localServer';
import { runGeneratedLoop } from './generatedLoopRunner';

void describe('generated paging loops: never complete with announced rows missing', () => {
  let server: LocalServer;
  let file: string;
  before(async () => {
    server = await startLocalServer('apiwb-rev-loop-totals-', (req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      if (url.pathname === '/orders') {
        const page = Number(url.searchParams.get('pageNumber') ?? '1');
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ PageNumber: page, PageSize: 5, TotalOrders: 10, Orders: [{ id: page }] }));
        return;
      }
      const page = Number(url.searchParams.get('page') ?? '1');
      const empty = url.pathname === '/empty-second';
      const rows = empty ? (page === 1 ? [{ id: 1 }, { id: 2 }] : []) : [{ id: page }];
      res.writeHead(200, {
        'Content-Type': 'application/json',
        'X-Pagination-Page': String(page),
        'X-Pagination-Per-Page': empty ? '2' : '5',
        'X-Pagination-Total-Pages': empty ? '5' : '2',
        'X-Pagination-Total-Results': '10',
      });
      res.end(JSON.stringify(rows));
    });
    file = join(server.dir, 'loops.http');
    writeFileSync(file, [
      '###\n# @name emptySecond\n# @paging page-headers\nGET {{base}}/empty-second',
      '###\n# @name shortRows\n# @paging page-headers\nGET {{base}}/short-rows',
      '###\n# @name shortOrders\n# @paging page-number\nGET {{base}}/orders?pageNumber=1&pageSize=5',
    ].join('\n\n'));
  });
  after(async () => { await server.close(); });

  for (const name of ['emptySecond', 'shortRows', 'shortOrders']) {
    void it(`${name}: the walker is not complete, and neither is the TypeScript or the Python loop`, async () => {
      const walked = await runInProcess([file, '--env', 'local', '--env-file', server.envFile, '--name', name, '--all-pages']);
      assert.doesNotMatch(walked.stdout, /^✓/m, `the walker: ${walked.stdout}`);
      for (const lang of ['ts', 'python'] as const) {
        const made = await generated([file, '--name', name, '--paging', '--lang', lang, '--env-file', server.envFile, '--env', 'local'], {});
        assert.equal(made.code, 0, made.stderr);
        const got = await runGeneratedLoop(server.dir, made.stdout, lang);
        assert.equal(got.verdict, 'inconsistent', `${lang}: ${got.rows.length} row(s) of the 10 announced, said ${got.verdict}`);
      }
    });
  }
});
