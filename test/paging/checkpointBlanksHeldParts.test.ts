// A checkpoint holds no secret held in any part of its request (src/core/paging/checkpoint.ts): a JSON
// body's string or key at any depth, a form body, a URL path segment (percent-encoded too), a path a
// secret spans across segments. Each is taken back from the fresh request on resume (withSecretsFrom),
// the stored position kept: the request sent is the one the walk would have sent.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { HttpRequest } from '../../src/core/http/types';
import { checkResume } from '../../src/core/paging/resumeCheck';
import { withSecretsFrom, withoutSecrets } from '../../src/core/paging/checkpoint';
import { SecretBindings } from '../../src/core/secrets/bindings';

const KEY = 'sk_live_ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const SPANNING = 'open sesame/42-and-more';
const ORIGIN = 'https://sandbox.test';
const guard = new SecretBindings();
guard.bind(KEY, [ORIGIN], 'the key');
guard.bind(SPANNING, [ORIGIN], 'the password');

const post = (body: string, url = `${ORIGIN}/v1/list`): HttpRequest => ({ method: 'POST', url, headers: { 'Content-Type': 'application/json' }, body });

function holdsNone(request: HttpRequest): void {
  const text = JSON.stringify(request);
  assert.equal(guard.inText(text).length, 0, text);
  assert.ok(!text.includes(KEY.slice(0, 12)), text);
}

void describe('checkpoint: every part carrying a secret held', () => {
  void it('a JSON body: strings and keys at any depth blanked, the position kept, all put back on resume', () => {
    const body = (offset: number): string => JSON.stringify({ filter: 'all', auth: { list: ['x', KEY], [KEY]: 1 }, note: `sent ${KEY} here`, offset });
    const stored = withoutSecrets(post(body(40)), guard);
    holdsNone(stored);
    assert.match(stored.body ?? '', /"offset":40/);
    assert.equal(withSecretsFrom(stored, post(body(0)), guard).body, body(40));
  });

  void it('a body not JSON: blanked whole, the fresh one sent', () => {
    const form = `grant=x&sig=${encodeURIComponent(KEY)}`;
    const stored = withoutSecrets({ ...post(form), headers: { 'Content-Type': 'application/x-www-form-urlencoded' } }, guard);
    holdsNone(stored);
    assert.equal(stored.body, '');
    assert.equal(withSecretsFrom(stored, post(form), guard).body, form);
  });

  void it('a path: the segment (percent-encoded too), or the whole path when the secret spans segments', () => {
    for (const url of [`${ORIGIN}/keys/${KEY}/items?page=3`, `${ORIGIN}/keys/${encodeURIComponent(SPANNING)}/items?page=3`, `${ORIGIN}/keys/${SPANNING}/items?page=3`]) {
      const next: HttpRequest = { method: 'GET', url, headers: {} };
      const stored = withoutSecrets(next, guard);
      holdsNone(stored);
      const fresh = { ...next, url: url.replace('page=3', 'page=1') };
      assert.equal(withSecretsFrom(stored, fresh, guard).url, new URL(url).toString());
    }
  });

  void it('a resume read back is checked against the fresh request blanked the same way: its position only', () => {
    const plan = { style: 'page-headers', options: {}, source: 'directive' } as const;
    const fresh: HttpRequest = { method: 'GET', url: `${ORIGIN}/keys/${KEY}/items`, headers: {} };
    const next = withoutSecrets({ ...fresh, url: `${fresh.url}?page=2` }, guard);
    const checkpoint = { version: 1, plan, next, pages: 1, rows: 1, bytes: 0, done: false, firstPage: 1 } as const;
    const checked = checkResume(checkpoint, fresh, plan, 'read-back', guard);
    assert.ok(checked.ok, JSON.stringify(checked));
    const other = checkResume(checkpoint, { ...fresh, url: `${ORIGIN}/keys/${KEY}/other` }, plan, 'read-back', guard);
    assert.ok(!other.ok, 'another path is refused');
  });
});
