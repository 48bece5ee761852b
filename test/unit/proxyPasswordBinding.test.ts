// The stored proxy password goes only to the proxy it was given for (src/core/http/networkSettings.ts):
// the origins kept with it (the editor's "Set Proxy Password" record), else the user's own proxies
// (--proxy, http.proxy, HTTPS_PROXY / HTTP_PROXY / ALL_PROXY), never an env file's. The rule the CLI and
// the editor share; said in words, the password masked.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseEnvFile } from '../../src/core/env';
import type { Environment } from '../../src/core/env/model';
import { ownProxyOrigins, proxyOrigin, resolveNetwork, type NetworkSources } from '../../src/core/http/networkSettings';
import { boundRecord } from '../../src/core/secrets/secretPlace';

const PASSWORD = 'stored-proxy-password-1';

function environment(body: Record<string, unknown>): Environment {
  return parseEnvFile(JSON.stringify({ corp: body }), 'http-client.env.json').environments['corp']!;
}

const sources = (stored: string | undefined, extra: Partial<NetworkSources> = {}): NetworkSources => ({
  env: {}, resolve: (p) => p, readFile: () => Buffer.alloc(0), now: Date.now(),
  secret: (key) => Promise.resolve(key === 'proxy.password' ? stored : undefined), ...extra,
});

void describe('the proxy password is bound to the proxy it was given for', () => {
  void it("an env file's other proxy gets no password, and it is said; the password stays masked", async () => {
    const resolved = await resolveNetwork(sources(PASSWORD, { env: { HTTP_PROXY: 'http://alice@corp:3128' }, environment: environment({ ApiWorkbench: { Proxy: 'http://alice@rogue:3128' } }) }));
    assert.equal(resolved.settings.httpProxy?.url, 'http://rogue:3128');
    assert.equal(resolved.settings.httpProxy?.password, undefined);
    assert.equal(resolved.settings.httpsProxy?.password, undefined);
    assert.deepEqual(resolved.problems.filter((p) => p.includes('gets no proxy password')), [
      "The proxy http://rogue:3128 (env file, environment 'corp') gets no proxy password: the stored one was given for http://corp:3128 only (the proxy of --proxy, http.proxy or HTTPS_PROXY / HTTP_PROXY / ALL_PROXY, or the one \"Set Proxy Password\" was used with; never an env file's), and goes to no other.",
    ], 'said once for http and https');
    assert.ok(resolved.secretValues.includes(PASSWORD), 'still masked');
  });

  void it("the user's own proxies take it, whichever names them; an env file naming the same origin too", async () => {
    for (const extra of [{ env: { HTTPS_PROXY: 'http://alice@corp:3128' } }, { proxyFlag: 'alice@corp:3128' }, { editor: { proxy: 'http://alice@corp:3128' } },
      { env: { ALL_PROXY: 'http://alice@corp:3128' }, environment: environment({ ApiWorkbench: { Proxy: 'http://alice@CORP:3128' } }) }]) {
      const resolved = await resolveNetwork(sources(PASSWORD, extra));
      assert.equal(resolved.settings.httpsProxy?.password, PASSWORD, JSON.stringify(extra));
    }
  });

  void it('another port or scheme of the same host is another proxy', async () => {
    for (const other of ['http://alice@corp:3129', 'https://alice@corp:3128']) {
      const resolved = await resolveNetwork(sources(PASSWORD, { env: { HTTP_PROXY: 'http://alice@corp:3128' }, environment: environment({ ApiWorkbench: { Proxy: other } }) }));
      assert.equal(resolved.settings.httpsProxy?.password, undefined, other);
    }
  });

  void it("http.proxySupport off: http.proxy is not the user's proxy", () => {
    assert.deepEqual(ownProxyOrigins({ env: {}, editor: { proxy: 'http://corp:1', proxySupport: 'off' } }), []);
    assert.deepEqual(ownProxyOrigins({ env: { https_proxy: 'corp:2', HTTP_PROXY: 'http://u@corp:2' }, proxyFlag: 'not a url::' }), ['http://corp:2']);
    assert.equal(proxyOrigin('ftp://x'), undefined);
  });

  void it('a password kept with the proxy it was entered for (the editor) goes there only, whatever the settings say now', async () => {
    const kept = boundRecord(PASSWORD, ['http://corp:3128']);
    const there = await resolveNetwork(sources(kept, { editor: { proxy: 'http://alice@corp:3128' } }));
    assert.equal(there.settings.httpsProxy?.password, PASSWORD);
    const moved = await resolveNetwork(sources(kept, { editor: { proxy: 'http://alice@elsewhere:3128' } }));
    assert.equal(moved.settings.httpsProxy?.password, undefined);
    assert.match(moved.problems.join(' '), /http:\/\/elsewhere:3128 \(http\.proxy\) gets no proxy password: the stored one was given for http:\/\/corp:3128 only/);
    assert.ok(!moved.problems.join(' ').includes(PASSWORD) && moved.secretValues.includes(PASSWORD));
  });
});
