// Rule (walkRate.ts missingByTotals, at every walk's end): what a walk kept must agree with the totals
// its server announced both ways: fewer rows than announced are missing, and more rows than announced
// mean the server's paging contradicted itself (its stop rule trusted that total). A page-number walk,
// TotalOrders 4 (or 0) with 3 rows on each of pages 1-3, stopped after page 2 (or 1) and ended "complete"
// (exit 0) with 6 (or 3) of the 9 rows served; it is now inconsistent. A small server on 127.0.0.1.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runInProcess } from '../cli/inProcess';
import { startLocalServer, type LocalServer } from '../cli/localServer';

void describe('page-number: more rows kept than TotalOrders announces', () => {
  let local: LocalServer;
  let file = '';
  before(async () => {
    local = await startLocalServer('apiwb-rev-total-below-', (req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      const n = Number(url.searchParams.get('pageNumber') ?? 1);
      const rows = n <= 3 ? [1, 2, 3].map((i) => ({ id: (n - 1) * 3 + i })) : [];
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ PageNumber: n, PageSize: 3, TotalOrders: url.pathname === '/zero' ? 0 : 4, Orders: rows }));
    });
    file = join(local.dir, 'orders.http');
    writeFileSync(file, '###\n# @name four\n# @paging page-number\nGET {{base}}/four?pageNumber=1&pageSize=3\n\n###\n# @name zero\n# @paging page-number\nGET {{base}}/zero?pageNumber=1&pageSize=3\n');
  });
  after(() => local.close());

  for (const name of ['four', 'zero']) {
    void it(`TotalOrders ${name === 'four' ? 4 : 0}, 9 rows served: not "complete" short of them`, async () => {
      const r = await runInProcess([file, '--env', 'local', '--env-file', local.envFile, '--name', name, '--all-pages']);
      assert.ok(!/^✓/m.test(r.stdout) || /  9 rows/.test(r.stdout), r.stdout);
      assert.ok(r.code !== 0 || /  9 rows/.test(r.stdout), r.stdout + r.stderr);
    });
  }
});
