// One rule of a URL's user info (vocabulary.ts USERINFO), asked by the Postman import (which drops it),
// literalCredentials (which writes a reference for its password: generated code, collections, export) and
// the Redactor's text pass (which masks it): a password holding `/`, `#` or `@`, raw as a user writes it
// or percent-encoded, is the password to all three, whole; the host and path after it stay as written.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { importPostmanCollection } from '../../src/core/interop/postman/importCollection';
import { literalCredentials, scrubRequestCredentials } from '../../src/core/secrets/literalCredentials';
import { urlPasswordsMasked } from '../../src/core/secrets/redact';

const PASSWORDS = ['Pr0xy/Secret9', 'Pr0xy#Secret9', 'Pr0xy@Secret9', 'Pr0xy/Se#cr@et9', 'Pr0xy%2FSecret9', 'Pr0xy%23Secret9', 'Pr0xy%40Secret9'];
const url = (password: string): string => `https://alice:${password}@api.test/items?page=1`;

void describe('a URL password holding / # @, raw and encoded', () => {
  for (const password of PASSWORDS) {
    void it(password, () => {
      // The Postman import drops the user info whole.
      const collection = { info: { name: 'C', schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json' }, item: [{ name: 'items', request: { method: 'GET', header: [], url: url(password) } }] };
      const imported = importPostmanCollection(JSON.stringify(collection), 'c.json');
      const text = imported.files.map((f) => f.text).join('\n');
      assert.ok(!text.includes('Secret9') && !text.includes('et9'), `the import keeps the password:\n${text}`);
      assert.match(text, /^GET https:\/\/api\.test\/items\?page=1$/m, text);
      assert.ok(imported.dropped.some((d) => d.what === 'URL user:password@'));
      // literalCredentials finds it and writes the reference in its place, the rest as written.
      assert.deepEqual(literalCredentials({ url: url(password), headers: [] }).map((f) => f.place), ['userinfo']);
      assert.equal(scrubRequestCredentials({ url: url(password), headers: [] }).request.url, 'https://alice:{{url_password}}@api.test/items?page=1');
      // Shown text masks it whole.
      assert.equal(urlPasswordsMasked(`GET ${url(password)} 200`), 'GET https://alice:***@api.test/items?page=1 200');
    });
  }

  void it('a port then a path holding @ is no password, for all three', () => {
    const text = 'http://registry:4873/@scope/pkg';
    assert.deepEqual(literalCredentials({ url: text, headers: [] }), []);
    assert.equal(urlPasswordsMasked(text), text);
    const collection = { info: { name: 'C', schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json' }, item: [{ name: 'pkg', request: { method: 'GET', header: [], url: text } }] };
    const imported = importPostmanCollection(JSON.stringify(collection), 'c.json');
    assert.match(imported.files.map((f) => f.text).join('\n'), /^GET http:\/\/registry:4873\/@scope\/pkg$/m);
  });
});
