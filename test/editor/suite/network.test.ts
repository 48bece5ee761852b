// The extension reads VS Code's proxy settings: http.proxy, http.noProxy, http.proxyStrictSSL and
// http.proxySupport, set here through the real configuration API; a request goes to the proxy named in
// http.proxy (a small recording proxy of the test's own on loopback), and not when proxySupport is off.
import assert from 'node:assert/strict';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as vscode from 'vscode';
import { useSandboxEnvironment } from './editorHelpers';
import { activatedApi } from './extensionUnderTest';
import { requireSandbox } from './sandbox';

const SETTINGS = ['proxy', 'noProxy', 'proxyStrictSSL', 'proxySupport'] as const;

async function setHttp(values: Partial<Record<(typeof SETTINGS)[number], unknown>>): Promise<void> {
  const http = vscode.workspace.getConfiguration('http');
  for (const name of SETTINGS) await http.update(name, values[name], vscode.ConfigurationTarget.Global);
}

describe("VS Code's proxy settings", () => {
  let proxy: Server;
  let proxyUrl: string;
  const seen: string[] = [];

  before(async () => {
    // A forward proxy that remembers each request line, passes requests for loopback on (the sandbox)
    // and answers any other itself.
    proxy = createServer((req, res) => {
      seen.push(`${req.method ?? ''} ${req.url ?? ''}`);
      if (req.url?.startsWith('http://127.0.0.1:')) {
        const upstream = httpRequest(req.url, { method: req.method, headers: req.headers }, (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        });
        upstream.on('error', () => res.destroy());
        req.pipe(upstream);
        return;
      }
      res.setHeader('content-type', 'application/json');
      res.end('{"via":"proxy"}');
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  });

  after(async () => {
    await setHttp({});
    await new Promise<void>((resolve) => {
      proxy.closeAllConnections();
      proxy.close(() => resolve());
    });
  });

  it('reads http.proxy, http.noProxy and http.proxyStrictSSL', async () => {
    const api = await activatedApi();
    await setHttp({ proxy: 'http://proxy.corp.example:3128', noProxy: ['intranet.example', '10.0.0.0/8'], proxyStrictSSL: false });
    const resolved = await api.environments.network.resolve();
    assert.equal(resolved.settings.httpsProxy?.url, 'http://proxy.corp.example:3128');
    assert.equal(resolved.settings.httpsProxy?.source, 'http.proxy');
    assert.equal(resolved.settings.noProxy?.bypasses(new URL('https://api.intranet.example/x')), true);
    assert.equal(resolved.settings.noProxy?.bypasses(new URL('http://10.1.2.3/')), true);
    assert.equal(resolved.settings.noProxy?.bypasses(new URL('https://api.example.org/')), false);
    assert.equal(resolved.settings.proxyStrictSSL, false);
    assert.match(resolved.proxyWords, /^http:\/\/proxy\.corp\.example:3128 \(http\.proxy\); not for intranet\.example,10\.0\.0\.0\/8; the proxy's own certificate is not verified/);
  });

  it('takes the proxy password from SecretStorage (Set Proxy Password), never from the setting', async () => {
    const api = await activatedApi();
    await setHttp({ proxy: 'http://alice:written-in-settings@proxy.corp.example:3128' });
    let resolved = await api.environments.network.resolve();
    assert.equal(resolved.settings.httpsProxy?.password, undefined);
    assert.match(resolved.problems.join(' '), /password written in http\.proxy is not used/);
    assert.doesNotMatch(resolved.problems.join(' '), /written-in-settings/);
    await vscode.commands.executeCommand('apiWorkbench.setProxyPassword', 'kept-in-secret-storage');
    try {
      resolved = await api.environments.network.resolve();
      assert.equal(resolved.settings.httpsProxy?.username, 'alice');
      assert.equal(resolved.settings.httpsProxy?.password, 'kept-in-secret-storage');
      assert.match(resolved.proxyWords, /signs in as alice$/);
      // Kept for the proxy it was entered for: http.proxy pointed elsewhere gets none, said in words.
      await setHttp({ proxy: 'http://alice@other-proxy.example:3128' });
      resolved = await api.environments.network.resolve();
      assert.equal(resolved.settings.httpsProxy?.password, undefined);
      assert.match(resolved.problems.join(' '), /The proxy http:\/\/other-proxy\.example:3128 \(http\.proxy\) gets no proxy password: the stored one was given for http:\/\/proxy\.corp\.example:3128 only/);
      assert.doesNotMatch(resolved.problems.join(' '), /kept-in-secret-storage/);
    } finally {
      await vscode.commands.executeCommand('apiWorkbench.setProxyPassword', '');
    }
  });

  it("signs in through the proxy of http.proxy (the editor's sign-in takes the same way)", async () => {
    const api = await activatedApi();
    const sandbox = requireSandbox();
    await useSandboxEnvironment(api);
    await setHttp({ proxy: proxyUrl });
    await api.environments.secrets.set('engagement.password', sandbox.credentials.engagement.password);
    const session = await api.environments.credentials.signIn('engagement');
    assert.equal(session.userName, sandbox.credentials.engagement.username);
    assert.ok(seen.some((line) => line === `POST ${sandbox.engagement.authUrl}/token`), `the proxy saw: ${seen.join(', ')}`);
  });

  it('sends through the proxy of http.proxy, and directly with http.proxySupport off', async () => {
    const api = await activatedApi();
    await setHttp({ proxy: proxyUrl });
    const response = await api.environments.network.http.send({ method: 'GET', url: 'http://service.invalid/orders?page=1', headers: {} });
    assert.equal(response.bodyText, '{"via":"proxy"}');
    assert.equal(seen.at(-1), 'GET http://service.invalid/orders?page=1');

    await setHttp({ proxy: proxyUrl, proxySupport: 'off' });
    const count = seen.length;
    const resolved = await api.environments.network.resolve();
    assert.equal(resolved.settings.httpsProxy, undefined);
    assert.match(resolved.proxyWords, /http\.proxySupport is off/);
    await assert.rejects(api.environments.network.http.send({ method: 'GET', url: 'http://service.invalid/direct', headers: {} }, { timeoutMs: 5_000 }));
    assert.equal(seen.length, count, 'the request went to the proxy although proxy support is off');
  });
});
