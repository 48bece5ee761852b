// Adversarial review (invariant: no block of an .http file is dropped or misread without a word). README:
// "Files written for REST Client, httpYac or the JetBrains HTTP Client open as those tools read them …
// no line is dropped without a word." In all three tools a `< ./file` line inside a multipart/form-data
// body (each part after its `--{{boundary}}` line) is that file's content. `apiwb run` sends the line
// itself — the server receives the text "< ./up.txt" as the part's content — and says nothing: ✓, exit 0.
// The body is read in src/core/httpfile/request.ts (body kinds) and src/core/run/prepareRequest.ts.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInProcess } from './inProcess';
import { startLocalServer, type LocalServer } from './localServer';

const FILE = [
  '@boundary = RevBoundary7',
  '# @name upload',
  'POST {{base}}/upload',
  'Content-Type: multipart/form-data; boundary={{boundary}}',
  '',
  '--{{boundary}}',
  'Content-Disposition: form-data; name="file"; filename="up.txt"',
  '',
  '< ./up.txt', //                                                   line 9
  '--{{boundary}}--',
  '',
].join('\n');

void describe('rev: a `< ./file` part of a multipart body', () => {
  let server: LocalServer;
  const bodies: string[] = [];

  before(async () => {
    server = await startLocalServer('apiwb-rev-multipart-', (req, res) => {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (chunk: string) => { body += chunk; });
      req.on('end', () => {
        bodies.push(body);
        res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"ok":true}');
      });
    });
    writeFileSync(join(server.dir, 'up.txt'), 'FILE-CONTENT-REV-42\n');
    writeFileSync(join(server.dir, 'upload.http'), FILE);
    writeFileSync(join(server.dir, 'image.bin'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0xff, 0xfe, 0x00, 0x80]));
    writeFileSync(join(server.dir, 'binary.http'), FILE.replace('< ./up.txt', '< ./image.bin'));
    writeFileSync(join(server.dir, 'missing.http'), FILE.replace('< ./up.txt', '< ./gone.txt'));
  });

  after(async () => { await server.close(); });

  void it('sends the file content, or says it does not', async () => {
    const result = await runInProcess([join(server.dir, 'upload.http'), '--env', 'local', '--env-file', server.envFile]);
    const said = result.stdout + result.stderr;
    const sentFile = bodies.some((b) => b.includes('FILE-CONTENT-REV-42'));
    assert.ok(sentFile || /upload\.http:9/.test(said),
      `the part went as the text of its include line (${JSON.stringify(bodies)}), unsaid:\n${said}`);
  });

  void it('the part holds the file content in place of its line, the rest of the body with CRLF line breaks', async () => {
    bodies.length = 0;
    const result = await runInProcess([join(server.dir, 'upload.http'), '--env', 'local', '--env-file', server.envFile]);
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.equal(bodies.at(-1), '--RevBoundary7\r\nContent-Disposition: form-data; name="file"; filename="up.txt"\r\n\r\nFILE-CONTENT-REV-42\n\r\n--RevBoundary7--');
  });

  void it('a part that is not text, or a file missing, is refused naming it; nothing is sent', async () => {
    bodies.length = 0;
    const binary = await runInProcess([join(server.dir, 'binary.http'), '--env', 'local', '--env-file', server.envFile]);
    assert.equal(binary.code, 1);
    assert.match(binary.stdout, /< \.\/image\.bin: not text in UTF-8/);
    const missing = await runInProcess([join(server.dir, 'missing.http'), '--env', 'local', '--env-file', server.envFile]);
    assert.equal(missing.code, 1);
    assert.match(missing.stdout, /< \.\/gone\.txt: no such file/);
    assert.deepEqual(bodies, []);
  });

  void it('the file of a part is an input of the run: --out may not overwrite it', async () => {
    const result = await runInProcess([join(server.dir, 'upload.http'), '--env', 'local', '--env-file', server.envFile, '--out', join(server.dir, 'up.txt')]);
    assert.equal(result.code, 2, result.stdout + result.stderr);
    assert.equal(readFileSync(join(server.dir, 'up.txt'), 'utf8'), 'FILE-CONTENT-REV-42\n');
  });
});
