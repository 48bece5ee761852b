// Adversarial review (invariant: no secret in logs, panels, reports, history). src/core/secrets/redact.ts:
// "Three layers: header values by name, secret-named fields in form and JSON bodies and query strings,
// and any known secret value". Fields and query parameters are secret-named by isSecretName
// (`api_token`, `clientSecret`), headers only by CREDENTIAL_HEADER_NAMES: a request's `X-Service-Token`
// or `Api-Token` header written with a literal value goes unredacted into History, the panel and reports,
// while the same name as a query parameter or JSON field is masked.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Redactor } from '../../src/core/secrets/redact';

void describe('rev: the Redactor masks a header named as a secret', () => {
  void it('masks X-Service-Token and Api-Token as it masks api_token in a query', () => {
    const redactor = new Redactor();
    assert.doesNotMatch(redactor.url('http://127.0.0.1:9/items?api_token=literal-query-654321'), /literal-query-654321/);
    const headers = redactor.headers({ 'X-Service-Token': 'literal-service-token-123456', 'Api-Token': 'literal-api-token-654321' });
    assert.ok(!JSON.stringify(headers).includes('literal-service-token-123456'), JSON.stringify(headers));
    assert.ok(!JSON.stringify(headers).includes('literal-api-token-654321'), JSON.stringify(headers));
  });
});
