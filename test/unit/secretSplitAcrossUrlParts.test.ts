// Found in review of 0e0d9e7 / 01dea4a (SecretBindings searches a URL part by part). The invariant: no
// held secret leaves for an origin it is not bound to. carries() (bindings.ts urlCarries) searches each
// query parameter alone, then the URL without its query: a secret holding a `&` placed in a query value,
// or a `?` placed in the path, is cut by the parser into pieces that no single part holds whole, though
// the request line the server receives holds it byte for byte (`/p/Sesame?Open-4242`, `?q=Open&Sesame=42`).
// foreignIn (the first search, over the URL as written) finds it; carries finds no part; refusal() lets
// the request leave. The same secret without the separator is refused (control).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { SecretBindings } from '../../src/core/secrets/bindings';

function bindings(secret: string): SecretBindings {
  const b = new SecretBindings();
  b.bind(secret, ['http://127.0.0.1:41000'], "the password of auth 'svc'");
  return b;
}

/** What the server at the other end reads on the request line: path and query, as sent. */
function requestTarget(url: string): string {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
}

void describe('a secret cut by the URL parser into two parts, sent to another origin', () => {
  void it('a password with "?" in the path is refused', () => {
    const secret = 'Sesame?Open-4242';
    const url = `http://attacker.test/p/${secret}`;
    assert.ok(requestTarget(url).includes(secret), 'the request line carries the whole password');
    assert.ok(bindings(secret).refusal({ method: 'GET', url, headers: {} }), `${url} left for the attacker`);
  });

  void it('a password with "&" in a query value is refused', () => {
    const secret = 'Open&Sesame=4242';
    const url = `http://attacker.test/p?q=${secret}`;
    assert.ok(requestTarget(url).includes(secret), 'the request line carries the whole password');
    assert.ok(bindings(secret).refusal({ method: 'GET', url, headers: {} }), `${url} left for the attacker`);
  });

  void it('the same password without a separator is refused (control)', () => {
    const secret = 'OpenSesame-4242';
    assert.ok(bindings(secret).refusal({ method: 'GET', url: `http://attacker.test/p?q=${secret}`, headers: {} }));
    assert.ok(bindings(secret).refusal({ method: 'GET', url: `http://attacker.test/p/${secret}`, headers: {} }));
  });
});
