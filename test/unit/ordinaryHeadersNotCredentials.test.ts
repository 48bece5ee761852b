// Found in review of e8f20a1 (isCredentialHeader = the fixed list or any name isSecretName calls a
// secret). The invariant is "a header that carries a credential is hidden", and its other half: a header
// that carries none is shown as it is. isSecretName reads a header name as a field name: `credential`
// is one of its secret words, so the CORS response header `Access-Control-Allow-Credentials` (a boolean
// every browser-facing API answers with: `true`) is now a credential header: the panel, history, compare
// and reports show `Access-Control-Allow-Credentials: [redacted]`, which is what a user debugging CORS
// needs to read; and Symfony's `X-Debug-Token-Link` (the URL of the request's profile page) reads
// [redacted]. Before e8f20a1 both were shown. Their neighbours (`Access-Control-Allow-Headers`) are shown.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { isCredentialHeader } from '../../src/core/secrets/vocabulary';
import { Redactor } from '../../src/core/secrets/redact';

const ORDINARY: Readonly<Record<string, string>> = {
  'Access-Control-Allow-Credentials': 'true',
  'Access-Control-Allow-Headers': 'Authorization, X-API-Key',
  'Access-Control-Allow-Origin': 'https://app.example',
  'X-Token-Expires': '3600',
  // Symfony's profiler answers with the link to the request's profile page (a URL, not a credential).
  'X-Debug-Token-Link': 'https://app.example/_profiler/a1b2c3',
  'Content-Type': 'application/json',
};

void describe('ordinary response headers are not credentials', () => {
  for (const [name, value] of Object.entries(ORDINARY)) {
    void it(`${name}: ${value} is shown as it is`, () => {
      assert.equal(isCredentialHeader(name), false, `${name} is taken for a credential header`);
      assert.equal(new Redactor().headers({ [name]: value })[name], value);
    });
  }

  void it('a credential header is still hidden (control)', () => {
    assert.notEqual(new Redactor().headers({ 'X-Service-Token': 'abcd1234efgh' })['X-Service-Token'], 'abcd1234efgh');
  });
});
