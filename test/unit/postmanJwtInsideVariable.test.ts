// Invariant (a): no JWT reaches an output file. A Postman collection variable whose name says nothing
// (`note`, `auth`) and whose value is `Bearer <JWT>` (or a JWT inside any other text) is written as it is
// into the environment the import makes (envFileWithImport: the env file that gets committed), and the
// env file check accepts it too. The rule asks whether the WHOLE value is a JWT
// (src/core/secrets/vocabulary.ts:180-182, looksLikeJwt anchors ^eyJ…$), while JWT_ANYWHERE beside it
// knows a JWT anywhere in text.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { findSecretsInEnvironment } from '../../src/core/env/secretCheck';
import { envFileWithImport } from '../../src/core/interop/postman/envFileMerge';
import { importPostmanCollection } from '../../src/core/interop/postman/importCollection';

const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhbm4ifQ.c2lnbmF0dXJlLXZhbHVlLXgxMjM0NTY3OA';
const VALUES = { note: `Bearer ${JWT}`, header: `Authorization: Bearer ${JWT}`, link: `https://api.example.com/cb?t=${JWT}` };

void describe('a JWT inside a variable value', () => {
  void it('is not written by the Postman import into the environment', () => {
    const collection = {
      info: { name: 'c', schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json' },
      variable: Object.entries(VALUES).map(([key, value]) => ({ key, value })),
      item: [{ name: 'one', request: { method: 'GET', url: 'https://api.example.com/a' } }],
    };
    const imported = importPostmanCollection(JSON.stringify(collection), 'c.json');
    const written = `${JSON.stringify(imported)}\n${envFileWithImport(imported)}`;
    assert.ok(!written.includes(JWT), `the import wrote the JWT:\n${envFileWithImport(imported)}`);
  });

  void it('is found by the env file check', () => {
    for (const [key, value] of Object.entries(VALUES)) {
      assert.equal(findSecretsInEnvironment('dev', { [key]: value }).length, 1, `${key}: ${value} not found`);
    }
    // Unlisted case: beside a reference, the JWT is still a literal written to the file.
    assert.equal(findSecretsInEnvironment('dev', { auth: `{{scheme}} ${JWT}` }).length, 1);
  });
});
