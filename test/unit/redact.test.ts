// Redaction: credential headers by name, secret fields of form and JSON bodies and query strings, and
// any known secret value wherever it appears in text.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { basicCredential } from '../../src/core/auth/basicCredential';
import { Redactor, knownSecretValues, secretKey } from '../../src/core/secrets/index';
import { MemorySecretStore, secretEnvVarName } from '../../src/core/secrets/secretStore';
import { REDACTED } from '../../src/core/secrets/redact';
import type { HttpResponse } from '../../src/core/http/types';
import { isSecretName, SECRET_NAME_HINT } from '../../src/core/secrets/vocabulary';

const KEY = 'sk_961d8d1fda54eb8f1cdef8236bdb91cb';
const PASSWORD = 'Sandbox Demo&1=x';

void describe('redaction', () => {
  void it('redacts Authorization (keeping the scheme), X-API-Key, Cookie and Set-Cookie; leaves other headers', () => {
    const r = new Redactor();
    const headers = { Authorization: `Basic ${basicCredential('p', KEY)}`, 'X-API-Key': 'TENANT-1', Cookie: 'sid=abc', 'set-cookie': 'sid=abc; HttpOnly', Accept: 'application/json' };
    assert.deepEqual(r.headers(headers), { Authorization: `Basic ${REDACTED}`, 'X-API-Key': REDACTED, Cookie: REDACTED, 'set-cookie': REDACTED, Accept: 'application/json' });
    assert.equal(r.headerValue('authorization', 'Bearer eyJabc.def.ghi'), `Bearer ${REDACTED}`);
    assert.equal(r.headerValue('Authorization', 'opaque'), REDACTED);
  });

  void it('redacts password and access_token in form bodies, and secret-named fields at any depth in JSON', () => {
    const r = new Redactor();
    const form = r.body(`grant_type=password&username=demo&password=${encodeURIComponent(PASSWORD)}`, 'application/x-www-form-urlencoded');
    assert.equal(form, `grant_type=password&username=demo&password=${REDACTED}`);
    const json = r.body(JSON.stringify({ access_token: 'tok-123456', token_type: 'bearer', nested: [{ Password: 'p4ssw0rd', keep: 1 }] }), 'application/json');
    assert.deepEqual(JSON.parse(json), { access_token: REDACTED, token_type: 'bearer', nested: [{ Password: REDACTED, keep: 1 }] });
    const pretty = r.body('{\n  "password": "x-secret"\n}', '');
    assert.equal(pretty, `{\n  "password": "${REDACTED}"\n}`, 'pretty JSON stays pretty; JSON detected without a content type');
  });

  void it('scrubs known secret values anywhere, also URL-encoded, and Bearer/Basic credentials in free text', () => {
    const r = new Redactor([KEY, PASSWORD, 'ab']);
    assert.equal(r.text(`error: key ${KEY} refused`), `error: key ${REDACTED} refused`);
    assert.equal(r.text(`body=${encodeURIComponent(PASSWORD)}`), `body=${REDACTED}`);
    assert.equal(r.text('about tabs'), 'about tabs', 'values shorter than 4 characters are not scrubbed from text');
    assert.equal(r.text('curl -H "Authorization: Bearer eyJhbGciOi.eyJzdWIi.sig"'), `curl -H "Authorization: Bearer ${REDACTED}"`);
    assert.equal(r.text('GET /x?access_token=abc123&page=2'), `GET /x?access_token=${REDACTED}&page=2`);
  });

  void it('masks Bearer/Basic credentials in free text, never the product\'s own words after those schemes', () => {
    const r = new Redactor();
    // The product's words: command titles and advice that name the schemes.
    for (const words of ['the Sign In / Set Basic Credentials / Paste Bearer Token commands', 'Basic Auth', 'a Bearer Token', 'Basic authentication', 'Bearer token expired']) {
      assert.equal(r.text(words), words);
    }
    // Credentials: a Basic value that decodes to user:password (even letters only), a token with digits, dots or length.
    assert.equal(r.text('Authorization: Basic YTpi'), `Authorization: Basic ${REDACTED}`, 'a:b in base64, letters only');
    assert.equal(r.text('Basic QWxhZGRpbjpvcGVu sent'), `Basic ${REDACTED} sent`);
    assert.equal(r.text('Bearer abcdefgh123'), `Bearer ${REDACTED}`);
    assert.equal(r.text('Bearer eyJhbGciOi.eyJzdWIi.sig'), `Bearer ${REDACTED}`);
    assert.equal(r.text('Bearer abcdefghijklmnopqrstuvwx'), `Bearer ${REDACTED}`, 'a long token of letters only');
  });

  void it('a name=value pair is masked exactly when isSecretName says so, whether or not the text has a secret word elsewhere', () => {
    // text() skips its pair rule on a text without a word of SECRET_NAME_HINT: every name that rule could
    // mask must hold one. Names from secret and near-miss words, in any case, joined by _ . - or nothing.
    const words = ['password', 'PassWD', 'pwd', 'secret', 'token', 'api', 'key', 'apiKey', 'access', 'private', 'service', 'session', 'cookie',
      'authorization', 'credential', 'passphrase', 'subscription', 'signing', 'page', 'next', 'url', 'name', 'count', 'id', 'user', 'x', 'pass', 'KEY'];
    const joins = ['', '_', '-', '.'];
    let seed = 7;
    const pick = <T>(list: readonly T[]): T => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return list[seed % list.length]!;
    };
    const r = new Redactor();
    let masked = 0;
    for (let n = 0; n < 4000; n++) {
      const parts = Array.from({ length: 1 + (n % 3) }, () => pick(words));
      const name = parts.reduce((all, part) => `${all}${pick(joins)}${part}`);
      const line = `GET http://h/x?page=1&${name}=v4lue  200  3 ms`;
      const expected = isSecretName(name) ? `GET http://h/x?page=1&${name}=${REDACTED}  200  3 ms` : line;
      assert.equal(r.text(line), expected, name);
      if (isSecretName(name)) {
        masked++;
        assert.ok(SECRET_NAME_HINT.test(name), name);
      }
    }
    assert.ok(masked > 1000 && masked < 3900, `both kinds of names were tried (${masked} secret of 4000)`);
  });

  void it('redacts URLs: secret query parameters and user info', () => {
    const r = new Redactor();
    assert.equal(r.url('https://user:pw@example.test/a?api_key=zzz&page=1'), `https://user:${REDACTED}@example.test/a?api_key=${REDACTED}&page=1`);
    assert.equal(r.url('not a url password=zz'), `not a url password=${REDACTED}`);
  });

  void it('a URL shown before is shown again with a secret learnt since (the URLs it remembers are forgotten)', () => {
    const r = new Redactor();
    const url = `https://example.test/t/${KEY}/orders?page=1`;
    assert.equal(r.url(url), url);
    r.addKnownSecrets([KEY]);
    assert.equal(r.url(url), `https://example.test/t/${REDACTED}/orders?page=1`);
    assert.equal(r.url(url), `https://example.test/t/${REDACTED}/orders?page=1`);
    // Many URLs: the remembered ones are bounded, answers the same.
    for (let i = 0; i < 2_500; i++) assert.equal(r.url(`https://example.test/${i}?token=t${i}`), `https://example.test/${i}?token=${REDACTED}`);
    assert.equal(r.url(url), `https://example.test/t/${REDACTED}/orders?page=1`);
  });

  void it('redacts a whole request and response for history, logs and exports', () => {
    const r = new Redactor([KEY]);
    const request = r.request({ method: 'POST', url: 'http://h/auth/token', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'grant_type=password&username=u&password=pw1234' });
    assert.equal(request.body, `grant_type=password&username=u&password=${REDACTED}`);
    const response: HttpResponse = {
      status: 200, statusText: 'OK', headers: { 'content-type': 'application/json', 'set-cookie': 'a=b' },
      bodyText: JSON.stringify({ access_token: 'tok-abcdef', echo: `key was ${KEY}` }), timing: { startedAt: 0, firstByteMs: 1, totalMs: 2 }, sizeBytes: 10,
    };
    const shown = r.response(response);
    assert.equal(shown.headers['set-cookie'], REDACTED);
    assert.deepEqual(JSON.parse(shown.bodyText), { access_token: REDACTED, echo: `key was ${REDACTED}` });
    assert.equal(response.headers['set-cookie'], 'a=b', 'the original is not modified');
  });

  void it('the SecretStore port: keys, env-var names, and every stored value known to the redactor', async () => {
    assert.equal(secretEnvVarName('engagement', 'password'), 'APIWB_SECRET_ENGAGEMENT_PASSWORD');
    assert.equal(secretEnvVarName('fundraising-user', 'token'), 'APIWB_SECRET_FUNDRAISING_USER_TOKEN');
    assert.equal(secretEnvVarName('crm.v2', 'service_key'), 'APIWB_SECRET_CRM_V2_SERVICE_KEY');
    const store = new MemorySecretStore({ [secretKey('fundraising', 'service_key')]: KEY });
    await store.set(secretKey('engagement', 'password'), PASSWORD);
    assert.deepEqual([...await store.keys()].sort(), ['engagement.password', 'fundraising.service_key']);
    const r = new Redactor(await knownSecretValues(store));
    assert.equal(r.text(`${PASSWORD} ${KEY}`), `${REDACTED} ${REDACTED}`);
    await store.delete('engagement.password');
    assert.equal(await store.get('engagement.password'), undefined);
  });
});

void it('secrets learnt again (every request of a run hands out the same token) and new ones later are all scrubbed', () => {
  const redactor = new Redactor(['abc', 'first-secret-value']);
  for (let i = 0; i < 3; i++) redactor.addKnownSecrets(['token-one-value', 'first-secret-value']);
  redactor.addKnownSecrets([]);
  redactor.addKnownSecrets(['token-one-value', 'second token/value']);
  assert.equal(
    redactor.text('first-secret-value token-one-value second token/value second%20token%2Fvalue second+token%2Fvalue abc'),
    '*** *** *** *** *** abc',
  );
});

void it('row(): a known secret used as a key (a server may echo a token as a field name) is scrubbed from the key too', () => {
  const redactor = new Redactor(['abcd1234efgh']);
  assert.deepEqual(redactor.row({ abcd1234efgh: 1, id: 2, nested: [{ 'x-abcd1234efgh': 3 }] }), { [REDACTED]: 1, id: 2, nested: [{ [`x-${REDACTED}`]: 3 }] });
  const plain = { id: 1, name: 'n' };
  assert.equal(redactor.row(plain), plain, 'a row with nothing to redact is returned as is');
  redactor.addKnownSecrets(['zq-learnt-later-9']);
  assert.deepEqual(redactor.row({ 'zq-learnt-later-9': 1 }), { [REDACTED]: 1 });
});
