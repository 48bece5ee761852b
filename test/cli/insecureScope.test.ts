// `--insecure` is scoped to the requests' servers (issue 29 item 7): the token endpoint, where the
// password goes, keeps verifying TLS unless `--insecure-token-endpoint` says otherwise. One HTTPS server
// on 127.0.0.1 (port 0) with a self-signed certificate serves the token endpoint and the rows: with
// --insecure alone the sign-in is refused for its certificate and the password never reaches the server;
// with both options the run signs in and succeeds.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createTlsServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runInProcess } from './inProcess';

const PASSWORD = 'pw-insecure-scope-73';

void describe('--insecure does not cover the token endpoint', () => {
  let dir = '';
  let server: Server;
  const bodies: string[] = [];
  let envFile = '';
  let file = '';

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'apiwb-insecure-'));
    try {
      execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-subj', '/CN=127.0.0.1', '-days', '1',
        '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')], { stdio: 'ignore' });
    } catch (error) {
      // npm test installs openssl first (scripts/ensure-debian-packages.sh): without it this test cannot run, so it fails.
      throw new Error(`openssl could not make a self-signed certificate: ${(error as Error).message}`);
    }
    server = createTlsServer({ key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) }, (req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => { body += c.toString('utf8'); });
      req.on('end', () => {
        bodies.push(`${req.url ?? ''} ${body}`);
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(req.url === '/token' ? JSON.stringify({ access_token: 'tok-insecure-scope-123456', expires_in: 3600 }) : '[{"id":1}]');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
    envFile = join(dir, 'http-client.env.json');
    writeFileSync(envFile, JSON.stringify({ local: { base, Security: { Auth: { svc: { Type: 'OAuth2', 'Grant Type': 'Password', 'Token URL': '{{base}}/token', Username: 'u' } } } } }));
    file = join(dir, 'rows.http');
    writeFileSync(file, '# @name rows\nGET {{base}}/rows\nAuthorization: Bearer {{$auth.token("svc")}}\n');
  });
  after(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    rmSync(dir, { recursive: true, force: true });
  });

  void it('--insecure alone: the sign-in fails on the certificate, exit 1, no password sent', async () => {
    bodies.length = 0;
    const r = await runInProcess([file, '--env', 'local', '--env-file', envFile, '--insecure'], { APIWB_SECRET_SVC_PASSWORD: PASSWORD });
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(r.stdout, /certificate could not be verified|not trusted here/);
    assert.ok(!bodies.some((b) => b.includes(PASSWORD)), 'the password never reached the server');
    assert.ok(!bodies.some((b) => b.startsWith('/rows')), 'nothing was sent without a token');
  });

  void it('--insecure --insecure-token-endpoint: signs in and sends, exit 0', async () => {
    bodies.length = 0;
    const r = await runInProcess([file, '--env', 'local', '--env-file', envFile, '--insecure', '--insecure-token-endpoint'], { APIWB_SECRET_SVC_PASSWORD: PASSWORD });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.deepEqual(bodies.map((b) => b.split(' ')[0]), ['/token', '/rows']);
  });
});
