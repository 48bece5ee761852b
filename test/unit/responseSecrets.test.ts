// What of a response is a credential a later request may carry (src/core/secrets/responseSecrets.ts): a
// credential-looking value of a secret-named field, a credential header, a JWT anywhere; nothing else (an
// id, a count, a phrase, a token's type or lifetime, the words inside a secret-named object).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Redactor } from '../../src/core/secrets/redact';
import { responseSecrets } from '../../src/core/secrets/responseSecrets';

const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1In0.c2lnbmF0dXJlLXZhbHVl';
const json = { 'content-type': 'application/json' };

const cases: readonly { name: string; headers: Record<string, string>; body: string; secrets: string[] }[] = [
  { name: 'a secret-named field, not its neighbours', headers: json, body: JSON.stringify({ access_token: 'tok-3f9a1c7e5b2d4a60', token_type: 'bearer', expires_in: 3600, id: 'user-123456789' }), secrets: ['tok-3f9a1c7e5b2d4a60'] },
  { name: 'a credential held by a secret-named field at any depth, not the words inside a secret-named object', headers: json, body: JSON.stringify({ data: [{ credentials: { user: 'svc-account-1', apiKey: 'k-0123456789abcdef' } }] }), secrets: ['k-0123456789abcdef'] },
  { name: 'no number, phrase or short id, whatever its name says', headers: json, body: JSON.stringify({ tokens_remaining: 5000, secretQuestion: 'the name of my first pet', api_key_id: 'kid-778899', refresh_tokens: ['rt-0123456789abcdef0'] }), secrets: ['rt-0123456789abcdef0'] },
  { name: 'a JWT under any name', headers: json, body: JSON.stringify({ result: { jwt: JWT } }), secrets: [JWT] },
  { name: 'a body that is a JWT', headers: { 'content-type': 'text/plain' }, body: `${JWT}\n`, secrets: [JWT] },
  { name: 'a form body\'s secret-named field', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'access_token=gho_16C7e42F292c6912E7710c838347Ae178B4a&scope=repo', secrets: ['gho_16C7e42F292c6912E7710c838347Ae178B4a'] },
  { name: 'a credential header, and the credential after its scheme', headers: { 'X-Auth-Token': 'Bearer s3ss10n-abcdef012345', 'X-Request-Id': 'req-0123456789' }, body: '', secrets: ['Bearer s3ss10n-abcdef012345', 's3ss10n-abcdef012345'] },
  { name: 'nothing secret', headers: json, body: JSON.stringify({ next_page_token: 'cursor-0123456789', total: 12 }), secrets: [] },
];

for (const c of cases) {
  void test(`response secrets: ${c.name}`, () => {
    assert.deepEqual([...responseSecrets({ headers: c.headers, bodyText: c.body })].sort(), [...c.secrets].sort());
  });
}

void test('response secrets: every one but a JWT is one the Redactor masks in that response (the Redactor as oracle)', () => {
  const redactor = new Redactor();
  for (const c of cases) {
    const shown = JSON.stringify(redactor.response({ status: 200, statusText: 'OK', headers: c.headers, bodyText: c.body, timing: { startedAt: 0, firstByteMs: 0, totalMs: 0 }, sizeBytes: 0 }));
    const shownInClear = responseSecrets({ headers: c.headers, bodyText: c.body }).filter((value) => !value.startsWith('eyJ') && shown.includes(value));
    assert.deepEqual(shownInClear, [], c.name);
  }
});
