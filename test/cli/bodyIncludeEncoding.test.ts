// Adversarial review (invariant: no line of an .http file is misread without a word). REST Client reads a
// body `<@latin1 ./file` as that file in that encoding, its {{variables}} resolved ("All files are read
// with UTF-8 encoding. If a different encoding is desired, provide it": `<@latin1 ./body.json`). `apiwb
// run` takes `< ./file` and `<@ ./file` but sends `<@latin1 ./body.json` as the body's text itself, ✓ and
// exit 0, nothing said. Where: src/core/httpfile/request.ts (the body's include line).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInProcess } from './inProcess';
import { startLocalServer, type LocalServer } from './localServer';

void describe('rev: a body include with an encoding (<@latin1 ./file)', () => {
  let server: LocalServer;
  const bodies: string[] = [];
  const raw: Buffer[] = [];

  before(async () => {
    server = await startLocalServer('apiwb-rev-include-enc-', (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        raw.push(Buffer.concat(chunks));
        bodies.push(Buffer.concat(chunks).toString('latin1'));
        res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"ok":true}');
      });
    });
    writeFileSync(join(server.dir, 'body.json'), Buffer.from('{"city":"Montr\u00e9al"}', 'latin1'));
    writeFileSync(join(server.dir, 'vars.json'), Buffer.from('{"who":"{{who}}","city":"Montr\u00e9al"}', 'latin1'));
    writeFileSync(join(server.dir, 'vars.http'), '@who = Zo\u00e9\n# @name withVars\nPOST {{base}}/things\nContent-Type: application/json\n\n<@latin1 ./vars.json\n');
    writeFileSync(join(server.dir, 'unknown.http'), '# @name unknown\nPOST {{base}}/things\n\n<@klingon ./body.json\n');
    writeFileSync(join(server.dir, 'enc.http'), '# @name encoded\nPOST {{base}}/things\nContent-Type: application/json\n\n<@latin1 ./body.json\n');
  });

  after(async () => { await server.close(); });

  void it('sends the file, or says it does not', async () => {
    const result = await runInProcess([join(server.dir, 'enc.http'), '--env', 'local', '--env-file', server.envFile]);
    const said = result.stdout + result.stderr;
    const sentFile = bodies.some((b) => b.includes('Montr'));
    assert.ok(sentFile || said.includes('enc.http:5'), `the include line went as the body (${JSON.stringify(bodies)}), unsaid:\n${said}`);
  });

  void it('reads the file in latin1, substitutes its variables and sends it as UTF-8 text, as REST Client does', async () => {
    raw.length = 0;
    const result = await runInProcess([join(server.dir, 'vars.http'), '--env', 'local', '--env-file', server.envFile]);
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.equal(raw.at(-1)?.toString('utf8'), '{"who":"Zo\u00e9","city":"Montr\u00e9al"}');
  });

  void it('an encoding no decoder knows: the request is not run, with words', async () => {
    raw.length = 0;
    const result = await runInProcess([join(server.dir, 'unknown.http'), '--env', 'local', '--env-file', server.envFile]);
    assert.equal(result.code, 1);
    assert.equal(raw.length, 0);
    assert.match(result.stdout, /<@klingon \.\/body\.json: 'klingon' is not an encoding/);
  });

  void it('the file read is an input of the run: --out may not overwrite it', async () => {
    const before = readFileSync(join(server.dir, 'body.json'));
    const result = await runInProcess([join(server.dir, 'enc.http'), '--env', 'local', '--env-file', server.envFile, '--out', join(server.dir, 'body.json')]);
    assert.equal(result.code, 2, result.stdout + result.stderr);
    assert.deepEqual(readFileSync(join(server.dir, 'body.json')), before);
  });
});
