// Where network settings come from (env file, --proxy, VS Code, variables) and what state an
// environment's certificates are in, in words: env-file forms, precedence, refused passwords, expired,
// unreadable and passphrase-missing certificates.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parseEnvFile } from '../../src/core/env';
import type { Environment } from '../../src/core/env/model';
import { resolveNetwork, type NetworkSources } from '../../src/core/http/networkSettings';
import { makePki, tempDir, type Pki } from './corporateNetwork';

const DAY = 24 * 60 * 60 * 1000;

function environment(body: Record<string, unknown>, name = 'corp'): Environment {
  return parseEnvFile(JSON.stringify({ [name]: body }), 'http-client.env.json').environments[name]!;
}

void describe('network settings', () => {
  const temp = tempDir('apiwb-netset-');
  let pki: Pki;
  const sources = (extra: Partial<NetworkSources> = {}): NetworkSources => ({
    env: {}, resolve: (p) => join(temp.dir, p), readFile: (p) => readFileSync(p), now: Date.now(), secret: () => Promise.resolve(undefined), ...extra,
  });

  before(() => {
    pki = makePki(temp.dir);
    pki.issue('client', { client: true });
    pki.pfx('client', 'open-sesame');
  });
  after(() => temp.remove());

  void it('reads JetBrains SSLConfiguration, offered by default to the hosts of the URL variables', () => {
    const env = environment({ base: 'https://api.example.com:8443/v1', other: 'not a url', SSLConfiguration: { clientCertificate: 'client.pem', clientCertificateKey: 'client.key', hasCertificatePassphrase: false, verifyHostCertificate: true } });
    assert.deepEqual(env.network?.certificates, [{ id: 'client-certificate', hosts: ['api.example.com:8443'], certificate: { path: 'client.pem', format: 'PEM' }, key: 'client.key', hasPassphrase: false, verifyHost: true }]);
    assert.equal(env.variables['SSLConfiguration'], undefined, 'not a variable');
  });

  void it('reads the per-host form and the PFX format', () => {
    const env = environment({ SSLConfiguration: { 'a.example': { clientCertificate: { path: 'a.p12' }, hasCertificatePassphrase: true }, 'b.example:9443': { clientCertificate: { path: 'b.crt', format: 'pem' } } } });
    assert.deepEqual(env.network?.certificates.map((c) => [c.id, c.hosts, c.certificate?.format]), [
      ['client-certificate-a.example', ['a.example'], 'PFX'],
      ['client-certificate-b.example:9443', ['b.example:9443'], 'PEM'],
    ]);
  });

  void it('refuses a proxy password in the env file, and a bad format, with where it is', () => {
    assert.throws(() => environment({ ApiWorkbench: { Proxy: 'http://u:p@proxy:3128' } }), /environment 'corp', key 'ApiWorkbench\.Proxy'.*holds a password/);
    assert.throws(() => environment({ SSLConfiguration: { clientCertificate: { path: 'x', format: 'DER' } } }), /SSLConfiguration\.clientCertificate.*'DER'/);
  });

  void it('takes the proxy from the env file first, then --proxy, then http.proxy, then the variables', async () => {
    const env = { HTTPS_PROXY: 'http://var:1', HTTP_PROXY: 'http://plainvar:2', ALL_PROXY: 'http://all:3' };
    const editor = { proxy: 'http://editor:4' };
    const own = environment({ ApiWorkbench: { Proxy: 'http://own:5', 'No Proxy': 'intranet.example' } });
    const pick = async (extra: Partial<NetworkSources>) => (await resolveNetwork(sources({ env, ...extra }))).settings;
    assert.equal((await pick({ environment: own, proxyFlag: 'http://flag:6', editor })).httpsProxy?.url, 'http://own:5');
    assert.equal((await pick({ proxyFlag: 'http://flag:6', editor })).httpsProxy?.url, 'http://flag:6');
    assert.equal((await pick({ editor })).httpsProxy?.url, 'http://editor:4');
    const vars = await pick({});
    assert.deepEqual([vars.httpsProxy?.url, vars.httpProxy?.url], ['http://var:1', 'http://plainvar:2']);
    assert.equal((await resolveNetwork(sources({ env: { ALL_PROXY: 'http://all:3' } }))).settings.httpProxy?.url, 'http://all:3');
    assert.equal((await pick({ editor: { ...editor, proxySupport: 'off' } })).httpsProxy, undefined);
    assert.equal((await pick({ environment: environment({ ApiWorkbench: { Proxy: 'direct' } }) })).httpsProxy, undefined);
    const words = await resolveNetwork(sources({ env, environment: own }));
    assert.equal(words.proxyWords, "http://own:5 (env file, environment 'corp'); not for intranet.example");
  });

  void it("refuses a proxy user name holding ':' (Basic would name another user), in words", async () => {
    const resolved = await resolveNetwork(sources({ env: { HTTPS_PROXY: 'http://corp%3Asvc:pw1@proxy:3128' } }));
    assert.equal(resolved.settings.httpsProxy, undefined);
    assert.ok(resolved.problems.some((p) => /proxy's user name \(HTTPS_PROXY\) holds ':'/.test(p)), resolved.problems.join(' | '));
  });

  void it('takes a proxy password from a variable or the secret store, never from a setting', async () => {
    const fromVariable = await resolveNetwork(sources({ env: { HTTPS_PROXY: 'http://alice:pw1@proxy:3128' } }));
    assert.deepEqual([fromVariable.settings.httpsProxy?.username, fromVariable.settings.httpsProxy?.password, fromVariable.settings.httpsProxy?.url], ['alice', 'pw1', 'http://proxy:3128']);
    assert.deepEqual(fromVariable.secretValues, ['pw1']);
    const fromSetting = await resolveNetwork(sources({ editor: { proxy: 'http://alice:pw2@proxy:3128' } }));
    assert.equal(fromSetting.settings.httpsProxy?.password, undefined);
    assert.match(fromSetting.problems[0]!, /password written in http\.proxy is not used/);
    assert.ok(!fromSetting.problems.join('').includes('pw2'));
    const stored = await resolveNetwork(sources({ editor: { proxy: 'http://alice@proxy:3128' }, secret: (k) => Promise.resolve(k === 'proxy.password' ? 'pw3' : undefined) }));
    assert.equal(stored.settings.httpsProxy?.password, 'pw3');
    assert.match(stored.proxyWords, /signs in as alice$/);
  });

  void it('says each certificate state in words: ready, expired, unreadable, passphrase missing, wrong passphrase', async () => {
    const config = (body: Record<string, unknown>) => environment({ SSLConfiguration: { hosts: ['api.example'], ...body } });
    const state = async (body: Record<string, unknown>, extra: Partial<NetworkSources> = {}) =>
      (await resolveNetwork(sources({ environment: config(body), ...extra }))).certificates[0]!;
    const ready = await state({ clientCertificate: 'client.pem', clientCertificateKey: 'client.key' });
    assert.equal(ready.condition, 'ready');
    assert.match(ready.words, /^valid until \d{4}-\d\d-\d\d$/);
    const expired = await state({ clientCertificate: 'client.pem', clientCertificateKey: 'client.key' }, { now: Date.now() + 5 * DAY });
    assert.equal(expired.condition, 'expired');
    assert.match(expired.words, /^expired on /);
    assert.equal((await state({ clientCertificate: 'missing.pem' })).words, 'unreadable: no such file');
    assert.match((await state({ clientCertificate: 'client.pem', clientCertificateKey: 'ca.key' })).words, /unreadable: the key does not belong/);
    const missing = await state({ clientCertificate: 'client.pfx', hasCertificatePassphrase: true });
    assert.equal(missing.condition, 'passphrase-missing');
    assert.equal(missing.words, 'passphrase missing (VS Code: "Set Client Certificate Passphrase"; apiwb: APIWB_SECRET_CLIENT_CERTIFICATE_PASSPHRASE)');
    const wrong = await state({ clientCertificate: 'client.pfx', hasCertificatePassphrase: true }, { secret: () => Promise.resolve('not-it') });
    assert.equal(wrong.condition, 'unreadable');
    const opens = await resolveNetwork(sources({ environment: config({ clientCertificate: 'client.pfx', hasCertificatePassphrase: true }), secret: (k) => Promise.resolve(k === 'client-certificate.passphrase' ? 'open-sesame' : undefined) }));
    assert.equal(opens.certificates[0]!.condition, 'ready');
    assert.equal(opens.settings.clientCertificates?.length, 1);
    assert.deepEqual(opens.secretValues, ['open-sesame']);
  });

  void it('adds CA bundles on top of the system, and names an unreadable one', async () => {
    const env = environment({ ApiWorkbench: { 'CA Bundle': ['ca.pem', 'nowhere.pem'] } });
    const resolved = await resolveNetwork(sources({ environment: env, env: { NODE_EXTRA_CA_CERTS: pki.caFile } }));
    assert.equal(resolved.settings.extraCa?.length, 2);
    assert.deepEqual(resolved.authorities, ['ca.pem: 1 authority (env file)', 'nowhere.pem: unreadable (no such file) (env file)', `${pki.caFile}: 1 authority (NODE_EXTRA_CA_CERTS)`]);
    assert.match(resolved.problems[0]!, /nowhere\.pem/);
  });
});
