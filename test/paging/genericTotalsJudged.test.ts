// Rule (walkRate.ts missingByTotals, at every walk's end): a walk is never "complete" with rows the server
// announced missing, in every paging style, the configurable (generic) one included: its total= and
// totalPages= fields are the walk's facts, judged as the other styles' totals are. `apiwb run --all-pages`
// against a small server on 127.0.0.1:
//   - offset=offset total=total, the body announcing 9 rows: an empty page after 6 ended it "complete";
//   - page=page totalPages=pages, 3 pages announced: an empty page 2 ended it "complete".
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runInProcess } from '../cli/inProcess';
import { startLocalServer, type LocalServer } from '../cli/localServer';

const ROWS = Array.from({ length: 9 }, (_, i) => ({ id: i + 1 }));

void describe('generic paging total= and totalPages=: never complete with rows missing', () => {
  let local: LocalServer;
  let file = '';
  before(async () => {
    local = await startLocalServer('apiwb-rev-generic-', (req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      const n = Number(url.searchParams.get('page') ?? 1);
      const json = (body: unknown, headers: Record<string, string> = {}): void => {
        res.writeHead(200, { 'Content-Type': 'application/json', ...headers }).end(JSON.stringify(body));
      };
      if (url.pathname === '/offset') {
        const offset = Number(url.searchParams.get('offset') ?? 0);
        return json({ total: 9, items: offset < 6 ? ROWS.slice(offset, offset + 3) : [] });
      }
      json({ pages: 3, items: n === 1 ? ROWS.slice(0, 3) : [] });
    });
    file = join(local.dir, 'generic.http');
    writeFileSync(file, [
      '###\n# @name offset\n# @paging generic offset=offset total=total items=items\nGET {{base}}/offset',
      '###\n# @name pages\n# @paging generic page=page totalPages=pages items=items\nGET {{base}}/pages',
    ].join('\n\n'));
  });
  after(() => local.close());

  for (const name of ['offset', 'pages']) {
    void it(`${name}: not "complete" (exit not 0) with rows the server announced missing`, async () => {
      const r = await runInProcess([file, '--env', 'local', '--env-file', local.envFile, '--name', name, '--all-pages']);
      assert.doesNotMatch(r.stdout, /^✓/m, r.stdout);
      assert.notEqual(r.code, 0, r.stdout + r.stderr);
    });
  }
});
