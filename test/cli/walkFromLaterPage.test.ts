// A walk started past page 1 is judged against the totals from its start (walkRate.missingByTotals).
// The invariant is "never complete with rows missing", not "complete only when pages kept == total pages":
// a page-headers walk the user starts past page 1 (`?page=3`, as the booking service's `page` parameter
// allows) asks every page from 3 to the last one the server announces, misses nothing after its start,
// and was complete (exit 0) before the fix. walkRate.missingByTotals compares the pages and rows the walk
// kept (3 pages, 6 rows) with the server's totals for the whole list (5 pages, 10 rows) and ends it
// "inconsistent" (exit 1), saying the server's paging contradicted itself when it did not.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInProcess } from './inProcess';
import { startLocalServer, type LocalServer } from './localServer';

void describe('a page-headers walk started at a later page', () => {
  let server: LocalServer;
  const asked: number[] = [];

  before(async () => {
    server = await startLocalServer('apiwb-later-page-', (req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      if (url.pathname === '/orders') {
        // Page-number style (TotalOrders over a fixed PageSize): 7 orders, 3 a page.
        const number = Number(url.searchParams.get('pageNumber') ?? '1');
        const orders = [1, 2, 3, 4, 5, 6, 7].slice((number - 1) * 3, number * 3).map((id) => ({ id }));
        res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ Response: true, PageNumber: number, PageSize: 3, TotalOrders: 7, Orders: orders }));
        return;
      }
      const page = Number(url.searchParams.get('page') ?? '1');
      asked.push(page);
      // /short: page 4 has one row of its 2.
      const rows = page >= 1 && page <= 5 ? [{ id: page * 2 - 1 }, { id: page * 2 }].slice(0, url.pathname === '/short' && page === 4 ? 1 : 2) : [];
      res.writeHead(200, {
        'Content-Type': 'application/json',
        'X-Pagination-Page': String(page),
        'X-Pagination-Per-Page': '2',
        'X-Pagination-Total-Pages': '5',
        'X-Pagination-Total-Results': '10',
      }).end(JSON.stringify(rows));
    });
    writeFileSync(join(server.dir, 'later.http'), '# @name fromPageThree\n# @paging page-headers\nGET {{base}}/items?page=3\n');
    writeFileSync(join(server.dir, 'short.http'), '# @name shortFromThree\n# @paging page-headers\nGET {{base}}/short?page=3\n');
    writeFileSync(join(server.dir, 'orders.http'), '# @name ordersFromTwo\n# @paging page-number\nGET {{base}}/orders?pageNumber=2&pageSize=3\n');
  });

  after(async () => { await server.close(); });

  void it('asks pages 3 to 5 and ends complete (exit 0), not inconsistent', async () => {
    const out = join(server.dir, 'rows.ndjson');
    const result = await runInProcess([join(server.dir, 'later.http'), '--env', 'local', '--env-file', server.envFile, '--all-pages', '--out', out]);
    assert.deepEqual(asked, [3, 4, 5], `pages asked: ${asked.join(', ')}`);
    assert.doesNotMatch(result.stdout + result.stderr, /inconsistent/i, result.stdout + result.stderr);
    assert.equal(result.code, 0, `exit ${result.code}: ${result.stdout}${result.stderr}`);
  });

  const args = (file: string, out: string) => [join(server.dir, file), '--env', 'local', '--env-file', server.envFile, '--all-pages', '--out', out];

  void it('still names the rows missing from its start: a row short on page 4 of pages 3 to 5', async () => {
    const result = await runInProcess(args('short.http', join(server.dir, 'short.ndjson')));
    assert.equal(result.code, 1, result.stdout + result.stderr);
    assert.match(result.stdout, /announced 6 row\(s\) from page 3 .*1 row\(s\) are missing/, result.stdout);
  });

  void it('resumed after a cut, counts the pages and rows of the part before (exit 0)', async () => {
    asked.length = 0;
    const out = join(server.dir, 'resumed.ndjson');
    const cut = await runInProcess([...args('later.http', out), '--max-pages', '1']);
    assert.equal(cut.code, 1, cut.stdout + cut.stderr);
    const resumed = await runInProcess([...args('later.http', out), '--resume']);
    assert.deepEqual(asked, [3, 4, 5], `pages asked: ${asked.join(', ')}`);
    assert.equal(resumed.code, 0, `exit ${resumed.code}: ${resumed.stdout}${resumed.stderr}`);
    assert.equal(readFileSync(out, 'utf8').trim().split('\n').length, 6);
  });

  void it('a page-number walk from pageNumber=2 keeps the 4 orders after the 3 of page 1 (exit 0)', async () => {
    const result = await runInProcess(args('orders.http', join(server.dir, 'orders.ndjson')));
    assert.equal(result.code, 0, `exit ${result.code}: ${result.stdout}${result.stderr}`);
    assert.match(result.stdout, /4 rows/, result.stdout);
  });
});
