// Invariant E: a walk never ends "complete" with rows duplicated. The walk's checks (src/core/paging/
// pageChecks.ts) compare a page with the page just before it only; a cursor walk whose server hands back
// page 1 again two pages later (a cursor reset: cursor c3 answers page 1's rows, the same rows, and ends)
// ends "complete" (exit 0) with page 1's rows twice. DESIGN: "inconsistent (the server's paging
// contradicted itself: ... a page, cursor or rows served again)". A small server on 127.0.0.1.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runInProcess } from '../cli/inProcess';
import { startLocalServer, type LocalServer } from '../cli/localServer';

const PAGE1 = [{ id: 1, name: 'a' }, { id: 2, name: 'b' }];
const PAGE2 = [{ id: 3, name: 'c' }, { id: 4, name: 'd' }];

void describe('a page served again after another page', () => {
  let local: LocalServer;
  let file = '';
  before(async () => {
    local = await startLocalServer('apiwb-rev-again-', (req, res) => {
      const cursor = new URL(req.url ?? '/', 'http://x').searchParams.get('cursor');
      const body = cursor === null ? { items: PAGE1, next: 'c2' } : cursor === 'c2' ? { items: PAGE2, next: 'c3' } : { items: PAGE1, next: null };
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
    });
    file = join(local.dir, 'c.http');
    writeFileSync(file, '# @name list\n# @paging generic cursor=cursor cursorField=next items=items\nGET {{base}}/list\n');
  });
  after(() => local.close());

  void it('is not "complete" with page 1\'s rows twice', async () => {
    const out = join(local.dir, 'rows.ndjson');
    const r = await runInProcess([file, '--env', 'local', '--env-file', local.envFile, '--all-pages', '--out', out]);
    assert.match(r.stdout, /3 pages|failed|inconsistent/, r.stdout);
    assert.doesNotMatch(r.stdout, /^✓/m, r.stdout);
    assert.notEqual(r.code, 0, r.stdout);
  });
});
