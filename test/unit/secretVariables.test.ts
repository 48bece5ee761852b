// Which APIWB_SECRET_* variable gives which secret (src/core/secrets/secretVariables.ts): a name two
// secrets could share is read for none of them; every unambiguous name reads as it always did.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { SecretVariables } from '../../src/core/secrets/secretVariables';

const jwt = { type: 'jwt' } as never;
const env = (name: string, ...ids: string[]): { name: string; auth: Record<string, never> } => ({ name, auth: Object.fromEntries(ids.map((id) => [id, jwt])) });

void describe('SecretVariables: one variable, one secret', () => {
  void it('reads the documented names where no other secret shares them', () => {
    const v = new SecretVariables([env('production', 'engagement', 'fundraising-user', 'crm.v2')]);
    assert.deepEqual(v.variablesFor('engagement', 'password', 'production'), [
      { name: 'APIWB_SECRET_PRODUCTION__ENGAGEMENT_PASSWORD' }, { name: 'APIWB_SECRET_ENGAGEMENT_PASSWORD' },
    ]);
    assert.equal(v.valueOf({ APIWB_SECRET_FUNDRAISING_USER_TOKEN: 't' }, 'fundraising-user', 'token'), 't');
    assert.equal(v.valueOf({ APIWB_SECRET_CRM_V2_SERVICE_KEY: 'k' }, 'crm.v2', 'service_key'), 'k');
    // The environment's own first.
    assert.equal(v.valueOf({ APIWB_SECRET_PRODUCTION__ENGAGEMENT_PASSWORD: 'own', APIWB_SECRET_ENGAGEMENT_PASSWORD: 'plain' }, 'engagement', 'password', 'production'), 'own');
  });

  void it('two environments written alike share their own names: read for neither, the plain name still is', () => {
    const v = new SecretVariables([env('prod-eu', 'svc'), env('prod.eu', 'svc')]);
    const [own, plain] = v.variablesFor('svc', 'token', 'prod-eu');
    assert.equal(own?.name, 'APIWB_SECRET_PROD_EU__SVC_TOKEN');
    assert.match(own?.refused ?? '', /environments 'prod-eu' and 'prod\.eu'/);
    assert.equal(plain?.refused, undefined);
    assert.equal(v.valueOf({ APIWB_SECRET_PROD_EU__SVC_TOKEN: 'x' }, 'svc', 'token', 'prod-eu'), undefined);
  });

  void it('auth ids that differ only in case or punctuation share a name: read for neither', () => {
    const v = new SecretVariables([env('a', 'Svc'), env('b', 'svc')]);
    assert.equal(v.valueOf({ APIWB_SECRET_SVC_TOKEN: 'x' }, 'svc', 'token'), undefined);
    assert.match(v.hint('svc', 'token'), /^no environment variable can give it: the auth ids 'Svc' and 'svc'/);
  });

  void it('a part that starts or ends with a separator or holds __ could be another split: never read', () => {
    const v = new SecretVariables([env('prod-', 'svc'), env('prod', '-svc', 'a--b', 'ok')]);
    // `prod-` + `svc` and `prod` + `-svc` are both APIWB_SECRET_PROD___SVC_TOKEN.
    assert.ok(v.variablesFor('svc', 'token', 'prod-')[0]?.refused);
    assert.ok(v.variablesFor('-svc', 'token', 'prod')[0]?.refused);
    assert.ok(v.variablesFor('a--b', 'token')[0]?.refused, 'APIWB_SECRET_A__B_TOKEN is environment A\'s own name for auth b');
    assert.equal(v.variablesFor('ok', 'token', 'prod')[0]?.refused, undefined);
  });

  void it('what sign-in obtains is never read from a variable, so `x_access` TOKEN and `x` ACCESS_TOKEN cannot meet', () => {
    const v = new SecretVariables([env('e', 'x', 'x_access')]);
    assert.equal(v.valueOf({ APIWB_SECRET_X_ACCESS_TOKEN: 't' }, 'x', 'access_token'), undefined);
    assert.equal(v.valueOf({ APIWB_SECRET_X_ACCESS_TOKEN: 't' }, 'x_access', 'token'), 't');
  });

  void it("the proxy password's name is never an auth entry's", () => {
    const v = new SecretVariables([env('e', 'proxy')]);
    assert.equal(v.valueOf({ APIWB_SECRET_PROXY_PASSWORD: 'p' }, 'proxy', 'password'), undefined);
    assert.equal(v.valueOf({ APIWB_SECRET_PROXY_TOKEN: 't' }, 'proxy', 'token'), 't');
  });
});
