// `apiwb compare` behind a company network takes the same network options as `apiwb run`, through the
// same code (src/cli/runNetwork.ts): --proxy with the password from APIWB_SECRET_PROXY_PASSWORD,
// --cacert, and each side's own environment ("Proxy", "CA Bundle", "SSLConfiguration"), so one side may
// go through the proxy while the other goes directly with a client certificate.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { compareCommand } from '../../src/cli/compare/compareCommand';
import { startCompanyNetwork, type CompanyNetwork, type Pki, type TestServer, type Tinyproxy } from '../unit/corporateNetwork';
import { commandInProcess } from './inProcess';

const PROXY_PASSWORD = 'corp-proxy-pw-4471';

void describe('apiwb compare behind a company proxy, with company certificates', () => {
  let network: CompanyNetwork | undefined;
  let pki: Pki;
  let proxy: Tinyproxy;
  let secure: TestServer;
  let mutual: TestServer;
  let envFile: string;
  let requests: string;

  before(async () => {
    network = await startCompanyNetwork('apiwb-compare-net-', { user: 'alice', password: PROXY_PASSWORD });
    ({ pki, proxy, secure, mutual } = network);
    envFile = join(network.dir, 'http-client.env.json');
    writeFileSync(envFile, JSON.stringify({
      corp: { secure: secure.url },
      corp2: { secure: secure.url },
      mtls: {
        secure: mutual.url,
        ApiWorkbench: { 'CA Bundle': 'ca.pem', Proxy: 'direct' },
        SSLConfiguration: { clientCertificate: 'client.pem', clientCertificateKey: 'client.key', verifyHostCertificate: true },
      },
    }));
    requests = join(network.dir, 'requests.http');
    writeFileSync(requests, '# @name accounts\nGET {{secure}}/accounts?api_key=k-123\n');
  });

  after(async () => {
    await network?.close();
  });

  const compare = (args: readonly string[], env: Record<string, string> = {}) =>
    commandInProcess(compareCommand, [requests, '--env-file', envFile, ...args], env);
  const viaProxy = (): string => proxy.url.replace('//', '//alice@');

  void it('sends both sides through --proxy by CONNECT, trusting --cacert, and never prints the password', async () => {
    const before = await proxy.flushed();
    const result = await compare(['--env', 'corp', '--against', 'corp2', '--proxy', viaProxy(), '--cacert', pki.caFile], { APIWB_SECRET_PROXY_PASSWORD: PROXY_PASSWORD });
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.match(result.stdout, /✓ accounts .* agree/);
    const log = proxy.log().slice(before, await proxy.flushed());
    assert.equal(log.match(/CONNECT 127\.0\.0\.1:\d+/g)?.length, 2, log);
    for (const hidden of ['k-123', '/accounts']) assert.ok(!log.includes(hidden), `the proxy saw ${hidden}`);
    assert.ok(!(result.stdout + result.stderr).includes(PROXY_PASSWORD));
  });

  void it('without the company CA neither side is trusted, and the message says to add it', async () => {
    const result = await compare(['--env', 'corp', '--against', 'corp2', '--proxy', viaProxy()], { APIWB_SECRET_PROXY_PASSWORD: PROXY_PASSWORD });
    assert.equal(result.code, 1, result.stdout + result.stderr);
    assert.match(result.stdout, /✗ accounts .* differ: .*\n    A: no response · .*not trusted here.*--cacert FILE/);
    assert.match(result.stdout, /neither side answered: nothing was compared/);
  });

  void it("each side its own environment's network: side A through the proxy, side B directly with its client certificate", async () => {
    const before = await proxy.flushed();
    const seenBefore = mutual.seen.length;
    const result = await compare(['--env', 'corp', '--against', 'mtls', '--proxy', viaProxy(), '--cacert', pki.caFile], { APIWB_SECRET_PROXY_PASSWORD: PROXY_PASSWORD });
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.equal(proxy.log().slice(before, await proxy.flushed()).match(/CONNECT 127\.0\.0\.1:\d+/g)?.length, 1, 'only side A went through the proxy');
    assert.equal(mutual.seen.length, seenBefore + 1);
    assert.equal(mutual.seen.at(-1)?.clientCertificate, 'client');
  });

  void it('a proxy password on the command line is not used, and said on stderr as apiwb compare', async () => {
    const result = await compare(['--env', 'corp', '--against', 'corp2', '--cacert', pki.caFile, '--proxy', proxy.url.replace('//', `//alice:${PROXY_PASSWORD}@`)]);
    assert.match(result.stderr, /apiwb compare: The proxy password written in --proxy is not used/);
    assert.ok(!(result.stdout + result.stderr).includes(PROXY_PASSWORD));
  });

  void it('--help lists the network options apiwb run has', async () => {
    const result = await commandInProcess(compareCommand, ['--help'], {});
    for (const option of ['--proxy URL', '--cacert FILE', '--insecure ', '--insecure-token-endpoint']) assert.ok(result.stdout.includes(option), option);
  });
});
