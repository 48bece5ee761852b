// Found in review of 3f7b70f (proxy notice: a secret counts by its value, whatever its name). The
// invariant (README, Behind a company proxy): the first plain-http request handed to a proxy that carries
// a credential is pointed out. credentialCarried (src/core/http/network.ts) asks names for the user info,
// the headers (isCredentialHeader) and the body fields (isSecretName), and values for the secrets the run
// holds, but never asks a query parameter's NAME: a key written in the .http file as `?access_token=…` or
// `?api_key=…` (not a secret the run holds) goes whole to the proxy and nothing is said, while the same
// literal in an `Authorization` header or a body field `access_token` is pointed out (control).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { join } from 'node:path';
import { runInProcess } from './inProcess';
import { json, listenBase, recorder, startLocalServer, type LocalServer, type Seen } from './localServer';

const KEY = 'k3y-0f-th3-s3rv1c3-9f8e7d';
const CASES: ReadonlyArray<readonly [string, string]> = [
  ['query access_token', `# @name query\nGET {{base}}/items?access_token=${KEY}\n`],
  ['query api_key', `# @name apiKey\nGET {{base}}/items?api_key=${KEY}\n`],
  ['header (control)', `# @name header\nGET {{base}}/items\nAuthorization: Bearer ${KEY}\n`],
  ['body field (control)', `# @name body\nPOST {{base}}/items\nContent-Type: application/json\n\n{"access_token": "${KEY}"}\n`],
];

void describe('a secret-named query parameter in a plain-http request through a proxy is pointed out', () => {
  let server: LocalServer;
  let proxy: Server;
  let proxyBase = '';
  const proxySeen: Seen[] = [];

  before(async () => {
    server = await startLocalServer('apiwb-proxy-query-', (_req, res) => json(res, { items: [{ id: 1 }] }));
    proxy = recorder(proxySeen, (_req, res) => json(res, { items: [{ id: 1 }] }));
    proxyBase = await listenBase(proxy);
    for (const [i, [, text]] of CASES.entries()) writeFileSync(join(server.dir, `case${i}.http`), text);
  });

  after(async () => {
    proxy.closeAllConnections();
    await new Promise<void>((resolve) => proxy.close(() => resolve()));
    await server.close();
  });

  for (const [i, [name]] of CASES.entries()) {
    void it(`${name}: the proxy received the key, and the run says so`, async () => {
      proxySeen.length = 0;
      const result = await runInProcess([join(server.dir, `case${i}.http`), '--env', 'local', '--env-file', server.envFile, '--proxy', proxyBase]);
      assert.ok(JSON.stringify(proxySeen).includes(KEY), `precondition: the proxy was handed the request (${JSON.stringify(proxySeen)})\n${result.stdout}${result.stderr}`);
      assert.match(result.stderr, /the proxy sees the whole request/, `nothing pointed out:\n${result.stdout}${result.stderr}`);
    });
  }
});
