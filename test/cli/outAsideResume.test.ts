// Attack (review of the --out aside with --resume): a walk of --all-pages refused at its first page keeps
// no row, so the --out file that was there is put back; the resume it offers then must end with exactly
// the walk's rows (nothing of the old file, no row twice). A server of the test's own, 127.0.0.1 port 0.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runInProcess } from './inProcess';
import { startLocalServer, type LocalServer } from './localServer';

const PAGES = 3;
const OLD = '{"old":"keep me"}\n';

void describe('--out aside and --resume', () => {
  let local: LocalServer;
  let refuseFirst = true;
  const page = (res: ServerResponse, n: number): void => {
    res.writeHead(200, { 'content-type': 'application/json', 'x-pagination-page': String(n), 'x-pagination-total-pages': String(PAGES), 'x-pagination-total-results': String(PAGES * 2) });
    res.end(JSON.stringify([{ id: n * 2 - 1 }, { id: n * 2 }]));
  };
  before(async () => {
    local = await startLocalServer('apiwb-out-aside-resume-', (req, res) => {
      const n = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('page') ?? 1);
      if (refuseFirst) {
        res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '3600' });
        res.end('{"message":"slow down"}');
        return;
      }
      page(res, n);
    });
    writeFileSync(join(local.dir, 'pages.http'), '# @name pages\n# @paging page-headers\nGET {{base}}/pages\n');
  });
  after(() => local.close());

  void it('refused at page 1: the old file is back; a resume (if offered) or a new run then writes exactly the rows', async () => {
    const out = join(local.dir, 'pages.ndjson');
    writeFileSync(out, OLD);
    const args = [join(local.dir, 'pages.http'), '--env', 'local', '--env-file', local.envFile, '--all-pages', '--out', out, '--max-wait', '60'];
    const failed = await runInProcess(args);
    assert.equal(failed.code, 1, failed.stdout + failed.stderr);
    assert.equal(readFileSync(out, 'utf8'), OLD, failed.stdout + failed.stderr);
    assert.deepEqual(readdirSync(local.dir).filter((n) => n.includes('apiwb-before')), []);
    refuseFirst = false;
    const offered = /--resume/.test(failed.stdout);
    const again = await runInProcess(offered ? [...args, '--resume'] : args);
    assert.equal(again.code, 0, `resume offered: ${offered}\n${failed.stdout}\n${again.stdout}${again.stderr}`);
    const rows = readFileSync(out, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as unknown);
    assert.deepEqual(rows, Array.from({ length: PAGES * 2 }, (_, i) => ({ id: i + 1 })), `resume offered: ${offered}\n${failed.stdout}\n${again.stdout}`);
  });
});
