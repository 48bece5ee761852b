// Adversarial review (invariant: a walk never says "complete" when rows are missing). With the
// page-headers style the server says, on every page, how many pages (X-Pagination-Total-Pages) and rows
// (X-Pagination-Total-Results) the walk has; README: "Every walk ends with a verdict — complete, …,
// inconsistent (the server's paging contradicted itself …)" and "only complete exits 0". Two walks that
// end "complete" (✓, exit 0) with rows the server announced missing:
//   - 5 pages and 10 rows announced, page 2 empty: the walk ends on the empty page, pages 3–5 never asked;
//   - 2 pages and 10 rows announced, one row on each page: 2 rows kept of the 10.
// Enforced by the strategy (src/core/paging/strategies/pageHeaders.ts, next) and the walk's checks
// (src/core/paging/pageChecks.ts).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInProcess } from './inProcess';
import { startLocalServer, type LocalServer } from './localServer';

void describe('a page-headers walk with rows the server announced missing is not complete', () => {
  let server: LocalServer;

  before(async () => {
    server = await startLocalServer('apiwb-rev-totals-', (req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      const page = Number(url.searchParams.get('page') ?? '1');
      const emptyAfterFirst = url.pathname === '/empty-second';
      const rows = emptyAfterFirst ? (page === 1 ? [{ id: 1 }, { id: 2 }] : []) : [{ id: page }];
      res.writeHead(200, {
        'Content-Type': 'application/json',
        'X-Pagination-Page': String(page),
        'X-Pagination-Per-Page': emptyAfterFirst ? '2' : '5',
        'X-Pagination-Total-Pages': emptyAfterFirst ? '5' : '2',
        'X-Pagination-Total-Results': '10',
      }).end(JSON.stringify(rows));
    });
    writeFileSync(join(server.dir, 'empty.http'), '# @name emptySecond\n# @paging page-headers\nGET {{base}}/empty-second\n');
    writeFileSync(join(server.dir, 'short.http'), '# @name shortRows\n# @paging page-headers\nGET {{base}}/short-rows\n');
  });

  after(async () => { await server.close(); });

  const run = (file: string) => runInProcess([join(server.dir, file), '--env', 'local', '--env-file', server.envFile, '--all-pages']);

  void it('an empty page 2 of 5 announced pages does not end the walk as complete', async () => {
    const result = await run('empty.http');
    assert.notEqual(result.code, 0, `exit ${result.code}: ${result.stdout}${result.stderr}`);
    assert.doesNotMatch(result.stdout, /^✓/m, result.stdout);
  });

  void it('a walk that keeps 2 of the 10 rows X-Pagination-Total-Results announced is not complete', async () => {
    const result = await run('short.http');
    assert.notEqual(result.code, 0, `exit ${result.code}: ${result.stdout}${result.stderr}`);
    assert.doesNotMatch(result.stdout, /^✓/m, result.stdout);
  });
});
