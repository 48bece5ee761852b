// The user's signing key file (src/core/files/userKey.ts): the raw 32-byte key an earlier release wrote is
// replaced by a key in today's form (it signs nothing apiwb takes now); any other content is still refused.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { userKey } from '../../src/core/files/userKey';

void describe('userKey and an earlier release\'s key file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'apiwb-key-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  void it('a raw 32-byte key is replaced by a new key in the written form, which is then taken as it is', () => {
    const file = join(dir, 'raw.key');
    const raw = Buffer.alloc(32, 7);
    writeFileSync(file, raw, { mode: 0o600 });
    const made = userKey(file);
    assert.ok(made.ok, made.ok ? '' : made.reason);
    assert.notDeepEqual(made.key, raw, 'the old bytes are not the key');
    assert.match(readFileSync(file, 'latin1'), /^apiwb signing key v1\n[0-9a-f]{64}\n$/);
    const again = userKey(file);
    assert.ok(again.ok);
    assert.deepEqual(again.key, made.key, 'the new key stays');
  });

  void it('content of any other length is refused and left as it was', () => {
    const file = join(dir, 'rows.key');
    writeFileSync(file, '{"id":1}\n{"id":2}\n', { mode: 0o600 });
    const read = userKey(file);
    assert.equal(read.ok, false);
    assert.match(read.ok ? '' : read.reason, /is not a key apiwb made/);
    assert.equal(readFileSync(file, 'utf8'), '{"id":1}\n{"id":2}\n');
  });
});
