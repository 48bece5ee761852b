// The trust of a network is made when a connection first needs TLS, once, and shared: plain http (directly
// or through a plain proxy) builds no secure context; https directly, by CONNECT through tinyproxy, with
// verification off, and an https proxy's own connection all use the one the first https request made.
// The trust decisions stay the same: a server or a proxy of an authority not given is refused.
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { request as httpRequest } from 'node:http';
import { createServer as createHttpsServer, type Server } from 'node:https';
import { after, before, describe, it, mock } from 'node:test';
import tls from 'node:tls';
import { httpClient } from '../../src/core/http/client';
import { Network, networkPort, type NetworkSettings, type ProxyEndpoint } from '../../src/core/http/network';
import { HttpFault } from '../../src/core/http/types';
import { httpsTarget, makePki, startCompanyNetwork, tempDir, type CompanyNetwork, type TestServer } from './corporateNetwork';

/** An https proxy of the test CA's certificate: CONNECT tunnels, and plain http requests forwarded whole. */
async function httpsProxy(cert: string, key: string): Promise<{ endpoint: ProxyEndpoint; forwarded: string[]; close(): Promise<void> }> {
  const forwarded: string[] = [];
  const server: Server = createHttpsServer({ cert, key }, (req, res) => {
    forwarded.push(`${req.method} ${req.url}`);
    const upstream = httpRequest(req.url!, { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  server.on('connect', (req: { url?: string }, socket: import('node:net').Socket) => {
    forwarded.push(`CONNECT ${req.url}`);
    const [host, port] = (req.url ?? '').split(':');
    const target = connect(Number(port), host, () => {
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      target.pipe(socket);
      socket.pipe(target);
    });
    target.on('error', () => socket.destroy());
    socket.on('error', () => target.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    endpoint: { url: `https://127.0.0.1:${port}`, source: '--proxy' },
    forwarded,
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

void describe('the trust of a network, made when TLS first needs it', () => {
  let company: CompanyNetwork | undefined;
  let stranger: TestServer | undefined;
  let secureProxy: Awaited<ReturnType<typeof httpsProxy>> | undefined;
  const networks: Network[] = [];
  const contexts = mock.method(tls, 'createSecureContext');

  const portOf = (settings: NetworkSettings) => {
    const network = new Network(settings);
    networks.push(network);
    return networkPort(httpClient, () => network);
  };

  before(async () => {
    company = await startCompanyNetwork('apiwb-trust-');
    const other = tempDir('apiwb-trust-other-');
    const foreign = makePki(other.dir).issue('server', { san: 'IP:127.0.0.1' });
    other.remove();
    stranger = await httpsTarget({ cert: foreign.cert, key: foreign.key });
    const proxyCertificate = company.pki.issue('proxy', { san: 'IP:127.0.0.1' });
    secureProxy = await httpsProxy(proxyCertificate.cert, proxyCertificate.key);
  });

  after(async () => {
    contexts.mock.restore();
    await Promise.all(networks.map((n) => n.close()));
    await Promise.all([company?.close(), stranger?.close(), secureProxy?.close()]);
  });

  void it('builds none for plain http, directly or through a plain proxy, then one for every https route', async () => {
    const { pki, plain, secure, proxy } = company!;
    const endpoint = { url: proxy.url, source: 'HTTP_PROXY' };
    const direct = portOf({ extraCa: [pki.caPem] });
    const proxied = { httpProxy: endpoint, httpsProxy: endpoint, extraCa: [pki.caPem] };
    const network = new Network(proxied);
    networks.push(network);
    const through = networkPort(httpClient, () => network);
    contexts.mock.resetCalls();

    assert.equal((await direct.send({ method: 'GET', url: `${plain.url}/a`, headers: {} })).status, 200);
    assert.equal((await through.send({ method: 'GET', url: `${plain.url}/b`, headers: {} })).status, 200);
    assert.equal(contexts.mock.callCount(), 0, 'plain http parsed the authorities');

    // Through the proxy: https by CONNECT, verified; then verification off, and again: the one context.
    assert.equal((await through.send({ method: 'GET', url: `${secure.url}/c`, headers: {} })).status, 200);
    assert.equal((await through.send({ method: 'GET', url: `${secure.url}/d`, headers: {} }, { rejectUnauthorized: false })).status, 200);
    assert.equal((await through.send({ method: 'GET', url: `${secure.url}/e`, headers: {} })).status, 200);
    assert.equal(contexts.mock.callCount(), 1, 'one secure context for the network');
    // Another network makes its own, once.
    assert.equal((await direct.send({ method: 'GET', url: `${secure.url}/f`, headers: {} })).status, 200);
    await assert.rejects(direct.send({ method: 'GET', url: `${stranger!.url}/g`, headers: {} }), (error: unknown) => error instanceof HttpFault && error.kind === 'tls');
    assert.equal(contexts.mock.callCount(), 2);
  });

  void it("verifies an https proxy's certificate with the same trust, for plain http too", async () => {
    const { pki, plain, secure } = company!;
    const endpoint = secureProxy!.endpoint;
    contexts.mock.resetCalls();
    const trusted = portOf({ httpProxy: endpoint, httpsProxy: endpoint, extraCa: [pki.caPem] });
    assert.equal((await trusted.send({ method: 'GET', url: `${plain.url}/h`, headers: {} })).status, 200);
    assert.equal((await trusted.send({ method: 'GET', url: `${secure.url}/i`, headers: {} })).status, 200);
    assert.equal(contexts.mock.callCount(), 1, 'the proxy and the target share one context');
    const seen = secureProxy!.forwarded.slice(-2).join('\n');
    for (const host of [new URL(plain.url).host, new URL(secure.url).host]) assert.ok(seen.includes(host), `the proxy did not carry ${host}`);

    const untrusting = portOf({ httpProxy: endpoint, httpsProxy: endpoint });
    const before = secureProxy!.forwarded.length;
    await assert.rejects(untrusting.send({ method: 'GET', url: `${plain.url}/j`, headers: {} }), (error: unknown) => error instanceof HttpFault && error.kind === 'tls');
    assert.equal(secureProxy!.forwarded.length, before, 'a request reached the untrusted proxy');
  });
});
