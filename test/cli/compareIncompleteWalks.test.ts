// Rule: a request whose walk is not complete on either side is never "agree" (README: a walk "ends with
// a verdict: complete, cut short, inconsistent or failed; only complete is success"). Two environments
// whose lists differ on page 3 (side A's ids 7-9, side B's 70-90) and whose page 2 fails (HTTP 500) on
// both sides: the same verdict on both sides is no agreement, since neither walk saw the rows past it;
// `apiwb compare --all-pages` says they differ (exit 1). A small server on 127.0.0.1, /a and /b its two
// environments.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { compareCommand } from '../../src/cli/compare/compareCommand';
import { commandInProcess } from './inProcess';
import { startLocalServer, type LocalServer } from './localServer';

void describe('apiwb compare: a walk not complete on both sides is no agreement', () => {
  let local: LocalServer;
  let file = '';
  let envFile = '';
  before(async () => {
    local = await startLocalServer('apiwb-compare-incomplete-', (req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      const n = Number(url.searchParams.get('page') ?? 1);
      if (n === 2) {
        res.writeHead(500, { 'Content-Type': 'application/json' }).end('{"Message":"unavailable"}');
        return;
      }
      const scale = url.pathname.startsWith('/b') && n === 3 ? 10 : 1;
      const rows = [1, 2, 3].map((i) => ({ id: ((n - 1) * 3 + i) * scale, name: `row ${(n - 1) * 3 + i}` }));
      res.writeHead(200, { 'Content-Type': 'application/json', 'X-Pagination-Page': String(n), 'X-Pagination-Per-Page': '3', 'X-Pagination-Total-Pages': '3', 'X-Pagination-Total-Results': '9' });
      res.end(JSON.stringify(rows));
    });
    envFile = join(local.dir, 'envs.json');
    writeFileSync(envFile, JSON.stringify({ a: { base: `${local.origin}/a` }, b: { base: `${local.origin}/b` } }));
    file = join(local.dir, 'list.http');
    writeFileSync(file, '# @name list\n# @paging page-headers\nGET {{base}}/items\n');
  });
  after(() => local.close());

  void it('--all-pages, page 2 failing on both sides, page 3 differing: not "agree", not exit 0', async () => {
    const r = await commandInProcess(compareCommand, [file, '--env', 'a', '--against', 'b', '--env-file', envFile, '--all-pages', '--key', 'name']);
    assert.doesNotMatch(r.stdout, / agree: /, r.stdout);
    assert.notEqual(r.code, 0, r.stdout + r.stderr);
  });
});
