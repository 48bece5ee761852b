// Requests through a real proxy (Debian's tinyproxy on loopback) and to TLS servers of a test CA:
// http and https targets, CONNECT, NO_PROXY, proxy authentication, company CAs and client certificates.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { httpClient } from '../../src/core/http/client';
import { rootCertificates } from 'node:tls';
import { Network, networkPort, type NetworkSettings } from '../../src/core/http/network';
import { trustedAuthorities } from '../../src/core/http/trust';
import { parseNoProxy } from '../../src/core/http/noProxy';
import { HttpFault } from '../../src/core/http/types';
import { httpsTarget, makePki, startCompanyNetwork, startTinyproxy, tempDir, type CompanyNetwork, type Pki, type TestServer, type Tinyproxy } from './corporateNetwork';

const TOKEN = 'Bearer sk-live-7f3a9c1e55d04b2b';
const networks: Network[] = [];

function portOf(settings: NetworkSettings, notices: string[] = []) {
  const network = new Network(settings);
  networks.push(network);
  return networkPort(httpClient, () => network, (text) => notices.push(text));
}

function through(proxy: Tinyproxy, extra: Partial<NetworkSettings> = {}): NetworkSettings {
  const endpoint = { url: proxy.url, source: 'HTTPS_PROXY' };
  return { httpProxy: endpoint, httpsProxy: endpoint, ...extra };
}

void describe('requests through a real proxy (tinyproxy)', () => {
  let network: CompanyNetwork | undefined;
  let pki: Pki;
  let proxy: Tinyproxy;
  let guarded: Tinyproxy;
  let plain: TestServer;
  let secure: TestServer;

  before(async () => {
    network = await startCompanyNetwork('apiwb-proxy-');
    ({ pki, proxy, plain, secure } = network);
    guarded = await startTinyproxy(network.dir, { user: 'proxyuser', password: 'proxy-pass-42' });
  });

  after(async () => {
    await Promise.all(networks.map((n) => n.close()));
    await Promise.all([guarded?.stop(), network?.close()]);
  });

  void it('hands a plain http request to the proxy whole, and says once that a credential goes that way', async () => {
    const notices: string[] = [];
    const port = portOf(through(proxy), notices);
    const response = await port.send({ method: 'GET', url: `${plain.url}/plain/orders?page=2`, headers: { Authorization: TOKEN } });
    assert.equal(response.status, 200);
    assert.match(proxy.log(), new RegExp(`GET ${plain.url}/plain/orders\\?page=2 HTTP/1\\.1`), 'the proxy forwarded the request');
    assert.equal(plain.seen.at(-1)?.url, '/plain/orders?page=2');
    await port.send({ method: 'GET', url: `${plain.url}/plain/again`, headers: { Authorization: TOKEN } });
    assert.equal(notices.length, 1, 'said once, not for every request');
    assert.match(notices[0]!, /plain http and goes through the proxy http:\/\/127\.0\.0\.1:\d+ \(HTTPS_PROXY\).*Authorization header/);
    assert.doesNotMatch(notices[0]!, /sk-live/);
  });

  void it("says so for a sign-in's form sent as plain http through the proxy", async () => {
    const notices: string[] = [];
    const port = portOf(through(proxy), notices);
    await port.send({ method: 'POST', url: `${plain.url}/auth/token`, headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'grant_type=password&username=demo&password=pw-77' });
    assert.equal(notices.length, 1);
    assert.match(notices[0]!, /the password field of its body/);
    assert.doesNotMatch(notices[0]!, /pw-77/);
  });

  void it('says nothing for a plain http request that carries no credential', async () => {
    const notices: string[] = [];
    const port = portOf(through(proxy), notices);
    await port.send({ method: 'GET', url: `${plain.url}/public`, headers: {} });
    assert.deepEqual(notices, []);
  });

  void it('tunnels https by CONNECT: the proxy never sees the path, the headers or the credential', async () => {
    const notices: string[] = [];
    const port = portOf(through(proxy, { extraCa: [pki.caPem] }), notices);
    const before = proxy.log().length;
    const response = await port.send({ method: 'POST', url: `${secure.url}/private/accounts?api_key=abc123`, headers: { Authorization: TOKEN, 'X-API-Key': 'tenant-key-99' }, body: '{"password":"hunter2"}' });
    assert.equal(response.status, 200);
    const log = proxy.log().slice(before);
    assert.match(log, new RegExp(`CONNECT ${secure.url.slice('https://'.length)} HTTP/1\\.1`), 'went by CONNECT');
    for (const hidden of ['sk-live', 'tenant-key-99', 'hunter2', '/private', 'abc123', 'Authorization', 'Bearer']) {
      assert.ok(!log.includes(hidden), `the proxy's log holds '${hidden}'`);
    }
    assert.equal(secure.seen.at(-1)?.headers.authorization, TOKEN, 'the server got the credential');
    assert.deepEqual(notices, []);
  });

  void it('bypasses the proxy for hosts of NO_PROXY (a name, a CIDR range, a port)', async () => {
    for (const rule of ['127.0.0.1', '127.0.0.0/8', `127.0.0.1:${new URL(plain.url).port}`, '*']) {
      const port = portOf(through(proxy, { noProxy: parseNoProxy(rule) }));
      const before = proxy.log().length;
      const response = await port.send({ method: 'GET', url: `${plain.url}/direct`, headers: {} });
      assert.equal(response.status, 200, rule);
      assert.ok(!proxy.log().slice(before).includes('/direct'), `NO_PROXY=${rule}: the request went through the proxy`);
    }
    // Another port than the one named: through the proxy.
    const port = portOf(through(proxy, { noProxy: parseNoProxy('127.0.0.1:1') }));
    const before = proxy.log().length;
    await port.send({ method: 'GET', url: `${plain.url}/proxied`, headers: {} });
    assert.match(proxy.log().slice(before), /\/proxied/);
  });

  void it('authenticates to a proxy that asks for it, for http and for https (CONNECT)', async () => {
    const endpoint = { url: guarded.url, source: 'HTTPS_PROXY' };
    const anonymous = portOf({ httpProxy: endpoint, httpsProxy: endpoint, extraCa: [pki.caPem] });
    for (const url of [`${plain.url}/guarded`, `${secure.url}/guarded`]) {
      await assert.rejects(anonymous.send({ method: 'GET', url, headers: {} }), (error: unknown) =>
        error instanceof HttpFault && /the proxy asks for a user name and password \(407/.test(error.message) && /APIWB_SECRET_PROXY_PASSWORD/.test(error.message));
    }

    const signed = { ...endpoint, username: 'proxyuser', password: 'proxy-pass-42' };
    const port = portOf({ httpProxy: signed, httpsProxy: signed, extraCa: [pki.caPem] });
    assert.equal((await port.send({ method: 'GET', url: `${plain.url}/guarded`, headers: {} })).status, 200);
    assert.equal((await port.send({ method: 'GET', url: `${secure.url}/guarded`, headers: {} })).status, 200);
    assert.equal(secure.seen.at(-1)?.headers['proxy-authorization'], undefined, 'the proxy credential stays with the proxy');
  });
});

void describe('company certificate authorities and client certificates', () => {
  const temp = tempDir('apiwb-tls-');
  let pki: Pki;
  let secure: TestServer;
  let mutual: TestServer;
  let other: TestServer;
  let stranger: TestServer;
  let client: { cert: string; key: string };

  before(async () => {
    pki = makePki(temp.dir);
    const server = pki.issue('server', { san: 'IP:127.0.0.1,DNS:localhost' });
    client = pki.issue('integration-client', { client: true });
    const strangers = tempDir('apiwb-tls-other-');
    const otherServer = makePki(strangers.dir).issue('server', { san: 'IP:127.0.0.1' });
    strangers.remove();
    [secure, mutual, other, stranger] = await Promise.all([
      httpsTarget({ cert: server.cert, key: server.key }),
      httpsTarget({ cert: server.cert, key: server.key, requestCert: true, rejectUnauthorized: true, ca: pki.caPem }),
      // Asks for a certificate but takes a request without one: shows whether one was offered.
      httpsTarget({ cert: server.cert, key: server.key, requestCert: true, rejectUnauthorized: false }),
      httpsTarget({ cert: otherServer.cert, key: otherServer.key }),
    ]);
  });

  after(async () => {
    await Promise.all(networks.map((n) => n.close()));
    await Promise.all([secure?.close(), mutual?.close(), other?.close(), stranger?.close()]);
    temp.remove();
  });

  void it('refuses a server of an unknown CA and says how to add the CA, not to switch verification off', async () => {
    const port = portOf({});
    await assert.rejects(port.send({ method: 'GET', url: `${secure.url}/`, headers: {} }), (error: unknown) => {
      assert.ok(error instanceof HttpFault);
      assert.equal(error.kind, 'tls');
      assert.match(error.message, /not trusted|unknown/i);
      assert.match(error.message, /--cacert/);
      assert.match(error.message, /CA Bundle/);
      assert.doesNotMatch(error.message, /--insecure/);
      return true;
    });
  });

  void it('accepts it with the company CA added, verification still on', async () => {
    const port = portOf({ extraCa: [pki.caPem] });
    const response = await port.send({ method: 'GET', url: `${secure.url}/`, headers: {} });
    assert.equal(response.status, 200);
    // Verification is still on: a server of another authority is refused.
    await assert.rejects(port.send({ method: 'GET', url: `${stranger.url}/`, headers: {} }), (error: unknown) => error instanceof HttpFault && error.kind === 'tls');
  });

  void it("trusts an extra authority on top of the system's, never instead of them", () => {
    const trusted = trustedAuthorities([pki.caPem]) ?? [];
    assert.ok(trusted.includes(pki.caPem));
    for (const root of rootCertificates) assert.ok(trusted.includes(root), 'a system authority is missing');
    assert.equal(trustedAuthorities([]), undefined, "no extra one: node's own default store, NODE_EXTRA_CA_CERTS included");
  });

  void it('a server that requires a client certificate refuses a request without one', async () => {
    const port = portOf({ extraCa: [pki.caPem] });
    await assert.rejects(port.send({ method: 'GET', url: `${mutual.url}/`, headers: {} }), (error: unknown) => {
      assert.ok(error instanceof HttpFault);
      assert.match(error.message, /client certificate/);
      return true;
    });
  });

  void it('accepts the configured certificate (PEM and PFX), and offers it to no other host', async () => {
    const host = new URL(mutual.url).host;
    const pfx = pki.pfx('integration-client', 'pfx-pass-1');
    for (const certificate of [
      { hosts: [host], cert: client.cert, key: client.key, label: 'PEM' },
      { hosts: [host], pfx: pfx.bytes, passphrase: 'pfx-pass-1', label: 'PFX' },
    ]) {
      const port = portOf({ extraCa: [pki.caPem], clientCertificates: [certificate] });
      const response = await port.send({ method: 'GET', url: `${mutual.url}/mtls`, headers: {} });
      assert.equal(response.status, 200, certificate.label);
      assert.equal(mutual.seen.at(-1)?.clientCertificate, 'integration-client');
      const elsewhere = await port.send({ method: 'GET', url: `${other.url}/other`, headers: {} });
      assert.equal(elsewhere.status, 200);
      assert.equal(other.seen.at(-1)?.clientCertificate, undefined, `${certificate.label}: the certificate was offered to another host`);
    }
  });

  void it('a PFX with a wrong passphrase fails in words before anything is sent', async () => {
    const pfx = pki.pfx('integration-client', 'right-one');
    const port = portOf({ extraCa: [pki.caPem], clientCertificates: [{ hosts: [new URL(mutual.url).host], pfx: pfx.bytes, passphrase: 'wrong', label: 'PFX' }] });
    await assert.rejects(port.send({ method: 'GET', url: `${mutual.url}/`, headers: {} }), (error: unknown) =>
      error instanceof HttpFault && /the client certificate PFX for 127\.0\.0\.1:\d+ cannot be used \(.+\); nothing was sent/.test(error.message));
  });
});
