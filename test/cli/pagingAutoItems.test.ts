// `# @paging auto items=…`: the style is detected from the first response, and the options written with
// `auto` (where the rows are) are the detected style's. Before, they were dropped: the walk read rows
// from another array of the body, or none, and said so as a success.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runInProcess } from './inProcess';
import { startLocalServer, type LocalServer } from './localServer';

const ROWS = [{ id: 1 }, { id: 2 }, { id: 3 }];
const PAGE_2 = [{ id: 4 }];
// `items` (an array of objects the rule would take without items=) is not where the rows are.
const BODY = { items: [{ decoy: true }], result: { data: { rows: ROWS } } };

void describe('@paging auto with items=', () => {
  let server: LocalServer;
  before(async () => {
    server = await startLocalServer('apiwb-auto-items-', (req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      if (req.url === '/list') res.end(JSON.stringify({ ...BODY, next_link: '/list?page=2' }));
      else if (req.url === '/list?page=2') res.end(JSON.stringify({ ...BODY, result: { data: { rows: PAGE_2 } } }));
      else res.end(JSON.stringify(BODY));
    });
  });
  after(() => server.close());

  async function run(path: string): Promise<{ code: number; out: string; rows: unknown[] }> {
    const file = join(server.dir, `auto-${path.replace(/\W/g, '')}.http`);
    writeFileSync(file, `# @paging auto items=result.data.rows\nGET {{base}}${path}\n`);
    const out = join(server.dir, `auto-${path.replace(/\W/g, '')}.ndjson`);
    const r = await runInProcess([file, '--env', 'local', '--env-file', server.envFile, '--all-pages', '--out', out]);
    const rows = readFileSync(out, 'utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as unknown);
    return { code: r.code, out: r.stdout + r.stderr, rows };
  }

  void it('a single page (style none detected) reads its rows where items= says', async () => {
    const got = await run('/single');
    assert.equal(got.code, 0, got.out);
    assert.deepEqual(got.rows, ROWS);
  });

  void it('a next link (configurable style detected) reads every page\'s rows where items= says', async () => {
    const got = await run('/list');
    assert.equal(got.code, 0, got.out);
    assert.deepEqual(got.rows, [...ROWS, ...PAGE_2]);
  });
});
