// Rule (src/core/paging/linkHeader.ts): an RFC 8288 Link header is read link by link with its quoted
// parameters whole, so a walk follows every rel="next" the server sends, and never ends "complete" with
// the pages after it missing. A link may carry a quoted parameter holding a comma
// (`<…?page=2>; title="page 2, of 3"; rel="next"`); a pattern that stopped the parameters at that comma
// found no rel, and the walk ended after page 1 "complete" (exit 0). A small server on 127.0.0.1.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runInProcess } from '../cli/inProcess';
import { startLocalServer, type LocalServer } from '../cli/localServer';

const ROWS = Array.from({ length: 9 }, (_, i) => ({ id: i + 1 }));

void describe('a Link header with a quoted comma in its next link\'s parameters', () => {
  let local: LocalServer;
  let file = '';
  before(async () => {
    local = await startLocalServer('apiwb-rev-link-', (req, res) => {
      const n = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('page') ?? 1);
      const link = n < 3 ? { Link: `<${local.origin}/linked?page=${n + 1}>; title="page ${n + 1}, of 3"; rel="next"` } : {};
      res.writeHead(200, { 'Content-Type': 'application/json', ...link }).end(JSON.stringify(ROWS.slice((n - 1) * 3, n * 3)));
    });
    file = join(local.dir, 'linked.http');
    writeFileSync(file, '# @name linked\n# @paging generic\nGET {{base}}/linked\n');
  });
  after(() => local.close());

  void it('is followed: 9 rows in 3 pages, not "complete" after page 1', async () => {
    const r = await runInProcess([file, '--env', 'local', '--env-file', local.envFile, '--all-pages']);
    assert.match(r.stdout, /  9 rows  3 pages/, r.stdout);
    assert.equal(r.code, 0, r.stdout + r.stderr);
  });
});
