// The send boundary's rule (src/core/secrets/bindings.ts) and the one cross-origin rule (crossOrigin.ts),
// held as an invariant: a held secret is found in a request whatever part holds it and however it is
// encoded — the listed encodings and any chain of them drawn at random (seeded), at any offset — and a
// request that would carry it to an origin it is not bound to is refused, naming both origins.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { HttpRequest } from '../../src/core/http/types';
import { environmentOrigins, originsFor, SecretBindings } from '../../src/core/secrets/bindings';
import { droppedWords, hopTo } from '../../src/core/secrets/crossOrigin';
import { secretForms } from '../../src/core/secrets/secretForms';
import type { Environment } from '../../src/core/env/model';

const HOME = 'https://api.home.test';
const AUTH = 'https://auth.home.test';
const ELSEWHERE = 'https://api.elsewhere.test';
const TOKEN = 'tok-9f8e7d6c5b4a-3210';

function guard(): SecretBindings {
  const g = new SecretBindings();
  g.bind(TOKEN, [HOME], "the token of auth 'engagement'");
  g.bind('pass-word-4321', [AUTH], "the password of auth 'engagement'");
  return g;
}

function get(url: string, headers: Record<string, string> = {}, body?: string, method = 'GET'): HttpRequest {
  return { method, url, headers, ...(body === undefined ? {} : { body }) };
}

/** A deterministic generator (mulberry32), so a failure can be run again. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a |= 0; a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ENCODERS: readonly [string, (text: string) => string][] = [
  ['base64', (t) => Buffer.from(t).toString('base64')],
  ['base64url', (t) => Buffer.from(t).toString('base64url')],
  ['percent', (t) => encodeURIComponent(t)],
  ['form', (t) => new URLSearchParams({ v: t }).toString().slice(2)],
  ['json', (t) => JSON.stringify(t).slice(1, -1)],
  // A JSON string that spells every lower-case letter as \u00XX (and escapes the rest as JSON must).
  ['json-unicode', (t) => [...t].map((c) => (/[a-z]/.test(c) ? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}` : JSON.stringify(c).slice(1, -1))).join('')],
  ['json-document', (t) => JSON.stringify({ note: 'x', inner: t })],
];

void describe('the send boundary finds a held secret', () => {
  void it('in every part of a request, under any header name, and refuses it to another origin naming both', () => {
    const g = guard();
    const cases: [string, HttpRequest][] = [
      ['header X-Api-Token', get(`${ELSEWHERE}/x`, { 'X-Api-Token': TOKEN })],
      ['header Authorization', get(`${ELSEWHERE}/x`, { Authorization: `Bearer ${TOKEN}` })],
      ['query parameter q', get(`${ELSEWHERE}/x?page=1&q=${encodeURIComponent(TOKEN)}`)],
      ['the URL', get(`${ELSEWHERE}/files/${TOKEN}/x`)],
      ['the user info of the URL', get(`https://u:${TOKEN}@api.elsewhere.test/x`)],
      ['the body', get(`${ELSEWHERE}/x`, { 'Content-Type': 'application/json' }, JSON.stringify({ deep: [{ t: TOKEN }] }), 'POST')],
      ['the body', get(`${ELSEWHERE}/x`, { 'Content-Type': 'multipart/form-data; boundary=b' }, `--b\r\nContent-Disposition: form-data; name="f"\r\n\r\n${TOKEN}\r\n--b--\r\n`, 'POST')],
      ['the body', get(`${ELSEWHERE}/x`, {}, JSON.stringify({ blob: Buffer.from(JSON.stringify({ auth: TOKEN })).toString('base64') }), 'POST')],
      ['header X-Basic', get(`${ELSEWHERE}/x`, { 'X-Basic': `Basic ${Buffer.from(`someone:${TOKEN}`).toString('base64')}` })],
      ["a header's name", get(`${ELSEWHERE}/x`, { [`X-${TOKEN}`]: '1' })],
      ["a query parameter's name", get(`${ELSEWHERE}/x?${TOKEN}=1`)],
    ];
    for (const [part, request] of cases) {
      const refusal = g.refusal(request);
      assert.ok(refusal, `${part}: found`);
      assert.ok(refusal.startsWith(`not sent to ${ELSEWHERE}: ${part} carries the token of auth 'engagement', which belongs to ${HOME} only`), refusal);
      assert.ok(!refusal.includes(TOKEN), 'the message never holds the value');
      // The same request to the origin it is bound to goes.
      assert.equal(g.refusal({ ...request, url: request.url.replace(ELSEWHERE, HOME).replace('api.elsewhere.test', 'api.home.test') }), undefined, part);
    }
  });

  void it('a password goes to its Token URL\'s origin only; a value bound to nothing goes nowhere', () => {
    const g = guard();
    g.bind('orphan-secret-77', [], 'the value of APIWB_SECRET_OTHER_PASSWORD');
    assert.equal(g.refusal(get(`${AUTH}/token`, {}, 'grant_type=password&username=u&password=pass-word-4321', 'POST')), undefined);
    assert.match(g.refusal(get(`${HOME}/api/x`, {}, 'note=pass-word-4321', 'POST')) ?? '', /not sent to https:\/\/api\.home\.test: the body carries the password of auth 'engagement', which belongs to https:\/\/auth\.home\.test only/);
    assert.match(g.refusal(get(`${HOME}/api/x`, { 'X-Anything': 'orphan-secret-77' })) ?? '', /the value of APIWB_SECRET_OTHER_PASSWORD, which belongs to no origin/);
  });

  void it('held under any chain of up to three encodings drawn at random, at any offset (seeded)', () => {
    const next = random(29);
    const alphabet = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.~+/=:"\\ ';
    for (let round = 0; round < 400; round++) {
      const length = 8 + Math.floor(next() * 40);
      const secret = Array.from({ length }, () => alphabet[Math.floor(next() * alphabet.length)]!).join('');
      const g = new SecretBindings();
      g.bind(secret, [HOME], 'the token');
      const chain: string[] = [];
      let text = `${'p'.repeat(Math.floor(next() * 5))}${secret}${'s'.repeat(Math.floor(next() * 5))}`;
      for (let depth = Math.floor(next() * 4); depth > 0; depth--) {
        const [name, encode] = ENCODERS[Math.floor(next() * ENCODERS.length)]!;
        // Escapes after base64 are undone on the text's side, any number of them; base64 itself is found of
        // the value or of one whole escape of it (secretForms.ts): not of base64, nor of a text escaped twice.
        if (name.startsWith('base64') && !(chain.length === 0 || (chain.length === 1 && ['percent', 'form', 'json'].includes(chain[0]!)))) continue;
        chain.push(name);
        text = `${'x'.repeat(Math.floor(next() * 4))}${encode(text)}`;
      }
      assert.ok(g.refusal(get(`${ELSEWHERE}/x`, { 'X-Custom': text })), `round ${round}: ${JSON.stringify(secret)} through ${chain.join(' → ') || 'nothing'} not found in header ${text}`);
      assert.ok(g.refusal(get(`${ELSEWHERE}/x`, {}, text, 'POST')), `round ${round}: not found in the body`);
    }
  });

  void it('finds nothing in a request that does not hold it; short values are not searched for', () => {
    const g = guard();
    assert.equal(g.refusal(get(`${ELSEWHERE}/x?q=tok-9f8e`, { Accept: 'application/json' }, '{"a":"tok-9f8e7d6c5b4a"}', 'POST')), undefined, 'a part of a token is not the token');
    g.bind('abc', [], 'a short value');
    assert.equal(g.refusal(get(`${ELSEWHERE}/abc`)), undefined);
    assert.deepEqual(secretForms('abc'), []);
  });
});

void describe('the binding rule', () => {
  const env: Environment = {
    name: 'production',
    variables: { base_url: `${HOME}/v1`, auth_url: AUTH, other: 'not a url', ftp: 'ftp://files.test/x', tenant: 'T1' },
    auth: { engagement: { id: 'engagement', kind: 'password-grant', section: 'Security.Auth', tokenUrl: `${AUTH}/token`, username: 'u' } },
  };
  void it('a password to its Token URL\'s origin; a token, key or Basic credential to every http(s) origin of the environment', () => {
    assert.deepEqual(originsFor('password', env.auth['engagement'], env), [AUTH]);
    assert.deepEqual(originsFor('access_token', env.auth['engagement'], env), [HOME, AUTH]);
    assert.deepEqual(environmentOrigins(env), [HOME, AUTH]);
    assert.deepEqual(originsFor('password', undefined, env), [], 'no Token URL: the password goes nowhere');
    const composed: Environment = { ...env, variables: { host: 'api.composed.test', base: 'https://{{host}}:8443/v1' } };
    assert.deepEqual(environmentOrigins(composed), ['https://api.composed.test:8443', AUTH], 'a URL made of variables counts, resolved');
  });
});

void describe('the one cross-origin rule (redirects, next links, resumes)', () => {
  const from = get(`${HOME}/items?page=1`, { Authorization: `Bearer ${TOKEN}`, 'X-Api-Token': TOKEN, Accept: 'application/json' });
  void it('the same origin: as it is', () => {
    const hop = hopTo(from, { ...from, url: `${HOME}/items?page=2` }, 'next link', guard());
    assert.ok(hop.ok);
    assert.equal(hop.crossOrigin, false);
    assert.equal(hop.request.headers['X-Api-Token'], TOKEN);
  });
  void it('another origin: every part that carries a credential is dropped, and named', () => {
    const to = { ...from, url: `https://u:p@cdn.elsewhere.test/items?page=2&sig=${TOKEN}&access_token=x` };
    const hop = hopTo(from, to, 'redirect', guard());
    assert.ok(hop.ok);
    assert.deepEqual(hop.dropped, ['header Authorization', 'header X-Api-Token', 'the user info of the URL', 'query parameter sig', 'query parameter access_token']);
    assert.equal(hop.request.url, 'https://cdn.elsewhere.test/items?page=2');
    assert.deepEqual(hop.request.headers, { Accept: 'application/json' });
    assert.ok(!JSON.stringify(hop).includes(TOKEN));
    assert.equal(droppedWords(hop.dropped), 'sent without header Authorization, header X-Api-Token, the user info of the URL, query parameter sig, query parameter access_token');
  });
  void it('a header named by a secret is dropped without its name in the words', () => {
    const hop = hopTo(from, get(`${ELSEWHERE}/y`, { [`X-${TOKEN}`]: '1', Accept: 'text/plain' }), 'next link', guard());
    assert.ok(hop.ok);
    assert.deepEqual(hop.dropped, ["a header's name"]);
    assert.deepEqual(hop.request.headers, { Accept: 'text/plain' });
  });
  void it('says nothing was dropped only when nothing carried a credential', () => {
    const hop = hopTo(get(`${HOME}/x`, { Accept: 'text/plain' }), get(`${ELSEWHERE}/y`, { Accept: 'text/plain' }), 'next link', guard());
    assert.ok(hop.ok);
    assert.deepEqual(hop.dropped, []);
    assert.equal(droppedWords(hop.dropped), 'it carried no credential, nothing was dropped');
  });
  void it('a body or a method other than GET to another origin is refused, and https → http', () => {
    for (const [kind, to] of [['next link', get(`${ELSEWHERE}/y`, {}, '{"Offset":10}', 'POST')], ['resume', get(`${ELSEWHERE}/y`, {}, undefined, 'DELETE')]] as const) {
      const hop = hopTo(from, to, kind, guard());
      assert.ok(!hop.ok);
      assert.match(hop.reason, new RegExp(`the ${kind} goes to another origin \\(${ELSEWHERE.replace(/\./g, '\\.')}\\) as a (POST with a body|DELETE); not followed`));
    }
    const down = hopTo(from, get('http://api.home.test/items'), 'redirect');
    assert.ok(!down.ok);
    assert.match(down.reason, /from https to plain http/);
  });
});
