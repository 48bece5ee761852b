// `apiwb run` sends its requests one after the other however it overlaps their examination (sendOrder):
// a server on 127.0.0.1 trickles every body and logs when each request arrives and when its response is
// ended. No request may arrive before the response before it was ended, the lines keep the file's order,
// a response read by name is there for the request that reads it, and a failed request in the middle
// changes none of that; nor does a compressed body whose coded data ends before the body does.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runInProcess } from './inProcess';
import { startLocalServer, type LocalServer } from './localServer';

let local: LocalServer | undefined;
let dir = '';
let envFile = '';
const log: string[] = [];
/** When /slow and /wait ended their responses, and the X-At header /at was sent with (epoch ms). */
const times = { slowEnded: 0, waitEnded: 0, at: '' };
const DELAYED: Readonly<Record<string, { readonly ms: number; readonly ended: 'slowEnded' | 'waitEnded' }>> = {
  '/slow': { ms: 250, ended: 'slowEnded' },
  '/wait': { ms: 40, ended: 'waitEnded' },
};

void describe('apiwb run: one request at a time, whatever overlaps', () => {
  before(async () => {
    local = await startLocalServer('apiwb-request-order-', (req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      log.push(`arrive ${url.pathname}${url.search}`);
      if (url.pathname === '/dropped') {
        res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': '100' });
        res.write('{"items": [');
        setTimeout(() => {
          log.push(`end ${url.pathname}${url.search}`);
          res.destroy();
        }, 10);
        return;
      }
      // Answered after a while, when noted: /slow past READY_AHEAD_FOR_MS (100 ms), /wait within it.
      const delayed = DELAYED[url.pathname];
      if (delayed) {
        setTimeout(() => {
          times[delayed.ended] = Date.now();
          res.writeHead(200, { 'Content-Type': 'application/json' });
          res.end('{"ok":true}');
        }, delayed.ms);
        return;
      }
      if (url.pathname === '/at') {
        times.at = String(req.headers['x-at'] ?? '');
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end('{"ok":true}');
        return;
      }
      if (url.pathname === '/token') {
        // A password-grant sign-in that takes a while: the request that needs it goes after its answer.
        req.resume();
        req.on('end', () => setTimeout(() => {
          log.push(`end ${url.pathname}`);
          res.writeHead(200, { 'Content-Type': 'application/json' });
          res.end(JSON.stringify({ access_token: 'tok-123456789', token_type: 'bearer', expires_in: 3600 }));
        }, 30));
        return;
      }
      if (url.pathname === '/echo') {
        let text = '';
        req.setEncoding('utf8');
        req.on('data', (chunk: string) => { text += chunk; });
        req.on('end', () => {
          log.push(`body ${text.trim()}`);
          res.writeHead(200, { 'Content-Type': 'application/json' });
          res.end('{"ok":true}');
        });
        return;
      }
      if (url.pathname === '/deflate') {
        // Compressed data that ends before the body does: the body is whole only at its last byte.
        const coded = deflateSync(JSON.stringify({ items: [{ id: 1 }] }));
        const tail = Buffer.alloc(50, 0x20);
        res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Encoding': 'deflate', 'Content-Length': String(coded.length + tail.length) });
        res.write(Buffer.concat([coded, tail.subarray(0, 10)]));
        setTimeout(() => {
          log.push(`end ${url.pathname}${url.search}`);
          res.end(tail.subarray(10));
        }, 30);
        return;
      }
      const status = url.pathname === '/failing' ? 500 : 200;
      const rows = Array.from({ length: 20 }, (_, i) => ({ id: i, note: 'x'.repeat(40) }));
      // /paged: a page of rows read as it arrives (the paging plan says where they are).
      const paged = url.pathname === '/paged';
      const body = JSON.stringify(paged ? rows : { seq: url.pathname.slice(1), items: rows });
      res.writeHead(status, {
        'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(body)),
        ...(paged ? { 'X-Pagination-Page': '1', 'X-Pagination-Total-Pages': '1', 'X-Pagination-Total-Results': '20' } : {}),
      });
      res.write(body.slice(0, 100));
      // The rest a little later: a client that sent its next request before this one's end would show in the log.
      setTimeout(() => {
        log.push(`end ${url.pathname}${url.search}`);
        res.end(body.slice(100));
      }, 10);
    });
    ({ dir, envFile } = local);
  });
  after(() => local?.close());

  void it('each request arrives after the response before it ended, lines in the file\'s order, a named response read by the next', async () => {
    log.length = 0;
    const names = ['a', 'p', 'b', 'c', 'd', 'e', 'f'];
    const file = join(dir, 'order.http');
    writeFileSync(file, [
      '### a\n# @name a\nGET {{base}}/a\n',
      '### p\n# @name p\n# @paging page-headers\nGET {{base}}/paged\n',
      '### b\n# @name b\nGET {{base}}/b\n',
      // c reads b's response by name: b is not overlapped with c.
      '### c\n# @name c\nGET {{base}}/c?after={{b.response.body.$.seq}}\n',
      // d fails with a 500, e loses its connection mid-body: the run goes on, in order.
      '### d\n# @name d\nGET {{base}}/failing\n',
      '### e\n# @name e\nGET {{base}}/dropped\n',
      '### f\n# @name f\nGET {{base}}/f\n',
    ].join('\n'));
    const result = await runInProcess([file, '--env', 'local', '--env-file', envFile]);
    assert.equal(result.code, 1, result.stdout + result.stderr);
    const paths = ['/a', '/paged', '/b', '/c?after=b', '/failing', '/dropped', '/f'];
    assert.deepEqual(log, paths.flatMap((p) => [`arrive ${p}`, `end ${p}`]), 'one request in flight at a time, in the file\'s order');
    const lines = result.stdout.trim().split('\n');
    assert.deepEqual(lines.slice(0, 7).map((l) => l.split(/\s+/)[1]), names, result.stdout);
    assert.match(lines[0]!, /^✓ a .* 200 .*20 rows$/);
    assert.match(lines[1]!, /^✓ p .* 200 .*20 rows$/);
    assert.match(lines[4]!, /^✗ d .* 500/);
    assert.match(lines[5]!, /^✗ e /);
    assert.match(lines[6]!, /^✓ f .* 200 .*20 rows$/);
  });

  void it('a response read by name from a <@ body file: kept for the request that includes the file', async () => {
    log.length = 0;
    // References as the send fills them: across lines, inside extra braces, after a lone {{.
    writeFileSync(join(dir, 'after.json'), '{"x": "{{", "after": "{{\n a.response.body.$.seq\n}}", "y": "{{{a.response.body.$.seq}}}"}\n');
    const file = join(dir, 'included.http');
    writeFileSync(file, ['### a\n# @name a\nGET {{base}}/a\n', '### b\n# @name b\nPOST {{base}}/echo\nContent-Type: application/json\n\n<@ ./after.json\n'].join('\n'));
    const result = await runInProcess([file, '--env', 'local', '--env-file', envFile]);
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.deepEqual(log, ['arrive /a', 'end /a', 'arrive /echo', 'body {"x": "{{", "after": "a", "y": "{a}"}']);
  });

  void it('a sign-in made while the response before is in: sent after that response, the request after the sign-in, one at a time', async () => {
    log.length = 0;
    const base = (JSON.parse(readFileSync(envFile, 'utf8')) as { local: { base: string } }).local.base;
    const authEnv = join(dir, 'auth.env.json');
    writeFileSync(authEnv, JSON.stringify({ local: { base, Security: { Auth: { eng: { Type: 'OAuth2', 'Grant Type': 'Password', 'Token URL': `${base}/token`, Username: 'u' } } } } }));
    const file = join(dir, 'signin.http');
    writeFileSync(file, ['### a\n# @name a\nGET {{base}}/a\n', '### b\n# @name b\nGET {{base}}/b\nAuthorization: Bearer {{$auth.token("eng")}}\n', '### f\n# @name f\nGET {{base}}/f\n'].join('\n'));
    const result = await runInProcess([file, '--env', 'local', '--env-file', authEnv], { APIWB_SECRET_ENG_PASSWORD: 'pw-secret-1' });
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.deepEqual(log, ['arrive /a', 'end /a', 'arrive /token', 'end /token', 'arrive /b', 'end /b', 'arrive /f', 'end /f']);
    assert.deepEqual(result.stdout.trim().split('\n').slice(0, 3).map((l) => l.split(/\s+/)[1]), ['a', 'b', 'f']);
    assert.ok(!result.stdout.includes('tok-123456789') && !result.stdout.includes('pw-secret-1'));
  });

  /** Runs `path` then /at, whose X-At is {{$isoTimestamp}}: when `path` ended its answer, and X-At's time. */
  async function stampAfter(path: '/wait' | '/slow'): Promise<{ ended: number; at: number }> {
    times.at = '';
    const file = join(dir, `stamp${path.replace('/', '-')}.http`);
    writeFileSync(file, [`### w\n# @name w\nGET {{base}}${path}\n`, '### t\n# @name t\nGET {{base}}/at\nX-At: {{$isoTimestamp}}\n'].join('\n'));
    const result = await runInProcess([file, '--env', 'local', '--env-file', envFile]);
    assert.equal(result.code, 0, result.stdout + result.stderr);
    const ended = times[DELAYED[path]!.ended];
    assert.ok(ended > 0 && times.at !== '', result.stdout);
    return { ended, at: Date.parse(times.at) };
  }

  void it('the next request is made ready while a response is awaited: its {{$isoTimestamp}} is of before that response ended', async () => {
    const { ended, at } = await stampAfter('/wait');
    assert.ok(at < ended, `X-At ${new Date(at).toISOString()} was resolved before /wait ended (${new Date(ended).toISOString()})`);
  });

  void it('a request made ready while a slow response was awaited is made ready again: its {{$isoTimestamp}} is of when it goes', async () => {
    const { ended, at } = await stampAfter('/slow');
    assert.ok(at >= ended, `X-At ${new Date(at).toISOString()} is not before /slow ended (${new Date(ended).toISOString()})`);
  });

  void it('a compressed body whose coded data ends before its last byte: the next request waits for that byte', async () => {
    log.length = 0;
    const file = join(dir, 'deflate.http');
    writeFileSync(file, ['### z\n# @name z\nGET {{base}}/deflate\n', '### f\n# @name f\nGET {{base}}/f\n'].join('\n'));
    const result = await runInProcess([file, '--env', 'local', '--env-file', envFile]);
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.deepEqual(log, ['arrive /deflate', 'end /deflate', 'arrive /f', 'end /f']);
    assert.match(result.stdout, /^✓ z .* 200 .*1 row/m);
  });
});
