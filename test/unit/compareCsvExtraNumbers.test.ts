// A CSV side's `_extra` cell (keys first seen after the header, as JSON) is read with each number's text as
// written: 12345678901234567890 and 12345678901234567891 (alone or nested) are different values, where
// JSON.parse's double made them one and the two records agreed.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, it } from 'node:test';
import { compareRecordFiles, type RecordDifference } from '../../src/core/compare/partitioned';
import { rulesOf } from '../../src/core/compare/records';

const dir = mkdtempSync(join(tmpdir(), 'apiwb-csv-extra-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const csv = (name: string, extra: string): string => {
  const path = join(dir, name);
  writeFileSync(path, `id,name,_extra\n1,ann,"${extra.replace(/"/g, '""')}"\n2,bob,\n`);
  return path;
};

void it('numbers in a CSV _extra cell are compared by their text, not a double', async () => {
  for (const [a, b] of [['{"big":12345678901234567890}', '{"big":12345678901234567891}'], ['{"n":{"v":12345678901234567890}}', '{"n":{"v":12345678901234567891}}']] as const) {
    const differences: RecordDifference[] = [];
    const result = await compareRecordFiles({ path: csv('a.csv', a), format: 'csv' }, { path: csv('b.csv', b), format: 'csv' }, { rules: rulesOf('id'), tempDir: dir, onDifference: (d) => { differences.push(d); } });
    assert.deepEqual([result.changed, result.unchanged], [1, 1], `${a} vs ${b}`);
    assert.match(JSON.stringify(differences[0]?.fields), /12345678901234567890.*12345678901234567891/);
  }
});

void it('a CSV _extra cell that is a number is refused alike, kept as its text or not (isJsonObject)', async () => {
  for (const extra of ['7', '12345678901234567890']) {
    const path = csv('n.csv', extra);
    await assert.rejects(compareRecordFiles({ path, format: 'csv' }, { path, format: 'csv' }, { rules: rulesOf('id'), tempDir: dir, onDifference: () => undefined }), /_extra cell is not a JSON object/, extra);
  }
});
