import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MemorySecretStore } from '../../src/core/secrets';
import { ScopedSecretStore } from '../../src/extension/credentials/scopedSecretStore';

void test('a secret stored for one environment is not seen from another', async () => {
  const inner = new MemorySecretStore();
  let environment = 'production';
  const scoped = new ScopedSecretStore(inner, () => environment);
  await scoped.set('engagement.password', 'prod-secret');
  assert.equal(await scoped.get('engagement.password'), 'prod-secret');
  environment = 'staging';
  assert.equal(await scoped.get('engagement.password'), undefined, 'staging does not see production\'s password');
  await scoped.set('engagement.password', 'staging-secret');
  assert.deepEqual(await scoped.keys(), ['engagement.password']);
  assert.deepEqual([...(await inner.keys())].sort(), ['production/engagement.password', 'staging/engagement.password']);
  await scoped.delete('engagement.password');
  environment = 'production';
  assert.equal(await scoped.get('engagement.password'), 'prod-secret', 'deleting in staging leaves production alone');
});
