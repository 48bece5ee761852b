// The export-ordinal style at its published size (seed 000 §4.2 rule 6, §8): a 250 000-row export
// walked in 100 000-row pages with a plain client, then the dropped table refusing a replay.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type RunningSandbox, startSandbox } from '../../src/sandbox';
import type { SandboxDescriptor } from '../../src/sandbox/descriptor';
import { type Json, engagementPost, signIn } from './helpers';

let sandbox: RunningSandbox;
let d: SandboxDescriptor;

before(async () => {
  sandbox = await startSandbox({ exportRows: 250_000 });
  d = sandbox.descriptor;
});
after(() => sandbox.close());

void describe('Selection export at the published page size (seed 000 §4.2 rule 6, §8)', () => {
  void it('000 §8: 100 000 rows a page; a 250 000-row export is pages of 100 000, 100 000 and 50 000; then the table is gone (rule 000-8-selection-rows)', { timeout: 60_000 }, async () => {
    assert.equal(d.samples.selectionPageRows, 100_000);
    const token = await signIn(d);
    let tableName = '';
    const sizes: number[] = [];
    const firstIds: unknown[] = [];
    for (let offset = 1; ; offset++) {
      const { status, body } = await engagementPost(d, token, '/api/Selection/GetSelectionResult_Ext', { OFFSET: offset, TableName: tableName, FormatID: 2 });
      assert.equal(status, 200);
      tableName = body['TableName'] as string;
      const rows = body['Result'] as Json[];
      sizes.push(rows.length);
      firstIds.push(rows[0]?.['TransactionID']);
      if (rows.length < 100_000) break;
    }
    assert.deepEqual(sizes, [100_000, 100_000, 50_000]);
    assert.deepEqual(firstIds, [1, 100_001, 200_001], 'row offset = 100000 * (OFFSET - 1)');
    const replay = await engagementPost(d, token, '/api/Selection/GetSelectionResult_Ext', { OFFSET: 3, TableName: tableName });
    assert.equal(replay.status, 400);
  });
});
