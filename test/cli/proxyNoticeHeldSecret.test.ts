// Adversarial review (invariant: no secret reaches an origin it is not bound to — proxies). README, Behind
// a company proxy: "plain http is handed to it whole, and the first such request carrying a credential is
// pointed out." Whether a request carries a credential is decided by names only
// (src/core/http/network.ts, credentialCarried: user info, CREDENTIAL_HEADER_NAMES, secret-named body
// fields), not by the secrets held (the send boundary's rule, src/core/secrets/bindings.ts): a token of
// the run under an unlisted header (`X-Forward`), a body field `t` or a query parameter `sig` goes whole to
// the proxy and nothing is said — the previous release's "token under an unlisted header name", here.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { join } from 'node:path';
import { runInProcess } from './inProcess';
import { json, listenBase, recorder, startLocalServer, type LocalServer, type Seen } from './localServer';

function jwt(): string {
  const part = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${part({ alg: 'none', typ: 'JWT' })}.${part({ sub: 'rev', exp: Math.floor(Date.now() / 1000) + 3600 })}.sig-proxy-rev`;
}

const TOKEN = jwt();
const CASES: ReadonlyArray<readonly [string, string]> = [
  ['header', '# @name header\nGET {{base}}/items\nX-Forward: {{$auth.token("user")}}\n'],
  ['body', '# @name body\nPOST {{base}}/items\nContent-Type: application/json\n\n{"t": "{{$auth.token("user")}}"}\n'],
  ['query', '# @name query\nGET {{base}}/items?sig={{$auth.token("user")}}\n'],
];

void describe('rev: a held token in a plain-http request through a proxy is pointed out', () => {
  let server: LocalServer;
  let proxy: Server;
  let proxyBase = '';
  const proxySeen: Seen[] = [];

  before(async () => {
    server = await startLocalServer('apiwb-rev-proxy-', (_req, res) => json(res, { items: [{ id: 1 }] }));
    writeFileSync(server.envFile, JSON.stringify({ local: { base: server.origin, ApiWorkbench: { Auth: { user: { Type: 'JWT Bearer' } } } } }));
    // A plain-http forward proxy that answers itself (it records what it was handed).
    proxy = recorder(proxySeen, (_req, res) => json(res, { items: [{ id: 1 }] }));
    proxyBase = await listenBase(proxy);
    for (const [name, text] of CASES) writeFileSync(join(server.dir, `${name}.http`), text);
  });

  after(async () => {
    proxy.closeAllConnections();
    await new Promise<void>((resolve) => proxy.close(() => resolve()));
    await server.close();
  });

  for (const [name] of CASES) {
    void it(`${name}: the proxy received the token, and the run says so`, async () => {
      proxySeen.length = 0;
      const result = await runInProcess([join(server.dir, `${name}.http`), '--env', 'local', '--env-file', server.envFile, '--proxy', proxyBase], { APIWB_SECRET_USER_TOKEN: TOKEN });
      assert.ok(JSON.stringify(proxySeen).includes(TOKEN), `precondition: the proxy was handed the request (${JSON.stringify(proxySeen)})\n${result.stdout}${result.stderr}`);
      assert.match(result.stderr, /the proxy sees the whole request/, `nothing pointed out:\n${result.stdout}${result.stderr}`);
    });
  }
});
