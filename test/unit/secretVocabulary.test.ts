// One secret vocabulary (src/core/secrets/vocabulary.ts), asked by every check: a credential header or a
// secret name that one of them knows, all of them know. Each hostile name below is tried against the
// redactor, paging checkpoints, copy as curl, collections, the env-file check and the Postman import.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { secretProblem } from '../../src/core/collections/requestBlocks';
import { parseEnvFile } from '../../src/core/env/loadEnvFile';
import { importPostmanCollection } from '../../src/core/interop';
import { toCurl } from '../../src/core/interop/curl';
import { withoutSecrets } from '../../src/core/paging/checkpoint';
import { Redactor } from '../../src/core/secrets';
import { REDACTED } from '../../src/core/secrets/redact';
import { hasLiteral, hasReference, referencesIn } from '../../src/core/secrets/vocabulary';
import { braceHeavyTexts, REFERENCE_EXPRESSION } from './braceTexts';

const HEADERS = ['Authorization', 'Proxy-Authorization', 'X-API-Key', 'Cookie', 'X-Auth-Token', 'Ocp-Apim-Subscription-Key', 'X-Amz-Security-Token', 'Private-Token'];
const NAMES = ['password', 'token', 'secret', 'api_key', 'client_secret', 'aws_secret_access_key', 'db_password', 'refresh_token', 'service_key', 'privateKey'];
const NOT_SECRET = ['page_token', 'nextPageToken', 'token_url', 'tokenType', 'token_count', 'username', 'tenant_code'];
const SCHEMA = 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json';
const LITERAL = 'L1teral-Secret-Value';

void describe('credential headers: every check agrees', () => {
  for (const name of HEADERS) {
    void it(name, () => {
      assert.equal(new Redactor().headerValue(name, LITERAL), REDACTED, 'redaction');
      const stored = withoutSecrets({ method: 'GET', url: 'https://h/x', headers: { [name]: LITERAL, Accept: 'a' } });
      assert.deepEqual(Object.keys(stored.headers), ['Accept'], 'checkpoint');
      const curl = toCurl({ method: 'GET', url: 'https://h/x', headers: { [name]: LITERAL } });
      assert.ok(!curl.command.includes(LITERAL) && curl.hiddenHeaders.includes(name), 'curl');
      assert.match(secretProblem(`GET https://h/x\n${name}: ${LITERAL}\n`) ?? '', new RegExp(`its ${name} header holds a literal credential`), 'collections');
      const imported = importPostmanCollection(JSON.stringify({ info: { name: 'c', schema: SCHEMA }, item: [{ name: 'r', request: { method: 'GET', url: 'https://h/x', header: [{ key: name, value: LITERAL }] } }] }), 'c.json');
      assert.ok(!imported.files[0]!.text.includes(LITERAL) && imported.dropped.some((d) => d.what === `header ${name}`), 'postman import');
    });
  }
});

void describe('secret names: every check agrees', () => {
  for (const name of NAMES) {
    void it(name, () => {
      assert.equal(new Redactor().text(`${name}=${LITERAL}`), `${name}=${REDACTED}`, 'redaction of text');
      assert.deepEqual(new Redactor().row({ [name]: LITERAL }), { [name]: REDACTED }, 'redaction of rows');
      assert.equal(withoutSecrets({ method: 'GET', url: `https://h/x?${name}=${LITERAL}`, headers: {} }).url, `https://h/x?${name}=`, 'checkpoint');
      assert.match(secretProblem(`GET https://h/x?${name}=${LITERAL}\n`) ?? '', /holds a literal secret/, 'collections');
      assert.throws(() => parseEnvFile(JSON.stringify({ dev: { [name]: LITERAL } }), 'env.json'), new RegExp(`key '${name}': holds a secret value`), 'env-file check');
      const imported = importPostmanCollection(JSON.stringify({ info: { name: 'c', schema: SCHEMA }, item: [], variable: [{ key: name, value: LITERAL }] }), 'c.json');
      assert.deepEqual(imported.environment.variables, {}, 'postman variables');
    });
  }
  void it('names about a secret (a cursor, a URL, a type, a count) are not secrets anywhere', () => {
    for (const name of NOT_SECRET) {
      assert.equal(new Redactor().text(`${name}=v4lue`), `${name}=v4lue`, name);
      assert.equal(secretProblem(`GET https://h/x?${name}=v4lue\n`), undefined, name);
      assert.doesNotThrow(() => parseEnvFile(JSON.stringify({ dev: { [name]: 'v4lue' } }), 'env.json'), name);
    }
  });
  void it('a value made only of {{references}} is never a secret', () => {
    assert.equal(secretProblem('GET https://h/x?password={{pw}}\nX-Auth-Token: {{token}}\n'), undefined);
    assert.doesNotThrow(() => parseEnvFile(JSON.stringify({ dev: { aws_secret_access_key: '{{from_vault}}' } }), 'env.json'));
  });
});

void describe('the one {{reference}} rule (nextReference)', () => {
  // It replaced the regular expressions the vocabulary, the resolver and copy as curl each had; on texts
  // made of braces, spaces and names it must find what they found.
  void it('finds the same spans and names, and says the same of literals, on 5 000 random texts', () => {
    for (const text of braceHeavyTexts(5000, 11)) {
      const expected = Array.from(text.matchAll(REFERENCE_EXPRESSION), (m) => ({ start: m.index, end: m.index + m[0].length, name: m[1]! }));
      assert.deepEqual(referencesIn(text), expected, JSON.stringify(text));
      assert.equal(hasReference(text), /\{\{[^{}]*\}\}/.test(text), JSON.stringify(text));
      assert.equal(hasLiteral(text), text.replace(/\{\{[^{}]*\}\}/g, '').trim() !== '', JSON.stringify(text));
    }
  });
  void it('reads the usual shapes', () => {
    assert.deepEqual(referencesIn('{{base}}/a?x={{ $auth.token("id") }}').map((r) => r.name), ['base', '$auth.token("id")']);
    assert.deepEqual(referencesIn('{{{a}}').map((r) => [r.start, r.name]), [[1, 'a']]);
    assert.deepEqual(referencesIn('{{a}b}} {{ }}'), [{ start: 8, end: 13, name: '' }]);
    assert.deepEqual(referencesIn('{{never closed'), []);
  });
});
