// Rule (src/core/paging/strategies/pageHeaders.ts): an X-Pagination-* header that is there but is not a
// whole number fails the walk; it is never taken as absent, which ends the walk as if the server had
// announced no more. A server (or a proxy on its way) that sends each header twice (`4, 4`) or writes it
// `4 in all` had its walk end after page 1 "complete" (exit 0) with 3 of the 10 rows it announced.
// A small server on 127.0.0.1.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runInProcess } from '../cli/inProcess';
import { startLocalServer, type LocalServer } from '../cli/localServer';

const ROWS = Array.from({ length: 10 }, (_, i) => ({ id: i + 1 }));

void describe('page-headers: a paging header present but unreadable does not end the walk complete', () => {
  let local: LocalServer;
  let file = '';
  before(async () => {
    local = await startLocalServer('apiwb-rev-headers-', (req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      const n = Number(url.searchParams.get('page') ?? 1);
      const twice = url.pathname === '/twice';
      const value = (v: string): string | string[] => (twice ? [v, v] : `${v} ${url.pathname === '/worded' ? 'in all' : ''}`.trim());
      res.setHeader('Content-Type', 'application/json');
      res.setHeader('X-Pagination-Page', String(n));
      res.setHeader('X-Pagination-Per-Page', value('3'));
      res.setHeader('X-Pagination-Total-Pages', value('4'));
      res.setHeader('X-Pagination-Total-Results', value('10'));
      res.end(JSON.stringify(ROWS.slice((n - 1) * 3, n * 3)));
    });
    file = join(local.dir, 'h.http');
    writeFileSync(file, '###\n# @name twice\n# @paging page-headers\nGET {{base}}/twice\n\n###\n# @name worded\n# @paging page-headers\nGET {{base}}/worded\n');
  });
  after(() => local.close());

  for (const name of ['twice', 'worded']) {
    void it(`${name}: not "complete" with 3 of 10 rows`, async () => {
      const r = await runInProcess([file, '--env', 'local', '--env-file', local.envFile, '--name', name, '--all-pages']);
      assert.ok(!/^✓/m.test(r.stdout) || /  10 rows/.test(r.stdout), r.stdout);
      assert.ok(r.code !== 0 || /  10 rows/.test(r.stdout), r.stdout + r.stderr);
    });
  }
});
