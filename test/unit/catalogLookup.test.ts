import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createCatalog } from '../../src/core/catalog';

void test('the catalog lists the three services of the contracts', () => {
  const catalog = createCatalog();
  assert.deepEqual(catalog.services.map((s) => s.id), ['engagement', 'fundraising', 'booking']);
});
