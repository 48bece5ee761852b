// A walk checkpoint is written to disk beside --out: a header named as a secret (X-Service-Token,
// Api-Token: the vocabulary's isCredentialHeader, not only its fixed list) is left out of it and taken
// again from the fresh request on a resume.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { HttpRequest } from '../../src/core/http/types';
import { withSecretsFrom, withoutSecrets } from '../../src/core/paging/checkpoint';

const fresh: HttpRequest = {
  method: 'GET',
  url: 'https://sandbox.test/api/items?page=1',
  headers: { 'X-Service-Token': 'literal-service-token-123456', 'Api-Token': 'literal-api-token-654321', Accept: 'application/json' },
};

void describe('checkpoint: secret-named headers', () => {
  void it('leaves them out of the stored request and puts them back from the fresh one', () => {
    const stored = withoutSecrets(fresh);
    const text = JSON.stringify(stored);
    assert.ok(!text.includes('literal-service-token-123456'), text);
    assert.ok(!text.includes('literal-api-token-654321'), text);
    assert.equal(stored.headers.Accept, 'application/json');
    const resumed = withSecretsFrom(stored, fresh);
    assert.equal(resumed.headers['X-Service-Token'], 'literal-service-token-123456');
    assert.equal(resumed.headers['Api-Token'], 'literal-api-token-654321');
  });
});
