// `apiwb run` behind a company network: --proxy and the proxy variables (Debian's tinyproxy, with Basic
// authentication), NO_PROXY, --cacert and NODE_EXTRA_CA_CERTS for a test CA, an environment's
// "CA Bundle" and "SSLConfiguration" client certificate, and proxy passwords that only come from the
// environment and never show.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startCompanyNetwork, type CompanyNetwork, type Pki, type TestServer, type Tinyproxy } from '../unit/corporateNetwork';
import { runInProcess } from './inProcess';
import { COLLECTION, openSandboxWorkspace } from './sandboxEnv';

const PROXY_PASSWORD = 'corp-proxy-pw-8812';

void describe('apiwb run behind a company proxy, with company certificates', () => {
  let network: CompanyNetwork | undefined;
  let dir: string;
  let pki: Pki;
  let proxy: Tinyproxy;
  let secure: TestServer;
  let plain: TestServer;
  let mutual: TestServer;
  let envFile: string;
  let requests: string;

  before(async () => {
    network = await startCompanyNetwork('apiwb-cli-net-', { user: 'alice', password: PROXY_PASSWORD });
    ({ dir, pki, proxy, secure, plain, mutual } = network);
    envFile = join(dir, 'http-client.env.json');
    writeFileSync(envFile, JSON.stringify({
      corp: { secure: secure.url, plain: plain.url },
      mtls: {
        secure: mutual.url,
        ApiWorkbench: { 'CA Bundle': 'ca.pem', Proxy: 'direct' },
        SSLConfiguration: { clientCertificate: 'client.pem', clientCertificateKey: 'client.key', verifyHostCertificate: true },
      },
    }));
    requests = join(dir, 'requests.http');
    writeFileSync(requests, '# @name secure\nGET {{secure}}/accounts?api_key=k-123\nAuthorization: Bearer tok-abc-999\n');
  });

  after(async () => {
    await network?.close();
  });

  const run = (args: readonly string[], env: Record<string, string> = {}) =>
    runInProcess([requests, '--env-file', envFile, ...args], env);

  void it('sends through --proxy by CONNECT with the password from APIWB_SECRET_PROXY_PASSWORD, trusting --cacert', async () => {
    const before = await proxy.flushed();
    const result = await run(['--env', 'corp', '--proxy', `${proxy.url.replace('//', '//alice@')}`, '--cacert', pki.caFile], { APIWB_SECRET_PROXY_PASSWORD: PROXY_PASSWORD });
    assert.equal(result.code, 0, result.stdout + result.stderr);
    const log = proxy.log().slice(before, await proxy.flushed());
    assert.match(log, /CONNECT 127\.0\.0\.1:\d+/);
    for (const hidden of ['tok-abc-999', 'k-123', '/accounts']) assert.ok(!log.includes(hidden), `the proxy saw ${hidden}`);
    assert.ok(!(result.stdout + result.stderr).includes(PROXY_PASSWORD));
  });

  void it('without the company CA: refused, and told to add it (not --insecure)', async () => {
    const result = await run(['--env', 'corp', '--proxy', proxy.url.replace('//', '//alice@')], { APIWB_SECRET_PROXY_PASSWORD: PROXY_PASSWORD });
    assert.equal(result.code, 1);
    assert.match(result.stdout, /not trusted here.*--cacert FILE or NODE_EXTRA_CA_CERTS/);
    assert.doesNotMatch(result.stdout, /--insecure/);
  });

  void it('takes the proxy and its password from HTTPS_PROXY, the CA from NODE_EXTRA_CA_CERTS, and never prints the password', async () => {
    const before = await proxy.flushed();
    const result = await run(['--env', 'corp'], { HTTPS_PROXY: proxy.url.replace('//', `//alice:${PROXY_PASSWORD}@`), NODE_EXTRA_CA_CERTS: pki.caFile });
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.match(proxy.log().slice(before, await proxy.flushed()), /CONNECT/);
    assert.ok(!(result.stdout + result.stderr).includes(PROXY_PASSWORD));
  });

  void it('an unreadable --cacert or NODE_EXTRA_CA_CERTS file is said at the start and not used; a plain-http run goes on', async () => {
    const plainRequests = join(dir, 'plain.http');
    writeFileSync(plainRequests, '# @name plain\nGET {{plain}}/hello\n');
    const broken = join(dir, 'not-pem.pem');
    writeFileSync(broken, 'no certificate here\n');
    const result = await runInProcess([plainRequests, '--env-file', envFile, '--env', 'corp', '--cacert', join(dir, 'missing.pem')], { NODE_EXTRA_CA_CERTS: broken });
    assert.equal(result.code, 0, result.stdout + result.stderr);
    const said = result.stderr.split('\n');
    assert.ok(said[0]!.includes(`The certificate authorities of ${join(dir, 'missing.pem')}: unreadable (no such file) (--cacert) are not used.`), result.stderr);
    assert.ok(said[1]!.includes(`The certificate authorities of ${broken}: unreadable (no PEM certificate in it) (NODE_EXTRA_CA_CERTS) are not used.`), result.stderr);
    assert.equal(plain.seen.at(-1)?.url, '/hello');
  });

  void it('https directly: trusted with --cacert; with only an unreadable one, said at the start and refused', async () => {
    const trusted = await run(['--env', 'corp', '--cacert', pki.caFile]);
    assert.equal(trusted.code, 0, trusted.stdout + trusted.stderr);
    assert.equal(trusted.stderr, '');
    const missing = await run(['--env', 'corp', '--cacert', join(dir, 'missing.pem')]);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /^apiwb run: The certificate authorities of .*missing\.pem: unreadable \(no such file\) \(--cacert\) are not used\./);
    assert.match(missing.stdout, /not trusted here.*--cacert FILE or NODE_EXTRA_CA_CERTS/);
  });

  void it('a 407 from the proxy says where the password comes from', async () => {
    const result = await run(['--env', 'corp', '--cacert', pki.caFile], { HTTPS_PROXY: proxy.url });
    assert.equal(result.code, 1);
    assert.match(result.stdout, /the proxy asks for a user name and password \(407/);
  });

  void it('does not take a proxy password from the command line', async () => {
    const result = await run(['--env', 'corp', '--cacert', pki.caFile, '--proxy', proxy.url.replace('//', `//alice:${PROXY_PASSWORD}@`)]);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /The proxy password written in --proxy is not used/);
    assert.ok(!(result.stdout + result.stderr).includes(PROXY_PASSWORD));
  });

  void it('goes directly to the hosts of NO_PROXY', async () => {
    // Between two marks of the proxy's own: a line of the test before, logged late, falls before the first.
    const before = await proxy.flushed();
    const result = await run(['--env', 'corp', '--cacert', pki.caFile], { HTTPS_PROXY: proxy.url, NO_PROXY: '127.0.0.0/8' });
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.deepEqual(requestsLogged(proxy.log().slice(before, await proxy.flushed())), []);
  });

  void it("offers the environment's client certificate to its host, trusting its CA bundle", async () => {
    const result = await run(['--env', 'mtls'], { HTTPS_PROXY: proxy.url });
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.equal(mutual.seen.at(-1)?.clientCertificate, 'client');
  });

  void it('signs in and sends through the proxy too, and says once that plain http shows it the password', async () => {
    const workspace = await openSandboxWorkspace();
    try {
      const before = await proxy.flushed();
      const result = await runInProcess([join(COLLECTION, 'engagement.http'), '--env-file', workspace.envFile, '--env', 'sandbox'], {
        ...workspace.secrets, HTTP_PROXY: proxy.url.replace('//', '//alice@'), APIWB_SECRET_PROXY_PASSWORD: PROXY_PASSWORD,
      });
      assert.equal(result.code, 0, result.stdout + result.stderr);
      const log = proxy.log().slice(before, await proxy.flushed());
      assert.match(log, /POST http:\/\/127\.0\.0\.1:\d+\/auth\/token HTTP/, 'the sign-in went through the proxy');
      assert.match(log, /Request \(file descriptor \d+\): (GET|POST) http:\/\/127\.0\.0\.1:\d+\/api\//, 'the requests went through the proxy');
      const notices = result.stderr.split('\n').filter((line) => line.includes('is plain http and goes through the proxy'));
      assert.equal(notices.length, 1, result.stderr);
      assert.match(notices[0]!, /the password field of its body/);
      for (const secret of [...workspace.secretValues, PROXY_PASSWORD]) assert.ok(!(result.stdout + result.stderr).includes(secret));
    } finally {
      await workspace.close();
    }
  });

  void it('refuses an env file with a proxy password in it', async () => {
    const broken = join(dir, 'broken.env.json');
    writeFileSync(broken, JSON.stringify({ corp: { secure: secure.url, ApiWorkbench: { Proxy: `http://alice:${PROXY_PASSWORD}@127.0.0.1:1` } } }));
    const result = await runInProcess([requests, '--env-file', broken, '--env', 'corp']);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /ApiWorkbench\.Proxy.*holds a password/);
  });
});

/** The requests a part of tinyproxy's log shows (its own marks left out: Tinyproxy.flushed). */
function requestsLogged(log: string): string[] {
  return log.split('\n').filter((line) => /Request \(file descriptor \d+\)/.test(line) && !line.includes('/apiwb-log-mark-'));
}
