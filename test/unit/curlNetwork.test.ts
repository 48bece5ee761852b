// Copy as curl with the network flags (--proxy, --proxy-user, --noproxy, --cacert, --cert, --key,
// --cert-type P12, --insecure) and no secret; REST Client's rest-client.certificates as the env file's form.
import assert from 'node:assert/strict';
import { copyFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parseEnvFile } from '../../src/core/env';
import { certificatesFromRestClient } from '../../src/core/env/restClientCertificates';
import { resolveNetwork } from '../../src/core/http/networkSettings';
import { toCurl } from '../../src/core/interop/curl';
import { curlNetworkFlagsOf } from '../../src/core/interop/curlNetwork';
import { makePki, tempDir } from './corporateNetwork';

void describe('copy as curl through the network', () => {
  const temp = tempDir('apiwb-curlnet-');
  before(() => {
    const pki = makePki(temp.dir);
    pki.issue('client', { client: true });
    copyFileSync(pki.caFile, join(temp.dir, 'extra.pem'));
  });
  after(() => temp.remove());

  const resolved = (env: Record<string, string>, body: Record<string, unknown>) => resolveNetwork({
    env,
    environment: parseEnvFile(JSON.stringify({ corp: body }), 'http-client.env.json').environments['corp']!,
    resolve: (p) => join(temp.dir, p), readFile: (p) => readFileSync(p), now: Date.now(),
    secret: (key) => Promise.resolve(key === 'proxy.password' ? 'proxy-secret-1' : undefined),
  });

  void it('adds the proxy, the company CA and the client certificate of the host, and no password', async () => {
    const network = await resolved({ HTTPS_PROXY: 'http://alice@proxy.corp:3128', NO_PROXY: 'intranet.corp', NODE_EXTRA_CA_CERTS: join(temp.dir, 'extra.pem') }, {
      ApiWorkbench: { 'CA Bundle': 'ca.pem' },
      SSLConfiguration: { 'api.corp': { clientCertificate: 'client.pem', clientCertificateKey: 'client.key' }, 'old.corp': { clientCertificate: 'client.pem', clientCertificateKey: 'client.key', verifyHostCertificate: false } },
    });
    const curl = (url: string) => toCurl({ method: 'GET', url, headers: {} }, { networkFlags: curlNetworkFlagsOf(network), multiline: false }).command;
    assert.equal(curl('https://api.corp/v1/x'),
      `curl https://api.corp/v1/x --proxy http://proxy.corp:3128 --proxy-user alice --cacert ${join(temp.dir, 'ca.pem')} --cert ${join(temp.dir, 'client.pem')} --key ${join(temp.dir, 'client.key')}`);
    assert.equal(curl('https://other.corp/'), `curl https://other.corp/ --proxy http://proxy.corp:3128 --proxy-user alice --cacert ${join(temp.dir, 'ca.pem')}`, 'no certificate for another host');
    assert.match(curl('https://old.corp/'), /--cert .* --insecure$/);
    assert.equal(curl('https://intranet.corp/'), `curl https://intranet.corp/ --noproxy intranet.corp --cacert ${join(temp.dir, 'ca.pem')}`);
    assert.equal(curl('http://plain.corp/'), 'curl http://plain.corp/', 'HTTPS_PROXY is for https only');
    assert.ok(!curl('https://api.corp/').includes('proxy-secret-1'));
  });

  void it('imports rest-client.certificates: PEM and PFX per host, passphrases for the secret store only', () => {
    const imported = certificatesFromRestClient({
      'api.corp:8443': { cert: 'certs/a.crt', key: 'certs/a.key' },
      'pfx.corp': { pfx: 'certs/b.p12', passphrase: 'pfx-secret' },
      'broken.corp': { key: 'only.key' },
    });
    assert.deepEqual(imported.sslConfiguration, {
      'api.corp:8443': { clientCertificate: { path: 'certs/a.crt', format: 'PEM' }, clientCertificateKey: 'certs/a.key', hasCertificatePassphrase: false },
      'pfx.corp': { clientCertificate: { path: 'certs/b.p12', format: 'PFX' }, hasCertificatePassphrase: true },
    });
    assert.deepEqual(imported.passphrases, [{ key: 'client-certificate-pfx.corp.passphrase', value: 'pfx-secret' }]);
    assert.deepEqual(imported.skipped, ['broken.corp: neither "cert" nor "pfx"']);
    // What it writes loads back as certificates for exactly those hosts, and holds no passphrase.
    const text = JSON.stringify({ corp: { SSLConfiguration: imported.sslConfiguration } });
    assert.ok(!text.includes('pfx-secret'));
    const env = parseEnvFile(text, 'http-client.env.json').environments['corp']!;
    assert.deepEqual(env.network?.certificates.map((c) => [c.id, c.hosts, c.hasPassphrase]), [
      ['client-certificate-api.corp:8443', ['api.corp:8443'], false],
      ['client-certificate-pfx.corp', ['pfx.corp'], true],
    ]);
  });
});
