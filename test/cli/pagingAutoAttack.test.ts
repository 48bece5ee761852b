// Attack (review of fd823b6, `# @paging auto items=…`): the options written with `auto` are the detected
// style's. Here the style detected is page-headers (X-Pagination-* headers) and generic by a Link header,
// with a decoy `items` array in every body; a walk stopped at page 2 is resumed; `auto next=` is refused.
// The test's own server on 127.0.0.1 port 0, `apiwb run` in process.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runInProcess } from './inProcess';
import { startLocalServer, type LocalServer } from './localServer';

const PAGES = 3;
const rowsOf = (n: number): Array<{ id: number }> => [{ id: n * 2 - 1 }, { id: n * 2 }];
const ALL = Array.from({ length: PAGES * 2 }, (_, i) => ({ id: i + 1 }));
const bodyOf = (n: number): string => JSON.stringify({ items: [{ decoy: n }], result: { data: { rows: rowsOf(n) } } });

void describe('@paging auto items= against detected styles', () => {
  let server: LocalServer;
  let refusePage2 = false;
  before(async () => {
    server = await startLocalServer('apiwb-auto-attack-', (req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      const n = Number(url.searchParams.get('page') ?? 1);
      if (url.pathname === '/headers') {
        if (n === 2 && refusePage2) {
          res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '3600' });
          res.end('{"message":"slow down"}');
          return;
        }
        res.writeHead(200, { 'content-type': 'application/json', 'x-pagination-page': String(n), 'x-pagination-total-pages': String(PAGES), 'x-pagination-total-results': String(PAGES * 2) });
        res.end(bodyOf(n));
      } else if (url.pathname === '/link') {
        const head: Record<string, string> = { 'content-type': 'application/json' };
        if (n < PAGES) head.link = `<${server.origin}/link?page=${n + 1}>; rel="next"`;
        res.writeHead(200, head);
        res.end(bodyOf(n));
      } else {
        res.writeHead(404);
        res.end();
      }
    });
  });
  after(() => server.close());

  const fileFor = (name: string, directive: string, path: string): string => {
    const file = join(server.dir, `${name}.http`);
    writeFileSync(file, `# @name ${name}\n${directive}\nGET {{base}}${path}\n`);
    return file;
  };
  const readRows = (out: string): unknown[] => (existsSync(out) ? readFileSync(out, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as unknown) : []);

  for (const [name, path] of [['headers', '/headers'], ['link', '/link']] as const) {
    void it(`${name}: every page's rows read where items= says (not the decoy)`, async () => {
      const out = join(server.dir, `${name}.ndjson`);
      const r = await runInProcess([fileFor(name, '# @paging auto items=result.data.rows', path), '--env', 'local', '--env-file', server.envFile, '--all-pages', '--out', out]);
      assert.equal(r.code, 0, r.stdout + r.stderr);
      assert.deepEqual(readRows(out), ALL, r.stdout + r.stderr);
    });
    void it(`${name}, no --out (rows counted on the line): the count is items= rows`, async () => {
      const r = await runInProcess([fileFor(`${name}-count`, '# @paging auto items=result.data.rows', path), '--env', 'local', '--env-file', server.envFile, '--all-pages']);
      assert.equal(r.code, 0, r.stdout + r.stderr);
      assert.match(r.stdout, new RegExp(`\\b${PAGES * 2} rows?\\b`), r.stdout + r.stderr);
    });
  }

  void it('one page (no --all-pages), page-headers detected: the line counts the rows at items=', async () => {
    const r = await runInProcess([fileFor('single', '# @paging auto items=result.data.rows', '/headers'), '--env', 'local', '--env-file', server.envFile]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /\b2 rows\b/, r.stdout + r.stderr);
  });

  void it('an auto walk (page-headers detected) stopped at page 2, then --resume: exactly the rows, from items=', async () => {
    const out = join(server.dir, 'resume.ndjson');
    const args = [fileFor('resume', '# @paging auto items=result.data.rows', '/headers'), '--env', 'local', '--env-file', server.envFile, '--all-pages', '--out', out, '--max-wait', '60'];
    refusePage2 = true;
    const failed = await runInProcess(args);
    refusePage2 = false;
    assert.equal(failed.code, 1, failed.stdout + failed.stderr);
    assert.match(failed.stdout + failed.stderr, /--resume/, failed.stdout + failed.stderr);
    const again = await runInProcess([...args, '--resume']);
    assert.equal(again.code, 0, again.stdout + again.stderr);
    assert.deepEqual(readRows(out), ALL, `${failed.stdout}${failed.stderr}\n${again.stdout}${again.stderr}`);
  });

  void it('auto with next= or cursor=: refused before anything is sent, in words naming items=', async () => {
    for (const extra of ['next=meta.next', 'cursor=after']) {
      const r = await runInProcess([fileFor(`refused-${extra.split('=')[0]}`, `# @paging auto items=result.data.rows ${extra}`, '/headers'), '--env', 'local', '--env-file', server.envFile, '--all-pages']);
      assert.notEqual(r.code, 0, r.stdout + r.stderr);
      assert.match(r.stdout + r.stderr, /auto does not take/, r.stdout + r.stderr);
    }
  });
});
