// Rule (src/core/paging/pageChecks.ts PagingMemory): a walk never ends "complete" with a page's rows
// twice: a page that is any page kept before again (the same row count and boundary rows: every page's
// fingerprint is kept) makes the walk inconsistent, not only the page just before. A cursor walk whose
// server hands back page 1 again two pages later (cursor c3 answers page 1's rows and ends) ended
// "complete" (exit 0) with page 1's rows twice. DESIGN: "inconsistent (the server's paging contradicted
// itself: ... a page, cursor or rows served again)". A small server on 127.0.0.1.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { pageSeen, PagingMemory } from '../../src/core/paging/pageChecks';
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

  void it('pages of as many values (not objects) are told apart; the same values two pages later are not', () => {
    const memory = new PagingMemory(undefined);
    const said = [[1, 2, 3], [4, 5, 6], [7, 8, 9], [4, 5, 6]].map((rows, i) => {
      const seen = pageSeen(rows, undefined);
      const why = memory.repeats(i + 1, seen);
      memory.kept(undefined, seen);
      return why;
    });
    assert.deepEqual(said.slice(0, 3), [undefined, undefined, undefined]);
    assert.match(said[3] ?? '', /page 4 holds exactly the rows of page 2/);
  });
});
