// Invariant (a): no secret value reaches a report or an output file. `apiwb compare A.ndjson B.ndjson
// --key id --out diffs.ndjson` writes each changed record whole (before, after and its field changes) as
// the export files hold it: a field named as a secret (password, token, apiKey) and a value the run holds
// (an APIWB_SECRET_* variable) reach diffs.ndjson as they came, where `apiwb run --out` writes `***`. The
// difference file trusts that "the rows in it come from the sides' rows files, which the redacting sink
// already scrubbed" (src/cli/compare/differenceFile.ts:3-4), true of live sides only: two exports (another
// tool's, or hand-made) never pass a Redactor (src/cli/compare/compareCommand.ts:76, the writer is given
// none; the Redactor of :58 only reaches the printed lines).
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { compareCommand } from '../../src/cli/compare/compareCommand';
import { commandInProcess } from '../cli/inProcess';

const HELD = 'held-token-0a1b2c3d4e5f';
const dir = mkdtempSync(join(tmpdir(), 'apiwb-rev-cmpout-'));

void describe('apiwb compare of two exports, --out', () => {
  after(() => rmSync(dir, { recursive: true, force: true }));

  void it('masks secret-named fields and held values in the differences file', async () => {
    const a = join(dir, 'a.ndjson');
    const b = join(dir, 'b.ndjson');
    writeFileSync(a, `{"id":1,"password":"old-pass-1234","note":"x"}\n{"id":2,"apiKey":"gone-key-9999"}\n{"id":4,"auth":{"client_secret":"nested-sec-1111"}}\n`);
    writeFileSync(b, `{"id":1,"password":"new-pass-5678","note":"echo ${HELD}"}\n{"id":3,"token":"added-tok-7777"}\n{"id":4,"auth":{"client_secret":"nested-sec-2222"}}\n`);
    const out = join(dir, 'diffs.ndjson');
    const r = await commandInProcess(compareCommand, [a, b, '--key', 'id', '--out', out], { APIWB_SECRET_SVC_TOKEN: HELD });
    assert.equal(r.code, 1, `${r.stdout}${r.stderr}`);
    const text = readFileSync(out, 'utf8');
    // Unlisted case: a field change inside a secret-named field (its path, not its name, says so).
    for (const secret of ['nested-sec-1111', 'nested-sec-2222', 'old-pass-1234', 'new-pass-5678', 'gone-key-9999', 'added-tok-7777', HELD]) {
      assert.ok(!text.includes(secret), `${secret} reached --out:\n${text}`);
    }
  });
});
