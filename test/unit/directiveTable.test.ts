// The directives table (src/core/httpfile/directives.ts) is the one home of every fact about a `# @` key:
// what completion offers and which keys stop redirects are read from it, not listed beside it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { READ_DIRECTIVES, followsRedirects } from '../../src/core/httpfile/directives';

void test('completion offers the directives the product acts on, once each, not the tools\' twins', () => {
  assert.deepEqual(READ_DIRECTIVES.map(([key]) => key), ['name', 'paging', 'no-redirect', 'disabled']);
  for (const [, doc] of READ_DIRECTIVES) assert.ok(doc.length > 0);
});

void test('JetBrains @no-redirect and httpYac @noRedirect both stop redirects; other keys, and another case, do not', () => {
  assert.equal(followsRedirects({}), true);
  assert.equal(followsRedirects({ name: 'a', paging: 'none' }), true);
  assert.equal(followsRedirects({ 'no-redirect': '' }), false);
  assert.equal(followsRedirects({ noRedirect: '' }), false);
  assert.equal(followsRedirects({ NoRedirect: '' }), true);
  assert.equal(followsRedirects(Object.fromEntries([['__proto__', ''], ['constructor', '']])), true);
});
