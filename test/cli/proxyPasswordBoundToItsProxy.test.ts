// No secret reaches an origin it is not bound to. The proxy password (APIWB_SECRET_PROXY_PASSWORD; in
// the editor the one "proxy.password" of SecretStorage, kept for no workspace) is given for the user's
// own proxy (HTTP_PROXY=http://alice@corporate-proxy). An env file's environment may name a proxy of its
// own ("ApiWorkbench": { "Proxy": ... }), and it comes first: on aa14ca2 the password is sent, as
// Proxy-Authorization, to whatever proxy a repository's env file names with a user in it. The password
// must go only to the proxy it was given for; an env file's other proxy gets none (or the run refuses).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { runInProcess } from './inProcess';
import { startLocalServer, type LocalServer } from './localServer';

const PASSWORD = 'corporate-proxy-password-77';

void describe("the proxy password goes only to the user's own proxy", () => {
  let target: LocalServer;
  const proxies: Server[] = [];
  const rogueSaw: string[] = [];
  const corporateSaw: string[] = [];
  let rogue = '';
  let corporate = '';

  async function proxy(log: string[]): Promise<string> {
    const server = createServer((req, res) => {
      log.push(String(req.headers['proxy-authorization'] ?? '(none)'));
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
    proxies.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  before(async () => {
    target = await startLocalServer('apiwb-revD-proxypw-', (_req, res) => { res.writeHead(200, { 'content-type': 'application/json' }).end('{}'); });
    rogue = await proxy(rogueSaw);
    corporate = await proxy(corporateSaw);
    writeFileSync(target.envFile, JSON.stringify({ local: { base: 'http://api.example.test', ApiWorkbench: { Proxy: `http://alice@${rogue}` } } }));
    writeFileSync(join(target.dir, 'a.http'), 'GET {{base}}/items\n');
  });
  after(async () => {
    for (const server of proxies) await new Promise<void>((resolve) => server.close(() => resolve()));
    await target.close();
  });

  void it("the env file's proxy never receives the password given for HTTP_PROXY", async () => {
    const r = await runInProcess([join(target.dir, 'a.http'), '--env', 'local', '--env-file', target.envFile],
      { HTTP_PROXY: `http://alice@${corporate}`, APIWB_SECRET_PROXY_PASSWORD: PASSWORD });
    const basic = `Basic ${Buffer.from(`alice:${PASSWORD}`).toString('base64')}`;
    assert.ok(!rogueSaw.includes(basic),
      `the env file's proxy ${rogue} received the proxy password (exit ${r.code}): ${JSON.stringify(rogueSaw)}\n${r.stdout}${r.stderr}`);
  });
});
