// An input registered after the outputs were claimed (a file read once the run is under way: a
// certificate, a .env file) is refused when an output claimed it, by path or by identity (outputs.ts).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { linkSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OutputRefused, RunFiles } from '../../src/core/files/outputs';

void describe('RunFiles: inputs read after the claim', () => {
  const dir = mkdtempSync(join(tmpdir(), 'apiwb-late-inputs-'));
  const out = join(dir, 'ca.pem');
  writeFileSync(out, 'pem');
  const other = join(dir, 'other.pem');
  writeFileSync(other, 'pem');
  const hard = join(dir, 'hard.pem');
  linkSync(out, hard);

  void it('refuses the file --out claimed, by its path and by a hard link to it', () => {
    const files = new RunFiles([]);
    files.claim(out, '--out');
    assert.throws(() => files.input(out, 'the --cacert file'), (e: unknown) => e instanceof OutputRefused && /--out .*ca\.pem is the --cacert file/.test(e.message));
    assert.throws(() => files.input(hard, 'the --cacert file'), OutputRefused);
  });

  void it('takes another file, and one missing', () => {
    const files = new RunFiles([]);
    files.claim(out, '--out');
    files.input(other, 'the --cacert file');
    files.input(join(dir, 'missing.pem'), 'the --cacert file');
    rmSync(dir, { recursive: true, force: true });
  });
});
