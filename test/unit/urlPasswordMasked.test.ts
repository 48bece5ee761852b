// The rule of a URL's password in shown text (redact.ts urlPasswordsMasked, the one home the Redactor and
// the proxy warning share): the password of `scheme://user:password@` is masked even when it holds a `/`,
// `?` or `#` as written (no parser reads such a URL); digits after the `:` and then a path, query or
// fragment are a port, and a `@` later in the path is left alone.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Redactor, urlPasswordsMasked } from '../../src/core/secrets/redact';

const cases: [string, string][] = [
  ['https://perm:key@host/x', 'https://perm:***@host/x'],
  ['http://alice:Pr0xy/Secret9@127.0.0.1:3128', 'http://alice:***@127.0.0.1:3128'],
  ['http://alice:a?b#c@proxy:3128', 'http://alice:***@proxy:3128'],
  ['http://u:1234@host', 'http://u:***@host'],
  ['http://u:12/34@host', 'http://u:12/34@host'],
  ['GET http://registry:4873/@scope/pkg 200', 'GET http://registry:4873/@scope/pkg 200'],
  ['http://[::1]:8080/users/@me', 'http://[::1]:8080/users/@me'],
  ['see http://host:8080/x then mail admin@example.com', 'see http://host:8080/x then mail admin@example.com'],
  ['http://alice:***@proxy:3128', 'http://alice:***@proxy:3128'],
];

void describe('urlPasswordsMasked', () => {
  for (const [text, shown] of cases) {
    void it(text, () => {
      assert.equal(urlPasswordsMasked(text), shown);
      assert.equal(new Redactor().text(text), shown, 'the Redactor applies the same rule');
    });
  }
});
