// One list of secret words (src/core/secrets/vocabulary.ts), matched two ways: a header by the parts of
// its name, any other name by substrings. A word in the list is a secret word for both rules (before,
// `pwd` made a header part a credential, `X-Db-Pwd`, but not a name, `db_pwd`; and only `credentials` of
// the header words was read in the plural). The describing words that stop a match stay as they were:
// whole header parts for the short ones, substrings for names.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isCredentialHeader, isSecretName } from '../../src/core/secrets/vocabulary';
import { Redactor } from '../../src/core/secrets';

void describe('one list of secret words, two ways of matching', () => {
  void it('every secret word makes both a header part and a name a secret', () => {
    for (const word of ['password', 'passwd', 'passphrase', 'pwd', 'secret', 'token', 'credential', 'apikey', 'servicekey']) {
      assert.equal(isCredentialHeader(`X-Db-${word}`), true, `header X-Db-${word}`);
      assert.equal(isSecretName(`db_${word}`), true, `name db_${word}`);
    }
  });

  void it('a plural header part is still the word (X-Client-Secrets, X-Credentials)', () => {
    assert.equal(isCredentialHeader('X-Client-Secrets'), true);
    assert.equal(isCredentialHeader('X-Credentials'), true);
  });

  void it('describing words: Access-Control-*, X-Token-Expires, X-Debug-Token-Link are not credentials; short ones only as whole parts', () => {
    for (const name of ['Access-Control-Allow-Credentials', 'Access-Control-Allow-Headers', 'X-Token-Expires', 'X-Debug-Token-Link', 'X-Token-TTL', 'X-Api-Key-Name']) assert.equal(isCredentialHeader(name), false, name);
    for (const name of ['little_secret', 'linkedin_token', 'settlement_token']) assert.equal(isSecretName(name), true, name);
    for (const name of ['nextPageToken', 'token_url', 'syncToken', 'token_expires_in']) assert.equal(isSecretName(name), false, name);
  });

  void it('the Redactor masks a db_pwd field (a name it let through before)', () => {
    const redactor = new Redactor();
    assert.equal(redactor.body('{"db_pwd":"hunter2-value"}', 'application/json').includes('hunter2-value'), false);
    assert.deepEqual(redactor.row({ db_pwd: 'hunter2-value', id: 1 }), { db_pwd: '***', id: 1 });
  });
});
