// Invariant C: the CLI reads a file one way; no request is dropped without a word. Two requests of a file
// named `a` (`# @name a` twice): `apiwb run --name a` and `apiwb compare --name a` send both, but
// `apiwb generate --name a` prints the first as code and leaves the second out, exit 0 and nothing said
// (src/cli/generateCommand.ts: the first block whose name matches). It should refuse (name the two
// lines) or at least say that another request has that name.
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

void describe('apiwb generate --name naming two requests', () => {
  void it('refuses, or says that a second request has that name', async () => {
    const made = await generated([file, '--name', 'a', '--lang', 'curl', '--env-file', envFile, '--env', 'local'], {});
    assert.ok(made.code !== 0 || /\/two|twice|two requests|more than one|line 6/i.test(made.stderr), `exit ${made.code}, stderr ${JSON.stringify(made.stderr)}`);
  });
});
