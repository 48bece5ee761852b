// Adversarial review (invariant: --out never overwrites anything the command did not create).
// src/core/files/outputs.ts: "every file it writes (--out, …) passes `claim` first: … a target that is a
// symbolic link (named with where it points) … is refused". `apiwb import-openapi URL --out FILE`
// writes with writeFile (src/cli/importCommand.ts) without a claim: a link at FILE is followed and the
// file it points at — here an env file — is replaced by the overlay, exit 0.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runImportOpenApi } from '../../src/cli/importCommand';
import { startLocalServer, type LocalServer } from './localServer';

const DOCUMENT = {
  openapi: '3.0.0',
  info: { title: 'rev', version: '1' },
  paths: { '/v1/things': { get: { operationId: 'listThings', responses: { 200: { description: 'ok' } } } } },
};

void describe('import-openapi --out never writes through a link', () => {
  let server: LocalServer;

  before(async () => {
    server = await startLocalServer('apiwb-rev-import-', (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(DOCUMENT));
    });
  });

  after(async () => { await server.close(); });

  void it('refuses a link at --out and leaves the file it points at as it was', async () => {
    const target = join(server.dir, 'team.env.json');
    const before = '{ "dev": { "base": "http://127.0.0.1:9" } }\n';
    writeFileSync(target, before);
    const link = join(server.dir, 'overlay.json');
    symlinkSync('team.env.json', link);
    let said = '';
    const io = { stdout: (t: string) => { said += t; }, stderr: (t: string) => { said += t; } };
    const code = await runImportOpenApi([`${server.origin}/openapi.json`, '--out', link], io);
    assert.equal(readFileSync(target, 'utf8'), before, `the file behind the link was replaced (exit ${code}): ${said}`);
    assert.notEqual(code, 0, said);
  });
});
