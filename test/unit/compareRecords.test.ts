// The record comparison (src/core/compare/) against a brute-force oracle on generated data: random
// records and keys, records moved to other positions (pages), duplicate keys, records without a key,
// volatile fields that differ on every record, ignored paths; with partitions so small that every
// input spans many of them, and with one partition.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { compareRecordFiles, type RecordDifference } from '../../src/core/compare/partitioned';
import { MARK, PartitionIndex, PartitionWriter } from '../../src/core/compare/partitionFile';
import { DifferenceProver, fieldSpans, keyField, leadingKey, scanObject } from '../../src/core/compare/recordScan';
import { FlatShapes } from '../../src/core/compare/flatShape';
import { ShapeTracker } from '../../src/core/compare/shape';
import { contentOf, recordKey, rulesOf, sameContent, type RecordRules } from '../../src/core/compare/records';
import { fieldChanges } from '../../src/core/compare/fieldChanges';
import { openCsvSink } from '../../src/core/export';
import { mulberry32 } from '../../src/sandbox/shared/prng';

const dir = mkdtempSync(join(tmpdir(), 'apiwb-compare-test-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const prng = (seed: number): (() => number) => mulberry32(seed);

type Rec = Record<string, unknown>;

/**
 * Side A: records with keys (some repeated, some absent); side B: A moved, changed, cut, added to.
 * `moves`: 'all' shuffles B; 'few' swaps a few records (most stay where they were, some with the same text).
 */
function generate(seed: number, n: number, moves: 'all' | 'few' = 'all'): { a: Rec[]; b: Rec[] } {
  const r = prng(seed);
  const int = (max: number): number => Math.floor(r() * max);
  const volatile = (): Rec => ({ updatedAt: new Date(Date.UTC(2026, 0, 1) + int(1e9)).toISOString(), requestId: `${int(1e6)}` });
  const record = (): Rec => {
    const rec: Rec = { name: ['ann', 'bob', 'cy', 'di'][int(4)], amount: int(5), tags: int(3) === 0 ? [] : [int(3), 'x'], nested: { level: int(3) }, ...volatile() };
    if (int(10) !== 0) rec['code'] = int(n / 2 + 1); // some without a key; many keys repeated
    if (int(7) === 0) rec['code'] = String(rec['code']); // "7" is another key than 7
    return rec;
  };
  const a = Array.from({ length: n }, record);
  const b: Rec[] = [];
  for (const rec of a) {
    const roll = int(10);
    if (roll === 0) continue; // removed
    // Volatile values differ on most records (some keep their text: a record left as it was).
    const copy: Rec = int(3) === 0 ? { ...rec } : { ...rec, ...volatile() };
    if (roll === 1) copy['amount'] = Number(copy['amount']) + 1;
    if (roll === 2) copy['extra'] = true;
    if (roll === 3) copy['nested'] = { level: String((copy['nested'] as Rec)['level']) };
    if (roll === 4) b.push({ ...copy }); // a duplicate
    b.push(copy);
  }
  for (let i = 0; i < n / 10; i++) b.push(record()); // added
  // Moves: B in another order (records change pages), or a few records swapped.
  for (let i = b.length - 1; i > 0; i--) {
    if (moves === 'few' && int(20) !== 0) continue;
    const j = int(i + 1);
    [b[i], b[j]] = [b[j]!, b[i]!];
  }
  return { a, b };
}

/** The oracle: the rule of partitioned.ts written the slow, obvious way (quadratic, no partitions). */
function oracle(a: readonly Rec[], b: readonly Rec[], rules: RecordRules, texts?: { a: readonly string[]; b: readonly string[] }): { counts: Record<string, number>; diffs: string[] } {
  const textA = (i: number): string => texts?.a[i] ?? JSON.stringify(a[i]);
  const textB = (i: number): string => texts?.b[i] ?? JSON.stringify(b[i]);
  const see = (x: Rec): { key: string; content: string } => ({ key: recordKey(x, rules), content: contentOf(x, rules) });
  const sa = a.map(see);
  const sb = b.map(see);
  const usedA = new Set<number>();
  const usedB = new Set<number>();
  let unchanged = 0;
  // The same text, or the same key and content, at the same position: the same record, unchanged.
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    if (textA(i) === textB(i) || (sa[i]!.key === sb[i]!.key && sa[i]!.content === sb[i]!.content)) {
      usedA.add(i);
      usedB.add(i);
      unchanged++;
    }
  }
  for (let i = 0; i < a.length; i++) {
    if (usedA.has(i)) continue;
    for (let j = 0; j < b.length; j++) {
      if (!usedB.has(j) && sa[i]!.key === sb[j]!.key && sa[i]!.content === sb[j]!.content) {
        usedA.add(i);
        usedB.add(j);
        unchanged++;
        break;
      }
    }
  }
  const diffs: string[] = [];
  const keyOf = (k: string): unknown => (k.startsWith('k:') ? JSON.parse(k.slice(2)) : undefined);
  for (let i = 0; i < a.length; i++) {
    if (usedA.has(i)) continue;
    let paired = false;
    for (let j = 0; j < b.length; j++) {
      if (!usedB.has(j) && sa[i]!.key === sb[j]!.key) {
        usedB.add(j);
        diffs.push(JSON.stringify(['changed', keyOf(sa[i]!.key), a[i], b[j]]));
        paired = true;
        break;
      }
    }
    if (!paired) diffs.push(JSON.stringify(['removed', keyOf(sa[i]!.key), a[i], null]));
  }
  for (let j = 0; j < b.length; j++) if (!usedB.has(j)) diffs.push(JSON.stringify(['added', keyOf(sb[j]!.key), null, b[j]]));
  const count = (kind: string): number => diffs.filter((d) => d.startsWith(`["${kind}"`)).length;
  return { counts: { added: count('added'), removed: count('removed'), changed: count('changed'), unchanged }, diffs: diffs.sort() };
}

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

  void it('matches by content when no key is given: moved and volatile-only records are unchanged', async () => {
    const { a, b } = generate(9, 300);
    const rules = rulesOf(undefined);
    const { result, diffs } = await compare(writeNdjson('a9.ndjson', a), writeNdjson('b9.ndjson', b), rules, 500);
    const expected = oracle(a, b, rules);
    assert.equal(result.changed, 0);
    assert.deepEqual({ added: result.added, removed: result.removed, changed: result.changed, unchanged: result.unchanged }, expected.counts);
    assert.deepEqual(diffs.map(asOracleText).sort(), expected.diffs);
  });
});

/**
 * A record written as a service might: the key first or not, blanks around tokens, the key's number
 * as 7.0 or 7e0 (the same key as 7), -0 (the same as 0), letters escaped in strings, an escaped key
 * name, a duplicate key field that the last one overrides, the key's name in a nested object or in a
 * string value, backslashes, non-ASCII text.
 */
function styled(rec: Rec, r: () => number): string {
  const int = (max: number): number => Math.floor(r() * max);
  const ws = (): string => [' ', '', '', '\t'][int(4)]!;
  const entries = Object.entries(rec);
  const at = entries.findIndex(([k]) => k === 'code');
  if (at > 0 && int(2) === 0) entries.unshift(...entries.splice(at, 1));
  const token = (k: string, v: unknown): string => {
    if (k === 'code' && typeof v === 'number' && int(4) === 0) return [`${v}.0`, `${v}e0`, v === 0 ? '-0' : String(v)][int(3)]!;
    if (typeof v === 'string' && int(5) === 0) return JSON.stringify(v).replace(/[a-z]/, (c) => `\\u00${c.charCodeAt(0).toString(16)}`);
    return JSON.stringify(v);
  };
  const name = (k: string): string => (k === 'code' && int(12) === 0 ? '"\\u0063ode"' : JSON.stringify(k));
  const parts = entries.map(([k, v]) => `${ws()}${name(k)}${ws()}:${ws()}${token(k, v)}${ws()}`);
  if (rec['code'] !== undefined && int(10) === 0) parts.unshift(`"code":${int(1000)}`);
  if (int(10) === 0) parts.push(`"inner":{"code":${int(9)}}`);
  if (int(10) === 0) parts.push(`"note":"say \\"code\\": ${int(3)} é"`);
  if (int(10) === 0) parts.push(`"path":"C:\\\\x${int(3)}"`);
  return `${ws()}{${parts.join(',')}}${ws()}`;
}

void describe('record comparison from bytes, against the oracle on records written every way', () => {
  // Flat records (no nested value) take the paths that read a record by its side's last flat shape.
  const flattened = (records: Rec[]): Rec[] => records.map(({ tags: _tags, nested: _nested, ...rest }) => rest);
  for (const [seed, n, partitionBytes, moves, flat] of [[21, 500, 400, 'few', false], [22, 500, undefined, 'all', false], [23, 800, 3_000, 'few', false], [24, 300, 200, 'all', false], [25, 800, undefined, 'few', true], [26, 600, 500, 'few', true]] as const) {
    void it(`seed ${seed}: ${n} ${flat ? 'flat ' : ''}records, ${partitionBytes ?? 'default'}-byte partitions, ${moves === 'all' ? 'every record moved' : 'a few moved'}`, async () => {
      const generated = generate(seed, n, moves);
      const [a, b] = flat ? [flattened(generated.a), flattened(generated.b)] : [generated.a, generated.b];
      const r = prng(seed + 100);
      // A record left as it was keeps its text on the other side (most of them: equal bytes), else is written anew.
      const texts = new Map<Rec, string>();
      const textOf = (rec: Rec): string => texts.get(rec) ?? styled(rec, r);
      const textsA = a.map((rec) => {
        const text = styled(rec, r);
        texts.set(rec, text);
        return text;
      });
      const textsB = b.map((rec) => (r() < 0.7 ? textOf(a.find((x) => JSON.stringify(x) === JSON.stringify(rec)) ?? rec) : styled(rec, r)));
      const parsedA = textsA.map((t) => JSON.parse(t) as Rec);
      const parsedB = textsB.map((t) => JSON.parse(t) as Rec);
      const rules = rulesOf('code');
      const [pathA, pathB] = [join(dir, `ra${seed}.ndjson`), join(dir, `rb${seed}.ndjson`)];
      writeFileSync(pathA, `${textsA.join('\n')}\n`);
      writeFileSync(pathB, `${textsB.join('\r\n')}`);
      const { result, diffs } = await compare(pathA, pathB, rules, partitionBytes);
      const expected = oracle(parsedA, parsedB, rules, { a: textsA, b: textsB });
      assert.deepEqual({ added: result.added, removed: result.removed, changed: result.changed, unchanged: result.unchanged }, expected.counts);
      assert.deepEqual(diffs.map(asOracleText).sort(), expected.diffs);
      // The counts alone (nobody listening) take the paths that settle records on their bytes.
      const quiet = await compareRecordFiles({ path: pathA, format: 'ndjson' }, { path: pathB, format: 'ndjson' }, { rules, tempDir: dir, ...(partitionBytes ? { partitionBytes } : {}) });
      assert.deepEqual({ added: quiet.added, removed: quiet.removed, changed: quiet.changed, unchanged: quiet.unchanged }, expected.counts);
      assert.deepEqual(quiet.shape, result.shape);
      assert.ok(expected.counts['added']! > 0 && expected.counts['removed']! > 0 && expected.counts['changed']! > 0 && expected.counts['unchanged']! > 0);
    });
  }

  void it('records of one flat shape a side, the shapes in other field orders: the oracle\'s answer', async () => {
    const r = prng(41);
    const int = (max: number): number => Math.floor(r() * max);
    const a = Array.from({ length: 600 }, (_, i) => ({ id: i, qty: int(3), price: int(4), outlet: ['bar', 'spa'][int(2)]!, at: '2026-01-01' }));
    // B: the same records, some values changed, some moved; its second half in another field order.
    const b = a.map((x) => ({ ...x, ...(int(4) === 0 ? { qty: int(3) } : {}), ...(int(4) === 0 ? { outlet: ['bar', 'spa'][int(2)]! } : {}), ...(int(5) === 0 ? { at: '2026-02-02' } : {}) }));
    for (let i = 0; i < 40; i++) {
      const [x, y] = [int(b.length), int(b.length)];
      [b[x], b[y]] = [b[y]!, b[x]!];
    }
    const reorder = ({ id, qty, price, outlet, at }: (typeof a)[number]): Rec => ({ outlet, id, at, price, qty });
    const textsA = a.map((x) => JSON.stringify(x));
    const textsB = b.map((x, i) => JSON.stringify(i < 300 ? x : reorder(x)));
    const rules = rulesOf('id');
    const [pathA, pathB] = [join(dir, 'fa.ndjson'), join(dir, 'fb.ndjson')];
    writeFileSync(pathA, `${textsA.join('\n')}\n`);
    writeFileSync(pathB, `${textsB.join('\n')}\n`);
    const { result, diffs } = await compare(pathA, pathB, rules, 2_000);
    const expected = oracle(textsA.map((t) => JSON.parse(t) as Rec), textsB.map((t) => JSON.parse(t) as Rec), rules, { a: textsA, b: textsB });
    assert.deepEqual({ added: result.added, removed: result.removed, changed: result.changed, unchanged: result.unchanged }, expected.counts);
    assert.deepEqual(diffs.map(asOracleText).sort(), expected.diffs);
    const quiet = await compareRecordFiles({ path: pathA, format: 'ndjson' }, { path: pathB, format: 'ndjson' }, { rules, tempDir: dir, partitionBytes: 2_000 });
    assert.deepEqual({ added: quiet.added, removed: quiet.removed, changed: quiet.changed, unchanged: quiet.unchanged }, expected.counts);
    assert.ok(expected.counts['changed']! > 50 && expected.counts['unchanged']! > 50);
  });

  void it('the key read from bytes is recordKey\'s, or none where the bytes cannot tell', () => {
    const texts = ['{"id":1}', '{ "id" : "a\\"b" , "x":[{"id":2}]}', '{"x":{"id":2}}', '{"id":1,"id":2}', '{"id":1.0}', '{"id":1e2}', '{"id":-0}', '{"id":0}', '{"id":-12}', '{"id":true}', '{"id":null}',
      '{"id":{"a":1}}', '{"i\\u0064":3}', '{"id":3,"i\\u0064":4}', '{"s":"}\\"{","id":"x"}', '[1]', '{"id":1}x', '{"id":', ' {"id":"é"} ', '{"id":"\\u00e9"}', '{"a":[1,[2,{"id":9}]],"id":7}',
      '{"id":1234567890123456789}', '{"id":123456789012345}', '{"id":"tab\there"}', '\t{\t"id"\t:\t5\t}\t', '{"id":5,"note":"\\"id\\":6"}', '{"id":5,"x":{"id":6}}', '{}', '{"id":"a","id":"b"}'];
    const rules = rulesOf('id');
    const fields = fieldSpans();
    const name = Buffer.from('id');
    const leading = new Int32Array(4);
    let read = 0;
    for (const text of texts) {
      const buf = Buffer.from(text);
      let expected: string | undefined;
      try {
        expected = recordKey(JSON.parse(text), rules);
      } catch {
        expected = undefined; // not JSON: what the bytes say is never trusted alone (the record is parsed)
      }
      const count = scanObject(buf, 0, buf.length, fields);
      const n = count >= 0 ? keyField(buf, fields, count, name) : -1;
      if (n >= 0 && expected !== undefined) {
        read++;
        assert.equal(`k:${buf.toString('utf8', fields[n * 4 + 2], fields[n * 4 + 3])}`, expected, text);
      }
      if (leadingKey(buf, 0, buf.length, Buffer.from('"id"'), leading) && expected !== undefined && count >= 0 && n >= 0) {
        // A leading key is the record's key whenever the name occurs once: the full scan agrees.
        if (text.indexOf('"id"') === text.lastIndexOf('"id"') && !text.includes('\\')) assert.equal(`k:${buf.toString('utf8', leading[2], leading[3])}`, expected, text);
      }
    }
    assert.ok(read >= 8, `${read} keys read from bytes`);
    assert.equal(keyField(Buffer.from('{"id":1.0}'), fields, scanObject(Buffer.from('{"id":1.0}'), 0, 10, fields), name), -1, '1.0 is not written back as it is');
  });

  void it('surelyDiffer says differ only where contents differ, and says it for most changed pairs', () => {
    const { a, b } = generate(31, 400, 'few');
    for (const rules of [rulesOf('code'), rulesOf('code', ['amount', 'name'])]) {
      const prover = new DifferenceProver(rules.ignore);
      const [fa, fb] = [fieldSpans(), fieldSpans()];
      let said = 0;
      let differ = 0;
      // Pairs as they came, the other written in reverse field order, and a record against itself reversed.
      const reversed = (r: Rec): Rec => Object.fromEntries(Object.entries(r).reverse());
      const count = Math.min(a.length, b.length);
      const pairs = [...a.slice(0, count).map((x, i) => [x, b[i]!]), ...a.slice(0, count).map((x, i) => [x, reversed(b[i]!)]), ...a.map((x) => [x, reversed(x)])];
      for (const [p, q] of pairs) {
        const [x, y] = [Buffer.from(JSON.stringify(p)), Buffer.from(JSON.stringify(q))];
        const [na, nb] = [scanObject(x, 0, x.length, fa), scanObject(y, 0, y.length, fb)];
        const truly = contentOf(p, rules) !== contentOf(q, rules);
        if (truly) differ++;
        for (const unique of [false, true]) {
          const sure = prover.surelyDiffer(x, fa, na, y, fb, nb, unique);
          if (sure) assert.ok(truly, `${JSON.stringify(p)} vs ${JSON.stringify(q)}`);
          if (sure && !unique) said++;
        }
      }
      assert.ok(said > differ / 3, `said ${said} of ${differ}`);
    }
  });

  void it('a side shaped from bytes has the shape its records parsed give', () => {
    const records = ['{"a":1,"b":"x"}', '{"a":2,"b":"y"}', '{"a":"3","b":"y"}', '{"b":null,"a":1}', '{"a":1,"b":"x","c":[1,{"d":true}]}', '{"a":1,"b":"x"}', '{"a":1,"a":"s"}', '{"a":2,"a":"t"}', '{"a":false}', '{"e":{}}'];
    const direct = new ShapeTracker(new Set());
    const fromBytes = new ShapeTracker(new Set());
    const flat = new FlatShapes(fromBytes);
    const fields = fieldSpans();
    let parsed = 0;
    for (const text of records) {
      direct.add(JSON.parse(text));
      const buf = Buffer.from(text);
      const count = scanObject(buf, 0, buf.length, fields);
      const before = JSON.stringify([...fromBytes.types].map(([p, t]) => [p, [...t]]));
      flat.add(buf, fields, count, 0, buf.length, 'x.ndjson', 1);
      if (JSON.stringify([...fromBytes.types].map(([p, t]) => [p, [...t]])) !== before) parsed++;
    }
    assert.deepEqual([...fromBytes.types].map(([p, t]) => [p, [...t].sort()]), [...direct.types].map(([p, t]) => [p, [...t].sort()]));
    assert.ok(parsed >= 3);
    assert.throws(() => flat.add(Buffer.from('{"q":tru}'), fields, scanObject(Buffer.from('{"q":tru}'), 0, 9, fields), 0, 9, 'x.ndjson', 7), /x\.ndjson:7: not a JSON record/);
    // A record of the last flat shape is read by that shape: the same fields as the general scan; any other is not.
    flat.add(Buffer.from('{"a":1,"b":"x"}'), fields, scanObject(Buffer.from('{"a":1,"b":"x"}'), 0, 15, fields), 0, 15, 'x.ndjson', 1);
    const like = fieldSpans();
    for (const text of ['{"a":22,"b":"yy"}', ' { "a" : -1.5e3 , "b" : "" } ', '{"a":1,"b":"x\\"y"}', '{"a":"1","b":"x"}', '{"a":1,"b":"x","c":2}', '{"a":1}', '{"b":"x","a":1}', '{"a":1]'.replace(']', '],"b":"x"}'), '{"a":1,"b":"x"}x']) {
      const buf = Buffer.from(text);
      const count = flat.scanLike(buf, 0, buf.length, like);
      const general = scanObject(buf, 0, buf.length, fields);
      if (count >= 0) assert.deepEqual([...like.subarray(0, count * 4)], [...fields.subarray(0, general * 4)], text);
      assert.equal(count >= 0, ['{"a":22,"b":"yy"}', ' { "a" : -1.5e3 , "b" : "" } '].includes(text), text);
    }
  });
});

void describe('the two ways a record is read without its content text', () => {
  void it('sameContent answers as contentOf texts compared, on generated pairs (volatile values, ignored paths, nesting)', () => {
    const { a, b } = generate(11, 400, 'few');
    const extra: Rec[] = [{ x: [1, { y: null }] }, { x: [1, { y: 0 }] }, { x: [] }, { x: {} }, { x: ['2026-01-01'] }, { x: ['2027-01-01'] }, { x: ['~'] }, { x: { at: '2026-01-01' } }, { x: {} , n: -0 }, { x: {}, n: 0 }, { __proto__: 1 } as Rec];
    const all = [...a.slice(0, 150), ...b.slice(0, 150), ...extra];
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
  void it('counts a moved record as unchanged, a volatile-only difference as none, and names field changes', async () => {
    const a = [{ id: 1, n: 'a', at: '2026-01-01T00:00:00Z' }, { id: 2, n: 'b' }, { id: 3, n: 'c', x: { y: 1 } }, { id: 4, n: 'd' }];
    const b = [{ id: 4, n: 'd' }, { id: 3, n: 'c', x: { y: '1' }, z: 0 }, { id: 1, n: 'a', at: '2026-02-02T00:00:00Z' }, { id: 5, n: 'e' }];
    const { result, diffs } = await compare(writeNdjson('ea.ndjson', a), writeNdjson('eb.ndjson', b), rulesOf('id'), 1);
    assert.deepEqual([result.added, result.removed, result.changed, result.unchanged], [1, 1, 1, 2]);
    const changed = diffs.find((d) => d.kind === 'changed');
    assert.deepEqual(changed?.key, 3);
    assert.deepEqual(changed?.fields, [{ path: 'x.y', kind: 'type', before: 1, after: '1' }, { path: 'z', kind: 'added', after: 0 }]);
    assert.deepEqual(result.shape, { onlyA: [], onlyB: ['z'], typeChanges: [{ path: 'x.y', a: ['number'], b: ['string'] }] });
  });

  void it('a record at the same position with the same text is the same record, before matching by key', async () => {
    // Key 1 twice on each side, equal contents but for a volatile date: by key alone A's first would pair
    // with B's second (equal contents pair first) and A's second would be reported changed.
    const a = [{ id: 1, n: 'a', at: '2026-01-01' }, { id: 1, n: 'a', at: '2026-02-02' }];
    const b = [{ id: 1, n: 'b' }, { id: 1, n: 'a', at: '2026-02-02' }];
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
