// No secret reaches an origin it is not bound to. The proxy password (APIWB_SECRET_PROXY_PASSWORD; in
// the editor the one "proxy.password" of SecretStorage, kept for no workspace) is given for the user's
// own proxy (HTTP_PROXY=http://alice@corporate-proxy). An env file's environment may name a proxy of its
// own ("ApiWorkbench": { "Proxy": ... }), and it comes first: on aa14ca2 the password is sent, as
// Proxy-Authorization, to whatever proxy a repository's env file names with a user in it. The password
// must go only to the proxy it was given for; an env file's other proxy gets none (or the run refuses).
// The run says so in words; an env file naming the user's own proxy still gets the password; with no
// proxy of the user's own at all, the password goes to no proxy.
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
  const basic = `Basic ${Buffer.from(`alice:${PASSWORD}`).toString('base64')}`;
  /** A Proxy-Authorization seen (or '(none)') that does not hold the password. */
  const withoutPassword = (seen: string): boolean => !Buffer.from(seen.replace(/^Basic /, ''), 'base64').toString('utf8').includes(PASSWORD) && !seen.includes(PASSWORD);

  async function proxy(log: string[]): Promise<string> {
    const server = createServer((req, res) => {
      log.push(String(req.headers['proxy-authorization'] ?? '(none)'));
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
    proxies.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  /** An env file whose environment `local` names `proxyUrl` as its own proxy. */
  function envFileNaming(proxyUrl: string): void {
    writeFileSync(target.envFile, JSON.stringify({ local: { base: 'http://api.example.test', ApiWorkbench: { Proxy: proxyUrl } } }));
  }

  before(async () => {
    target = await startLocalServer('apiwb-proxypw-', (_req, res) => { res.writeHead(200, { 'content-type': 'application/json' }).end('{}'); });
    rogue = await proxy(rogueSaw);
    corporate = await proxy(corporateSaw);
    writeFileSync(join(target.dir, 'a.http'), 'GET {{base}}/items\n');
  });
  after(async () => {
    for (const server of proxies) await new Promise<void>((resolve) => server.close(() => resolve()));
    await target.close();
  });

  void it("the env file's proxy never receives the password given for HTTP_PROXY", async () => {
    envFileNaming(`http://alice@${rogue}`);
    rogueSaw.length = 0;
    const r = await runInProcess([join(target.dir, 'a.http'), '--env', 'local', '--env-file', target.envFile],
      { HTTP_PROXY: `http://alice@${corporate}`, APIWB_SECRET_PROXY_PASSWORD: PASSWORD });
    assert.ok(!rogueSaw.includes(basic),
      `the env file's proxy ${rogue} received the proxy password (exit ${r.code}): ${JSON.stringify(rogueSaw)}\n${r.stdout}${r.stderr}`);
    assert.deepEqual(rogueSaw.map(withoutPassword), [true], 'the request went through the env file\'s proxy, without the password');
    assert.ok(r.stderr.includes(`The proxy http://${rogue} (env file, environment 'local') gets no proxy password: the stored one was given for http://${corporate} only`), r.stderr);
    assert.ok(!`${r.stdout}${r.stderr}`.includes(PASSWORD));
  });

  void it('with no proxy of the user\'s own, the password goes to no proxy', async () => {
    envFileNaming(`http://alice@${rogue}`);
    rogueSaw.length = 0;
    const r = await runInProcess([join(target.dir, 'a.http'), '--env', 'local', '--env-file', target.envFile], { APIWB_SECRET_PROXY_PASSWORD: PASSWORD });
    assert.deepEqual(rogueSaw.map(withoutPassword), [true], r.stderr);
    assert.match(r.stderr, /gets no proxy password: the stored one was given for no proxy only/);
  });

  void it("an env file naming the user's own proxy (same origin) still gets the password", async () => {
    envFileNaming(`http://alice@${corporate}`);
    corporateSaw.length = 0;
    const r = await runInProcess([join(target.dir, 'a.http'), '--env', 'local', '--env-file', target.envFile],
      { HTTP_PROXY: `http://alice@${corporate}`, APIWB_SECRET_PROXY_PASSWORD: PASSWORD });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(corporateSaw, [basic]);
    assert.doesNotMatch(r.stderr, /gets no proxy password/);
  });
});
