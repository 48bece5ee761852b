// What `apiwb run` prints of a request's name (a hostile .http file's text) cannot drive the terminal:
// the line a --resume prints for a request it skips escapes ESC like every other line of the summary.
// A server on 127.0.0.1 (port 0) and the real runCommand in process.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runInProcess as apiwb } from './inProcess';

const ROWS = Array.from({ length: 7 }, (_, i) => ({ id: i + 1 }));
const HOSTILE_NAME = 'whole\u001b[2J\u001b]0;owned\u0007';
let server: Server;
let dir = '';
let brokenOnce = true;

function page(res: ServerResponse, url: URL): void {
  const n = Number(url.searchParams.get('page') ?? 1);
  res.writeHead(200, { 'Content-Type': 'application/json', 'X-Pagination-Page': String(n), 'X-Pagination-Total-Pages': '3' });
  res.end(JSON.stringify(ROWS.slice((n - 1) * 3, n * 3)));
}

void describe('apiwb run: request names on the terminal', () => {
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'apiwb-labels-'));
    server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      if (url.pathname === '/broken' && url.searchParams.get('page') === '2' && brokenOnce) {
        brokenOnce = false;
        res.writeHead(500, { 'Content-Type': 'application/json' });
        res.end('{"Message":"try again later"}');
        return;
      }
      page(res, url);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  after(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    rmSync(dir, { recursive: true, force: true });
  });

  void it('the line of a request --resume skips shows its name with control characters escaped', async () => {
    const envFile = join(dir, 'http-client.env.json');
    writeFileSync(envFile, JSON.stringify({ local: { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` } }));
    const file = join(dir, 'hostile-name.http');
    writeFileSync(file, ['### a', `# @name ${HOSTILE_NAME}`, '# @paging page-headers', 'GET {{base}}/pages', '',
      '### b', '# @name cut', '# @paging page-headers', 'GET {{base}}/broken', ''].join('\n'));
    const args = [file, '--env', 'local', '--env-file', envFile, '--all-pages', '--out', join(dir, 'rows.ndjson')];
    const failed = await apiwb(args);
    assert.equal(failed.code, 1, failed.stdout + failed.stderr);
    const resumed = await apiwb([...args, '--resume']);
    assert.equal(resumed.code, 0, resumed.stdout + resumed.stderr);
    const skipped = resumed.stdout.split('\n').find((line) => line.includes('skipped'));
    assert.ok(skipped, resumed.stdout);
    assert.match(skipped, /whole\\x1b\[2J\\x1b\]0;owned\\x07/);
    assert.doesNotMatch(resumed.stdout + resumed.stderr, /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/, JSON.stringify(resumed.stdout));
  });
});
