// Credentials kept for environment `production` (http-client.private.env.json) go only to production's
// origins. A run of `staging` holds (and guards) only staging's private values: a request of the staging
// run whose body is `< ./http-client.private.env.json` carries production's key to staging's server, and
// on aa14ca2 it is sent (exit 0). It must be refused, as a request carrying a held secret to an origin it
// is not bound to is, and the key must never be printed.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startLocalServer, type LocalServer } from './localServer';
import { runInProcess } from './inProcess';

const PRODUCTION_KEY = 'PRODUCTION-KEY-abcdef1234567890';

void describe("production's private values never reach staging's server", () => {
  let staging: LocalServer;
  const bodies: string[] = [];

  before(async () => {
    staging = await startLocalServer('apiwb-revD-otherenv-', (req, res) => {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (chunk: string) => { body += chunk; });
      req.on('end', () => {
        bodies.push(body);
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    writeFileSync(staging.envFile, JSON.stringify({ staging: { base: staging.origin }, production: { base: 'https://production.invalid' } }));
    writeFileSync(join(staging.dir, 'http-client.private.env.json'), JSON.stringify({ staging: { apiKey: 'staging-key-1234567890' }, production: { apiKey: PRODUCTION_KEY } }));
  });
  after(async () => { await staging.close(); });

  void it("a staging request whose body carries production's private key is not sent", async () => {
    const file = join(staging.dir, 'upload.http');
    writeFileSync(file, 'POST {{base}}/upload\nContent-Type: application/json\n\n< ./http-client.private.env.json\n');
    bodies.length = 0;
    const r = await runInProcess([file, '--env', 'staging', '--env-file', staging.envFile]);
    assert.ok(!bodies.some((b) => b.includes(PRODUCTION_KEY)), `staging's server received production's key (exit ${r.code}):\n${r.stdout}${r.stderr}`);
    assert.ok(!`${r.stdout}${r.stderr}`.includes(PRODUCTION_KEY), 'the key was printed');
  });
});
