// `apiwb run --out` with a dotted items= under the configurable style, what it prints
// against what a buffered read of the same body says (the oracle: the same run without streaming, the
// body read whole). Loopback server on 127.0.0.1 port 0.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runInProcess } from '../cli/inProcess';
import { startLocalServer, type LocalServer } from '../cli/localServer';

const rows = (n: number, p: number): Record<string, unknown>[] => Array.from({ length: n }, (_, i) => ({ id: i, page: p, pad: 'q'.repeat(120) }));

void describe('apiwb run --out, dotted items= under the configurable style', () => {
  let server: LocalServer;
  before(async () => {
    server = await startLocalServer('apiwb-pathitems-cli-', (req, res) => {
      req.resume();
      const url = new URL(req.url ?? '/', 'http://x');
      const p = Number(url.searchParams.get('p') ?? '1');
      const next = p < 2 ? `,"next_link":"${url.pathname}?p=${p + 1}"` : '';
      const list = JSON.stringify(rows(5000, p));
      let body = '';
      // A business failure listed under Message beside the rows (Success+Error convention).
      if (url.pathname === '/message') body = `{"Success":false,"Message":["The brand is not allowed"],"data":{"rows":${list}}${next}}`;
      // The whole path as one top-level key holds the rows; the path's outer object is given twice after an array at the path.
      if (url.pathname === '/whole') body = `{"data.rows":${list},"data":{"rows":[]},"data":{"x":1}${next}}`;
      res.writeHead(200, { 'content-type': 'application/json' }).end(body);
    });
  });
  after(() => server.close());

  async function run(path: string, directive: string, extra: string[]): Promise<{ code: number; out: string; lines: number }> {
    const file = join(server.dir, 'r.http');
    const out = join(server.dir, 'r.ndjson');
    writeFileSync(file, `# @name r\n${directive}\nGET {{base}}${path}\n`);
    rmSync(out, { force: true });
    const r = await runInProcess([file, '--env', 'local', '--env-file', server.envFile, ...extra.map((x) => (x === 'OUT' ? out : x))]);
    const lines = (existsSync(out) ? readFileSync(out, 'utf8') : '').split('\n').filter((l) => l !== '').length;
    return { code: r.code, out: r.stdout + r.stderr, lines };
  }

  void it('a business failure listed under Message is said in the server\'s words, with --out as without', async () => {
    const plain = await run('/message?p=2', '# @paging generic items=data.rows', []);
    const file = await run('/message?p=2', '# @paging generic items=data.rows', ['--out', 'OUT']);
    assert.match(plain.out, /The brand is not allowed/, `without --out: ${plain.out}`);
    assert.match(file.out, /The brand is not allowed/, `with --out: ${file.out}`);
  });

  void it('rows under the whole path as one key: --out --all-pages writes and counts them as the run without --out', async () => {
    const plain = await run('/whole?p=1', '# @paging generic items=data.rows', ['--all-pages']);
    const file = await run('/whole?p=1', '# @paging generic items=data.rows', ['--all-pages', '--out', 'OUT']);
    // JSON.parse of each page takes "data.rows" (the rule reads the whole path as one key first): 5000 rows a page.
    assert.equal(plain.code, 0, plain.out);
    assert.equal(file.code, 0, file.out);
    assert.equal(file.lines, 10000, file.out);
  });
});
