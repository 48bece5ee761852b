// Adversarial review (invariant: no secret in generated code; Copy as curl). src/core/interop/curl.ts:
// "the values of credential headers … become shell variables … or '***'; secret-named body/query fields
// and any known secret value are redacted". A query parameter named as a secret (`api_token`) is
// redacted by its name, but a header the same vocabulary names as a secret (`X-Service-Token`,
// isSecretName) keeps its literal value in the command: only CREDENTIAL_HEADER_NAMES are hidden.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { toCurl } from '../../src/core/interop/curl';

void describe('rev: Copy as curl hides a header named as a secret', () => {
  void it('does not print the literal value of X-Service-Token', () => {
    const { command } = toCurl({
      method: 'GET',
      url: 'http://127.0.0.1:9/items?api_token=literal-query-654321',
      headers: { 'X-Service-Token': 'literal-service-token-123456', Authorization: 'Bearer literal-bearer-777777' },
    });
    assert.ok(!command.includes('literal-query-654321'), command);
    assert.ok(!command.includes('literal-bearer-777777'), command);
    assert.ok(!command.includes('literal-service-token-123456'), `the header's value is in the command:\n${command}`);
  });
});
