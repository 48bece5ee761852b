// The editor's secret store: a secret is kept under the place it was entered (workspace folder, env file,
// environment) with the hosts it is bound to; the same names elsewhere, other hosts, or a first version's key
// are handed out only after a question naming both hosts (answered here by the test, as the editor's modal would).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { knownSecretValues } from '../../src/core/secrets';
import { MemorySecretStore } from '../../src/core/secrets/secretStore';
import type { Environment } from '../../src/core/env/model';
import { heldSecrets, ScopedSecretStore, type AdoptQuestion, type SecretScope } from '../../src/extension/credentials/scopedSecretStore';

function environment(name: string, base: string, auth = 'https://auth.one.test'): Environment {
  return {
    name,
    variables: { base_url: base, auth_url: auth, tenant: 'T1' },
    auth: {
      engagement: { id: 'engagement', kind: 'password-grant', section: 'Security.Auth', tokenUrl: `${auth}/token`, username: 'u' },
      fundraising: { id: 'fundraising', kind: 'basic-api-key', section: 'ApiWorkbench.Auth', permissionName: 'p', tenantCode: 'T1' },
    },
  };
}

function scopeOf(folder: string, envFile: string, env: Environment): SecretScope {
  return { place: { folder, envFile, environment: env.name }, environment: env };
}

void test('a secret entered in one workspace is not what another workspace with the same environment and auth names gets', async () => {
  const inner = new MemorySecretStore();
  const asked: AdoptQuestion[] = [];
  let scope = scopeOf('file:///work/one', 'http-client.env.json', environment('production', 'https://api.one.test'));
  const store = new ScopedSecretStore(inner, () => scope, (q) => { asked.push(q); return Promise.resolve(false); });
  await store.set('fundraising.service_key', 'key-of-one-1234');
  assert.equal(await store.get('fundraising.service_key'), 'key-of-one-1234');

  scope = scopeOf('file:///work/clone', 'http-client.env.json', environment('production', 'https://evil.test'));
  assert.equal(await store.get('fundraising.service_key'), undefined, 'get never hands it to the other workspace');
  assert.equal(asked.length, 0, 'showing state asks nothing');
  assert.equal(await store.adopt('fundraising.service_key'), undefined, 'declined: nothing');
  assert.equal(asked.length, 1);
  assert.match(asked[0]!.message, /https:\/\/api\.one\.test/, 'the question names the host it was entered for');
  assert.match(asked[0]!.message, /https:\/\/evil\.test/, 'and the host it would go to');
  assert.match(asked[0]!.message, /\/work\/one\/http-client\.env\.json/);
  assert.doesNotMatch(JSON.stringify(asked), /key-of-one-1234/, 'the question never holds the value');
  assert.equal(await store.adopt('fundraising.service_key'), undefined);
  assert.equal(asked.length, 1, 'a question declined is not asked again in the session');
});

void test('accepted: the value is kept for the new place, bound to its hosts; the first place keeps its own', async () => {
  const inner = new MemorySecretStore();
  let scope = scopeOf('file:///work/one', 'http-client.env.json', environment('production', 'https://api.one.test'));
  const store = new ScopedSecretStore(inner, () => scope, () => Promise.resolve(true));
  await store.set('engagement.access_token', 'token-of-one-1234');
  await store.set('engagement.session', '{"expiresAt":1}');
  scope = scopeOf('file:///work/two', 'other/http-client.env.json', environment('production', 'https://api.two.test'));
  assert.equal(await store.get('engagement.access_token'), undefined);
  assert.equal(await store.adopt('engagement.access_token'), 'token-of-one-1234');
  assert.equal(await store.get('engagement.access_token'), 'token-of-one-1234', 'kept here now');
  assert.equal(await store.get('engagement.session'), '{"expiresAt":1}', 'with its session');
  const held = await heldSecrets(inner);
  const origins = held.filter((h) => h.value === 'token-of-one-1234').map((h) => [...h.origins].join(' '));
  assert.deepEqual(origins.sort(), ['https://api.one.test https://auth.one.test', 'https://api.two.test https://auth.one.test']);
});

void test('the same place whose env file now points elsewhere is asked, naming both hosts', async () => {
  const inner = new MemorySecretStore();
  let scope = scopeOf('file:///work/one', 'http-client.env.json', environment('production', 'https://api.one.test'));
  const asked: AdoptQuestion[] = [];
  const store = new ScopedSecretStore(inner, () => scope, (q) => { asked.push(q); return Promise.resolve(false); });
  await store.set('engagement.password', 'password-1234');
  // The password is bound to its Token URL's origin only: moving the API host does not move it.
  scope = scopeOf('file:///work/one', 'http-client.env.json', environment('production', 'https://api.moved.test'));
  assert.equal(await store.get('engagement.password'), 'password-1234');
  scope = scopeOf('file:///work/one', 'http-client.env.json', environment('production', 'https://api.one.test', 'https://auth.evil.test'));
  assert.equal(await store.get('engagement.password'), undefined, 'a Token URL elsewhere gets nothing by itself');
  assert.equal(await store.adopt('engagement.password'), undefined);
  assert.match(asked[0]!.message, /entered for https:\/\/auth\.one\.test, and .* now points it at https:\/\/auth\.evil\.test/);
});

void test('a first version\'s key (environment/auth.field) is never handed out as it is: asked, then moved', async () => {
  const inner = new MemorySecretStore({ 'production/fundraising.service_key': 'legacy-key-1234' });
  const scope = scopeOf('file:///work/one', 'http-client.env.json', environment('production', 'https://api.one.test'));
  let answer = false;
  const asked: AdoptQuestion[] = [];
  const store = new ScopedSecretStore(inner, () => scope, (q) => { asked.push(q); return Promise.resolve(answer); });
  assert.equal(await store.get('fundraising.service_key'), undefined);
  assert.equal(await store.adopt('fundraising.service_key'), undefined);
  assert.match(asked[0]!.message, /earlier version .* Send it to https:\/\/api\.one\.test, https:\/\/auth\.one\.test\?/);
  const held = await heldSecrets(inner);
  assert.deepEqual(held.map((h) => h.origins), [[]], 'until then it is bound to no host');
  answer = true;
  const fresh = new ScopedSecretStore(inner, () => scope, (q) => { asked.push(q); return Promise.resolve(answer); });
  assert.equal(await fresh.adopt('fundraising.service_key'), 'legacy-key-1234');
  assert.equal(await inner.get('production/fundraising.service_key'), undefined, 'the old key is gone');
  assert.equal(await fresh.get('fundraising.service_key'), 'legacy-key-1234');
  assert.deepEqual(await knownSecretValues(inner), ['legacy-key-1234'], 'the redactor still learns the plain value');
});

void test('keys and delete see this place only', async () => {
  const inner = new MemorySecretStore();
  let scope = scopeOf('file:///work/one', 'http-client.env.json', environment('production', 'https://api.one.test'));
  const store = new ScopedSecretStore(inner, () => scope);
  await store.set('engagement.password', 'prod-secret');
  scope = scopeOf('file:///work/one', 'http-client.env.json', environment('staging', 'https://api.one.test'));
  assert.equal(await store.get('engagement.password'), undefined, 'staging does not see production\'s password');
  await store.set('engagement.password', 'staging-secret');
  assert.deepEqual(await store.keys(), ['engagement.password']);
  assert.equal((await inner.keys()).length, 2);
  await store.delete('engagement.password');
  scope = scopeOf('file:///work/one', 'http-client.env.json', environment('production', 'https://api.one.test'));
  assert.equal(await store.get('engagement.password'), 'prod-secret', 'deleting in staging leaves production alone');
});
