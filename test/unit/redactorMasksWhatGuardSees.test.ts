// The rule (secretForms.ts, one definition for the send boundary and the Redactor): whatever text the send
// guard reads a secret in, through any escapes it undoes, the Redactor masks so that the guard reads it
// there no more. Held by an oracle, not a list: secrets (with `/`, `+`, `=`, a space, a letter outside
// ASCII) are written through random chains of encoders nobody listed together (lower-, upper- and
// mixed-case percent hex, double-encoding %25xx, JSON escapes `\/` and `\u00XX`, a form's `+`, base64 of
// `user:secret`, the URL parser's user name, path, query and fragment, a punycode host label) and put
// inside a URL's fragment, a query, a JSON body; each case: the guard finds it before, not after Redactor.text,
// and the text around it survives. Plus named cases for the forms revA's review did not list.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { domainToASCII } from 'node:url';
import { Redactor, REDACTED } from '../../src/core/secrets/redact';
import { SecretBindings } from '../../src/core/secrets/bindings';
import { carriesForm, hostForms, secretForms, textViews } from '../../src/core/secrets/secretForms';

const SECRETS = ['pk/ABCDEFGHIJ/klmnop+QRSTU==', 'OpenSesame XYZ42', 'Geheim-Pässwort-42'];

/** What the guard reads: a form of `secret` (as given, or as a host spells it) in a view of `text`. */
function guardSees(secret: string, text: string): boolean {
  const forms = secretForms(secret);
  return carriesForm(textViews(text), [...forms, ...hostForms(forms)]);
}

const mixedCase = (escape: string): string => escape.replace(/%([0-9A-F])([0-9A-F])/g, (_w, a: string, b: string) => `%${a.toLowerCase()}${b}`);
const encoders: Record<string, (text: string) => string> = {
  percent: encodeURIComponent,
  'percent, lower-case hex': (t) => encodeURIComponent(t).replace(/%[0-9A-F]{2}/g, (e) => e.toLowerCase()),
  'percent, mixed-case hex': (t) => mixedCase(encodeURIComponent(t)),
  'percent, every character': (t) => [...Buffer.from(t, 'utf8')].map((b) => `%${b.toString(16).padStart(2, '0')}`).join(''),
  'double-encoded (%25xx)': (t) => encodeURIComponent(encodeURIComponent(t)),
  form: (t) => new URLSearchParams({ v: t }).toString().slice(2),
  json: (t) => JSON.stringify(t).slice(1, -1),
  'json, \\/': (t) => JSON.stringify(t).slice(1, -1).replace(/\//g, '\\/'),
  'json, letters as \\u00XX (upper-case hex)': (t) => t.replace(/[A-Za-z]/g, (c) => `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`),
  'url fragment': (t) => { const u = new URL('http://h/'); u.hash = `x${t}`; return u.hash.slice(2); },
  'url user name': (t) => { const u = new URL('http://h/'); u.username = t; return u.username; },
  'url path': (t) => { const u = new URL('http://h/'); u.pathname = `/x${t}`; return u.pathname.slice(2); },
  'base64 of user:secret': (t) => Buffer.from(`someone:${t}`).toString('base64'),
  lower: (t) => t.toLowerCase(),
};
const places = [
  (e: string): string => `GET http://127.0.0.1:9/items#frag=${e} 500`,
  (e: string): string => `GET http://127.0.0.1:9/list2?k=${e}&page=2 failed`,
  (e: string): string => `{"youSent":"${e}","id":7}`,
];

/** A small seeded generator: the same cases every run. */
function random(seed: number): () => number {
  let s = seed;
  return () => ((s = (s * 1103515245 + 12345) % 2147483648) / 2147483648);
}

function assertMasked(secret: string, text: string, what: string): void {
  assert.ok(guardSees(secret, text), `the guard reads the secret in ${what} (control): ${text}`);
  const redactor = new Redactor([secret]);
  const shown = redactor.text(text);
  assert.ok(!guardSees(secret, shown), `${what}: the Redactor left what the guard reads:\n${text}\n${shown}`);
  assert.ok(shown.includes(REDACTED), shown);
  // A known secret is found by the guard as bound too (SecretBindings, the send boundary itself).
  const bindings = new SecretBindings();
  bindings.bind(secret, ['http://127.0.0.1:1'], 'the key');
  assert.equal(bindings.inText(shown).length, 0, `${what}: the send boundary still finds it in ${shown}`);
}

void describe('the Redactor masks whatever the send guard reads', () => {
  void it('named cases no list held: a fragment, %25xx, mixed-case hex, \\u inside percent, a punycode label', () => {
    const key = SECRETS[0]!;
    assertMasked(key, `http://127.0.0.1:9/x#${key}`, 'a fragment');
    assertMasked(key, `next: /list2?k=${encodeURIComponent(encodeURIComponent(key))}`, 'double-encoded');
    assertMasked(key, `next: /list2?k=${mixedCase(encodeURIComponent(key))}`, 'mixed-case hex');
    assertMasked(key, `q=${encodeURIComponent(key.replace('A', '\\u0041'))}`, 'a JSON escape inside percent-encoding');
    const label = domainToASCII(`${SECRETS[2]!}.localhost`).split('.')[0]!;
    assertMasked(SECRETS[2]!, `not sent to http://${label}.localhost:9`, 'a punycode label');
  });

  void it('random chains of two encoders, in three places, keep the text around', () => {
    const next = random(42);
    const names = Object.keys(encoders);
    const pick = (): string => names[Math.floor(next() * names.length)]!;
    for (let i = 0; i < 300; i++) {
      const secret = SECRETS[i % SECRETS.length]!;
      const chain = [pick(), pick()];
      const encoded = chain.reduce((text, name) => encoders[name]!(text), secret);
      const place = places[i % places.length]!;
      const text = place(encoded);
      if (!guardSees(secret, text)) continue; // a chain the guard does not read (base64 of an escape): not this rule
      assertMasked(secret, text, chain.join(' then '));
      const shown = new Redactor([secret]).text(text);
      const [before, after] = place('\u0000').split('\u0000') as [string, string];
      assert.ok(shown.startsWith(before.slice(0, 12)) && shown.endsWith(after.slice(-3)), `${chain.join(' then ')}: the text around was cut:\n${shown}`);
    }
  });
});
