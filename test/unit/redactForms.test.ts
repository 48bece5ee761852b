// The Redactor masks a known secret in every form the send boundary knows it by (secretForms.ts): a
// server that echoes a token base64- or base64url-encoded (a redirect's Location, an error body) must not
// get it printed.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Redactor } from '../../src/core/secrets/index';
import { REDACTED } from '../../src/core/secrets/redact';

const SECRET = 's3cr3tTokenValue';
const b64 = Buffer.from(SECRET).toString('base64');
const b64url = Buffer.from(SECRET).toString('base64url');

void describe('the Redactor masks a secret in its encoded forms', () => {
  void it('masks base64 (padded) and base64url (with and without padding) of a known value', () => {
    assert.ok(b64.endsWith('='), 'the fixture is padded in base64');
    const r = new Redactor([SECRET]);
    for (const form of [b64, b64url, `${b64url}==`, b64.replace(/=+$/, '')]) {
      const shown = r.text(`not sent to http://127.0.0.1:9/leakb/${form}?x=1`);
      assert.ok(!shown.includes(b64url), `${form} was shown: ${shown}`);
      assert.ok(shown.includes(REDACTED), shown);
    }
  });

  void it('masks the secret inside a longer base64 text (user:token) and a URL learnt after the value', () => {
    const r = new Redactor();
    r.addKnownSecrets([SECRET]);
    const basic = Buffer.from(`someone:${SECRET}`).toString('base64');
    assert.ok(!r.text(`echo ${basic}`).includes(basic.slice(12, 28)));
    assert.ok(!r.url(`http://127.0.0.1:9/leakb/${b64url}`).includes(b64url));
  });

  void it('leaves unrelated text alone', () => {
    const r = new Redactor([SECRET]);
    assert.equal(r.text('GET http://127.0.0.1:9/leakb/aGVsbG8gd29ybGQ'), 'GET http://127.0.0.1:9/leakb/aGVsbG8gd29ybGQ');
  });
});
