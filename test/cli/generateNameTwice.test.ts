// No request is dropped without a word: two requests of a file named `a` (`# @name a` twice) are both
// sent by `apiwb run --name a` and `apiwb compare --name a`; `apiwb generate --name a` makes code of one
// request, so it refuses (exit 2), naming both requests' lines, rather than print the first and leave the
// second out unsaid (found by review: it printed the first, exit 0).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { generated } from './generateProcess';

const dir = mkdtempSync(join(tmpdir(), 'apiwb-rev-gen-twice-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const file = join(dir, 'twice.http');
writeFileSync(file, '###\n# @name a\nGET {{base}}/one\n\n###\n# @name a\nGET {{base}}/two\n');
const envFile = join(dir, 'http-client.env.json');
writeFileSync(envFile, JSON.stringify({ local: { base: 'http://127.0.0.1:9' } }));

void describe('apiwb generate --name that two requests share', () => {
  void it('refuses with both lines named, and prints no code', async () => {
    const made = await generated([file, '--name', 'a', '--lang', 'curl', '--env-file', envFile, '--env', 'local'], {});
    assert.equal(made.code, 2, made.stderr);
    assert.match(made.stderr, /2 requests are named 'a' \(lines 3, 7\)/);
    assert.equal(made.stdout, '');
  });
});
