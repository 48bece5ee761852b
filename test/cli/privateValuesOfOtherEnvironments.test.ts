// Credentials kept for environment `production` (http-client.private.env.json) go only to production's
// origins. A run of `staging` holds (and guards) only staging's private values: a request of the staging
// run whose body is `< ./http-client.private.env.json` carries production's key to staging's server, and
// on aa14ca2 it is sent (exit 0). It must be refused, as a request carrying a held secret to an origin it
// is not bound to is, and the key must never be printed. The run holds every environment's private values
// (bindPrivateFile): one of an environment the private file alone names, and production's auth password,
// are refused too; another environment's value a server answers is masked in stdout and --out; staging's
// own private value still goes to staging.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { compareCommand } from '../../src/cli/compare/compareCommand';
import { startLocalServer, type LocalServer } from './localServer';
import { commandInProcess, runInProcess } from './inProcess';

const PRODUCTION_KEY = 'PRODUCTION-KEY-abcdef1234567890';
const STAGING_KEY = 'staging-key-1234567890';
const QA_KEY = 'qa-only-key-0987654321';
const PRODUCTION_PASSWORD = 'production-signin-password-55';

void describe("production's private values never reach staging's server", () => {
  let staging: LocalServer;
  const bodies: string[] = [];

  before(async () => {
    staging = await startLocalServer('apiwb-otherenv-', (req, res) => {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (chunk: string) => { body += chunk; });
      req.on('end', () => {
        bodies.push(`${req.url ?? ''} ${String(req.headers['x-key'] ?? '')} ${body}`);
        // A server that answers production's key (a misconfigured echo): it must never be printed.
        if (req.url === '/echo') res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ items: [{ id: 1, note: `leaked ${PRODUCTION_KEY}` }] }));
        else res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    writeFileSync(staging.envFile, JSON.stringify({
      staging: { base: staging.origin },
      production: { base: 'https://production.invalid', Security: { Auth: { eng: { Type: 'OAuth2', 'Grant Type': 'Password', 'Token URL': 'https://login.production.invalid/token', Username: 'ann', Password: '{{engPassword}}' } } } },
    }));
    writeFileSync(join(staging.dir, 'http-client.private.env.json'), JSON.stringify({
      staging: { apiKey: STAGING_KEY },
      production: { apiKey: PRODUCTION_KEY, engPassword: PRODUCTION_PASSWORD },
      qa: { apiKey: QA_KEY },
    }));
  });
  after(async () => { await staging.close(); });

  void it("a staging request whose body carries production's private key is not sent", async () => {
    const file = join(staging.dir, 'upload.http');
    writeFileSync(file, 'POST {{base}}/upload\nContent-Type: application/json\n\n< ./http-client.private.env.json\n');
    bodies.length = 0;
    const r = await runInProcess([file, '--env', 'staging', '--env-file', staging.envFile]);
    assert.ok(!bodies.some((b) => b.includes(PRODUCTION_KEY)), `staging's server received production's key (exit ${r.code}):\n${r.stdout}${r.stderr}`);
    assert.ok(!`${r.stdout}${r.stderr}`.includes(PRODUCTION_KEY), 'the key was printed');
    for (const other of [QA_KEY, PRODUCTION_PASSWORD]) assert.ok(!bodies.some((b) => b.includes(other)) && !`${r.stdout}${r.stderr}`.includes(other), 'another environment\'s value was sent or printed');
    assert.equal(r.code, 1, r.stderr);
    assert.match(`${r.stdout}${r.stderr}`, new RegExp(`not sent to ${staging.origin.replace(/[.]/g, '\\.')}: the body carries`));
  });

  void it("production's auth password, written in a staging header, is not sent either", async () => {
    const file = join(staging.dir, 'header.http');
    writeFileSync(file, `GET {{base}}/h\nX-Key: ${PRODUCTION_PASSWORD}\n`);
    bodies.length = 0;
    const r = await runInProcess([file, '--env', 'staging', '--env-file', staging.envFile]);
    assert.equal(bodies.length, 0, `sent: ${bodies.join('\n')}`);
    assert.equal(r.code, 1);
    assert.match(`${r.stdout}${r.stderr}`, /the password of auth 'eng' \([^)]*http-client\.private\.env\.json\), which belongs to https:\/\/login\.production\.invalid only/);
  });

  void it("another environment's value a staging server answers is masked in stdout and --out", async () => {
    const file = join(staging.dir, 'echo.http');
    const out = join(staging.dir, 'echo.ndjson');
    writeFileSync(file, 'GET {{base}}/echo\n');
    const r = await runInProcess([file, '--env', 'staging', '--env-file', staging.envFile, '--out', out]);
    assert.equal(r.code, 0, r.stderr);
    assert.ok(!`${r.stdout}${r.stderr}`.includes(PRODUCTION_KEY));
    const written = readFileSync(out, 'utf8');
    assert.ok(written.includes('leaked'), written);
    assert.ok(!written.includes(PRODUCTION_KEY), written);
  });

  void it("staging's own private value still goes to staging", async () => {
    const file = join(staging.dir, 'own.http');
    writeFileSync(file, 'GET {{base}}/own\nX-Key: {{apiKey}}\n');
    bodies.length = 0;
    const r = await runInProcess([file, '--env', 'staging', '--env-file', staging.envFile]);
    assert.equal(r.code, 0, r.stderr);
    assert.ok(bodies.some((b) => b.startsWith(`/own ${STAGING_KEY}`)), bodies.join('\n'));
  });
});

void describe("apiwb compare: each side's private values never reach the other side", () => {
  let a: LocalServer;
  let b: LocalServer;
  const seen: string[] = [];
  const A_KEY = 'side-a-private-key-1234567';
  const B_KEY = 'side-b-private-key-7654321';

  const handler = (req: IncomingMessage, res: ServerResponse): void => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => { body += chunk; });
    req.on('end', () => { seen.push(body); res.writeHead(200, { 'content-type': 'application/json' }).end('{"items":[{"id":1}]}'); });
  };

  before(async () => {
    a = await startLocalServer('apiwb-otherenv-a-', handler);
    b = await startLocalServer('apiwb-otherenv-b-', handler);
    writeFileSync(a.envFile, JSON.stringify({ alpha: { base: a.origin }, beta: { base: b.origin } }));
    writeFileSync(join(a.dir, 'http-client.private.env.json'), JSON.stringify({ alpha: { apiKey: A_KEY }, beta: { apiKey: B_KEY } }));
  });
  after(async () => { await a.close(); await b.close(); });

  void it('a body of the whole private file is refused on both sides, each naming the other\'s value', async () => {
    const file = join(a.dir, 'upload.http');
    writeFileSync(file, 'POST {{base}}/upload\nContent-Type: application/json\n\n< ./http-client.private.env.json\n');
    seen.length = 0;
    const r = await commandInProcess(compareCommand, [file, '--env', 'alpha', '--against', 'beta', '--env-file', a.envFile, '--key', 'id']);
    assert.ok(!seen.some((body) => body.includes(A_KEY) || body.includes(B_KEY)), `a side's key was sent: ${seen.join('\n')}`);
    assert.ok(!`${r.stdout}${r.stderr}`.includes(A_KEY) && !`${r.stdout}${r.stderr}`.includes(B_KEY), 'a key was printed');
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(r.stdout, /not sent to .*: the body carries the variable 'apiKey' of \S*http-client\.private\.env\.json, which belongs to/);
  });
});
