// The record comparison (src/core/compare/) against a brute-force oracle on generated data: random
// records and keys, records moved to other positions (pages), duplicate keys, records without a key,
// dates and request ids that differ on most records (compared as any field), ignored paths; with partitions so small that every
// input spans many of them, and with one partition.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { compareRecordFiles, type RecordDifference } from '../../src/core/compare/partitioned';
import { MARK, PartitionIndex, PartitionWriter } from '../../src/core/compare/partitionFile';
import { parseRecord } from '../../src/core/compare/recordFiles';
import { contentOf, rulesOf, sameContent, type RecordRules } from '../../src/core/compare/records';
import { fieldChanges } from '../../src/core/compare/fieldChanges';
import { openCsvSink } from '../../src/core/export/csvSink';
import { generate, oracle, type Rec } from './compareOracle';

const dir = mkdtempSync(join(tmpdir(), 'apiwb-compare-test-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function writeNdjson(name: string, records: readonly unknown[]): string {
  const path = join(dir, name);
  writeFileSync(path, records.map((x) => `${JSON.stringify(x)}\n`).join(''));
  return path;
}

async function compare(a: string, b: string, rules: RecordRules, partitionBytes?: number, format: 'ndjson' | 'csv' = 'ndjson') {
  const diffs: RecordDifference[] = [];
  const result = await compareRecordFiles({ path: a, format }, { path: b, format }, {
    rules, tempDir: dir, ...(partitionBytes ? { partitionBytes } : {}), onDifference: (d) => { diffs.push(d); },
  });
  return { result, diffs };
}

const asOracleText = (d: RecordDifference): string => JSON.stringify([d.kind, d.key, d.before ?? null, d.after ?? null]);

void describe('record comparison against a brute-force oracle', () => {
  for (const [seed, n, partitionBytes, ignore, moves] of [
    [1, 400, 300, [], 'all'], [2, 400, undefined, [], 'all'], [3, 700, 2_000, ['nested.level'], 'all'], [4, 60, 50, ['amount'], 'all'], [5, 1_000, 10_000, [], 'all'],
    [6, 600, 400, [], 'few'], [7, 900, undefined, ['amount'], 'few'],
  ] as const) {
    void it(`seed ${seed}: ${n} records, ${partitionBytes ?? 'default'}-byte partitions, ignoring [${ignore.join(', ')}], ${moves === 'all' ? 'every record moved' : 'a few records moved'}`, async () => {
      const { a, b } = generate(seed, n, moves);
      const rules = rulesOf('code', [...ignore]);
      const { result, diffs } = await compare(writeNdjson(`a${seed}.ndjson`, a), writeNdjson(`b${seed}.ndjson`, b), rules, partitionBytes);
      const expected = oracle(a, b, rules);
      if (partitionBytes !== undefined && partitionBytes < 5_000) assert.ok(result.partitions > 10, `${result.partitions} partitions: the input spans many`);
      if (partitionBytes === undefined) assert.equal(result.partitions, 1);
      assert.deepEqual({ added: result.added, removed: result.removed, changed: result.changed, unchanged: result.unchanged }, expected.counts);
      assert.deepEqual(diffs.map(asOracleText).sort(), expected.diffs);
      assert.equal(result.rowsA, a.length);
      assert.equal(result.rowsB, b.length);
      // The generator plants every kind: the test would not notice a comparison that finds nothing.
      assert.ok(expected.counts['added']! > 0 && expected.counts['removed']! > 0 && expected.counts['changed']! > 0 && expected.counts['unchanged']! > 0);
    });
  }

  void it('matches by content when no key is given: moved records are unchanged, none is changed', async () => {
    const { a, b } = generate(9, 300);
    const rules = rulesOf(undefined);
    const { result, diffs } = await compare(writeNdjson('a9.ndjson', a), writeNdjson('b9.ndjson', b), rules, 500);
    const expected = oracle(a, b, rules);
    assert.equal(result.changed, 0);
    assert.deepEqual({ added: result.added, removed: result.removed, changed: result.changed, unchanged: result.unchanged }, expected.counts);
    assert.deepEqual(diffs.map(asOracleText).sort(), expected.diffs);
  });
});

void describe('the two ways a record is read without its content text', () => {
  void it('sameContent answers as contentOf texts compared, on generated pairs (dates, ids, ignored paths, nesting)', () => {
    const { a, b } = generate(11, 400, 'few');
    const extra: Rec[] = [{ x: [1, { y: null }] }, { x: [1, { y: 0 }] }, { x: [] }, { x: {} }, { x: ['2026-01-01'] }, { x: ['2027-01-01'] }, { x: ['~'] }, { x: { at: '2026-01-01' } }, { x: {} , n: -0 }, { x: {}, n: 0 }, { __proto__: 1 }];
    // Numbers kept as their texts (parseRecord): 1.0 = 1 = 1e0, but no two of the big ones are alike.
    const numbers = ['{"x":1.0}', '{"x":1}', '{"x":1e0}', '{"x":12345678901234567890}', '{"x":12345678901234567891}', '{"x":1e400}', '{"x":-1e400}', '{"x":[1.50,-0]}', '{"x":[1.5,0]}', '{"x":"1"}', '{"x":{}}']
      .map((text, i) => parseRecord(text, 'numbers', i + 1) as Rec);
    const all = [...a.slice(0, 150), ...b.slice(0, 150), ...extra, ...numbers];
    let equal = 0;
    for (const rules of [rulesOf('code'), rulesOf('code', ['nested.level', 'tags[]'])]) {
      for (const x of all) {
        for (const y of all) {
          const expected = contentOf(x, rules) === contentOf(y, rules);
          if (expected) equal++;
          assert.equal(sameContent(x, y, rules), expected, `${JSON.stringify(x)} vs ${JSON.stringify(y)}`);
        }
      }
    }
    assert.ok(equal > all.length * 2, 'some distinct records have equal contents');
  });

});

void describe('record comparison, by example', () => {
  void it('counts a moved record as unchanged, a date that changed as a change, and names field changes', async () => {
    const a = [{ id: 1, n: 'a', at: '2026-01-01T00:00:00Z' }, { id: 2, n: 'b' }, { id: 3, n: 'c', x: { y: 1 } }, { id: 4, n: 'd' }];
    const b = [{ id: 4, n: 'd' }, { id: 3, n: 'c', x: { y: '1' }, z: 0 }, { id: 1, n: 'a', at: '2026-02-02T00:00:00Z' }, { id: 5, n: 'e' }];
    const { result, diffs } = await compare(writeNdjson('ea.ndjson', a), writeNdjson('eb.ndjson', b), rulesOf('id'), 1);
    assert.deepEqual([result.added, result.removed, result.changed, result.unchanged], [1, 1, 2, 1]);
    assert.deepEqual(diffs.find((d) => d.kind === 'changed' && d.key === 1)?.fields, [{ path: 'at', kind: 'changed', before: '2026-01-01T00:00:00Z', after: '2026-02-02T00:00:00Z' }]);
    const changed = diffs.find((d) => d.kind === 'changed' && d.key === 3);
    assert.deepEqual(changed?.fields, [{ path: 'x.y', kind: 'type', before: 1, after: '1' }, { path: 'z', kind: 'added', after: 0 }]);
    assert.deepEqual(result.shape, { onlyA: [], onlyB: ['z'], typeChanges: [{ path: 'x.y', a: ['number'], b: ['string'] }] });
  });

  void it('a record at the same position with the same text is the same record, before matching by key', async () => {
    // Key 1 twice on each side, equal contents written in another field order: by key alone A's first
    // would pair with B's second (equal contents pair first) and A's second would be reported changed.
    const a = [{ id: 1, n: 'a', at: '2026-02-02' }, { at: '2026-02-02', n: 'a', id: 1 }];
    const b = [{ id: 1, n: 'b' }, { at: '2026-02-02', n: 'a', id: 1 }];
    const { result, diffs } = await compare(writeNdjson('sa.ndjson', a), writeNdjson('sb.ndjson', b), rulesOf('id'), 1);
    assert.deepEqual([result.changed, result.unchanged], [1, 1]);
    assert.deepEqual(diffs.map((d) => [d.kind, d.before, d.after]), [['changed', a[0], b[0]]]);
  });

  void it('--ignore takes a path out of the comparison and the shape, at any array index', async () => {
    const a = [{ k: 'a', items: [{ price: 1, q: 1 }] }];
    const b = [{ k: 'a', items: [{ price: 2, q: 1 }] }];
    assert.equal((await compare(writeNdjson('ia.ndjson', a), writeNdjson('ib.ndjson', b), rulesOf('k'))).result.changed, 1);
    const ignored = await compare(writeNdjson('ia.ndjson', a), writeNdjson('ib.ndjson', b), rulesOf('k', ['items[0].price']));
    assert.deepEqual([ignored.result.changed, ignored.result.unchanged], [0, 1]);
    assert.deepEqual(fieldChanges(a[0], b[0], new Set(['items[].price'])), []);
  });

  void it('reads CSV exports as the export sink writes them, nested values and _extra included', async () => {
    const write = async (name: string, rows: readonly Rec[]): Promise<string> => {
      const sink = await openCsvSink(join(dir, name));
      await sink.writePage(rows.slice(0, 1));
      await sink.writePage(rows.slice(1));
      await sink.close();
      return join(dir, name);
    };
    const a = await write('a.csv', [{ id: 1, t: 'x, "y"' }, { id: 2, t: 'line\nbreak', late: { n: 1 } }]);
    const b = await write('b.csv', [{ id: 2, t: 'line\nbreak', late: { n: 2 } }, { id: 1, t: 'x, "y"' }]);
    const { result, diffs } = await compare(a, b, rulesOf('id'), 10, 'csv');
    assert.deepEqual([result.added, result.removed, result.changed, result.unchanged], [0, 0, 1, 1]);
    assert.deepEqual(diffs[0]?.fields, [{ path: 'late', kind: 'changed', before: '{"n":1}', after: '{"n":2}' }]);
  });

  void it('says which file and line is not a JSON record', async () => {
    const a = join(dir, 'bad.ndjson');
    writeFileSync(a, '{"id":1}\n{"id":\n');
    // The same text at the same position on both sides is never read as JSON: a bad line must face another.
    await assert.rejects(compare(writeNdjson('good.ndjson', [{ id: 1 }, { id: 2 }]), a, rulesOf('id')), /bad\.ndjson:2: not a JSON record/);
    await assert.rejects(compare(a, writeNdjson('good.ndjson', [{ id: 1 }]), rulesOf('id')), /bad\.ndjson:2: not a JSON record/);
  });

  void it('partitions by key the same way on both sides, spread over every partition', () => {
    // Keys written as text on one side and as bytes on the other land in the same partition, and every partition gets some.
    const sides = ['pa', 'pb'].map((name) => new PartitionWriter(join(dir, name), 16));
    for (let i = 0; i < 1000; i++) {
      sides[0]!.writeText(MARK.unshaped, `k:${i}`, i, `{"id":${i}}`);
      const bytes = Buffer.from(`{"id":${i}}`);
      sides[1]!.write(MARK.unshaped, 107, bytes, 6, bytes.length - 1, i, bytes, 0, bytes.length);
    }
    for (const side of sides) side.close();
    const [a, b] = [new PartitionIndex(), new PartitionIndex()];
    for (let p = 0; p < 16; p++) {
      a.load(join(dir, `pa${p}`));
      b.load(join(dir, `pb${p}`));
      assert.ok(a.count > 0, `partition ${p} is empty`);
      assert.equal(a.count, b.count);
      for (let n = 0; n < a.groupCount; n++) assert.ok(b.find(a, a.groups[n]!) >= 0, `partition ${p}: a key of one side is not on the other`);
    }
  });
});
