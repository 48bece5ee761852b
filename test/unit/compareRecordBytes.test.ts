// The record comparison read from bytes (src/core/compare/recordScan.ts, flatShape.ts, inStep.ts) against
// the brute-force oracle on records written every way a service might, and its byte readers against
// JSON.parse: keys, surely-different pairs, shapes.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { FlatShapes } from '../../src/core/compare/flatShape';
import { compareRecordFiles, type RecordDifference } from '../../src/core/compare/partitioned';
import { DifferenceProver, fieldSpans, keyField, leadingKey, scanObject } from '../../src/core/compare/recordScan';
import { contentOf, recordKey, rulesOf, type RecordRules } from '../../src/core/compare/records';
import { ShapeTracker } from '../../src/core/compare/shape';
import { generate, oracle, prng, type Rec } from './compareOracle';

const dir = mkdtempSync(join(tmpdir(), 'apiwb-compare-bytes-test-'));
after(() => rmSync(dir, { recursive: true, force: true }));

async function compare(a: string, b: string, rules: RecordRules, partitionBytes?: number) {
  const diffs: RecordDifference[] = [];
  const result = await compareRecordFiles({ path: a, format: 'ndjson' }, { path: b, format: 'ndjson' }, {
    rules, tempDir: dir, ...(partitionBytes ? { partitionBytes } : {}), onDifference: (d) => { diffs.push(d); },
  });
  return { result, diffs };
}

const asOracleText = (d: RecordDifference): string => JSON.stringify([d.kind, d.key, d.before ?? null, d.after ?? null]);

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

  // Sides in key order: a pair of one key at one position that surely differs is held back, and changed
  // when both sides' keys kept increasing to the end; any key out of order sends the held pairs to the
  // partitions (keyOrder.ts, pendingPairs.ts). Each case breaks the order another way, early or late.
  const keyed = (code: unknown, r: () => number): string => {
    const int = (max: number): number => Math.floor(r() * max);
    return JSON.stringify({ code, qty: int(50), outlet: ['bar', 'spa', 'pool'][int(3)]!, at: '2026-01-01' });
  };
  const orderCases: [string, (i: number) => unknown, (a: string[], b: string[], r: () => number) => void][] = [
    ['integer keys in order, across 9 → 10 and 99 → 100, some replaced by a new key in their place', (i) => i * 2, (_a, b, r) => {
      for (let i = 3; i < b.length; i += 17) b[i] = keyed(i * 2 + 1, r);
    }],
    ['a last record on B repeats an early key with A\'s content', (i) => i, (a, b) => b.push(a[5]!)],
    ['a last record on A repeats an early key with B\'s content', (i) => i, (a, b) => a.push(b[7]!)],
    ['a run of A out of order in the middle, B the same', (i) => i, (a, b) => {
      a.splice(100, 10, ...a.slice(100, 110).reverse());
      b.splice(100, 10, ...b.slice(100, 110).reverse());
    }],
    ['string keys in order, a record without a key half way', (i) => `k${String(i).padStart(4, '0')}`, (_a, b) => b.splice(150, 0, '{"qty":1}')],
    ['keys written 7.0 on B (read by parsing), one repeated late', (i) => i, (a, b) => {
      for (let i = 0; i < b.length; i += 5) b[i] = b[i]!.replace(/"code":(\d+)/, '"code":$1.0');
      b.push(a[2]!);
    }],
    ['negative keys, every pair at its place', (i) => -i, () => undefined],
    ['each key twice a side, B\'s two the other way round', (i) => Math.floor(i / 2), (a, b) => {
      for (let i = 0; i + 1 < a.length; i += 2) [b[i], b[i + 1]] = [a[i + 1]!, a[i]!];
    }],
    ['integer and string keys in turn, an integer repeated late', (i) => (i % 2 ? String(i) : i), (a, b) => b.push(a[4]!)],
  ];
  for (const [name, keyOf, bend] of orderCases) {
    void it(`keys in order: ${name}: the oracle's answer`, async () => {
      const r = prng(name.length);
      const a = Array.from({ length: 300 }, (_, i) => keyed(keyOf(i), r));
      // Most of B differs at its place; some of it keeps A's text.
      const b = a.map((text, i) => (i % 9 === 0 ? text : keyed(keyOf(i), r)));
      bend(a, b, r);
      const rules = rulesOf('code');
      const [pathA, pathB] = [join(dir, 'oa.ndjson'), join(dir, 'ob.ndjson')];
      writeFileSync(pathA, `${a.join('\n')}\n`);
      writeFileSync(pathB, `${b.join('\n')}\n`);
      const expected = oracle(a.map((t) => JSON.parse(t) as Rec), b.map((t) => JSON.parse(t) as Rec), rules, { a, b });
      for (const partitionBytes of [500, undefined]) {
        const quiet = await compareRecordFiles({ path: pathA, format: 'ndjson' }, { path: pathB, format: 'ndjson' }, { rules, tempDir: dir, ...(partitionBytes ? { partitionBytes } : {}) });
        assert.deepEqual({ added: quiet.added, removed: quiet.removed, changed: quiet.changed, unchanged: quiet.unchanged }, expected.counts);
        assert.deepEqual([quiet.rowsA, quiet.rowsB], [a.length, b.length]);
        const { result, diffs } = await compare(pathA, pathB, rules, partitionBytes);
        assert.deepEqual(diffs.map(asOracleText).sort(), expected.diffs);
        assert.deepEqual(quiet.shape, result.shape);
      }
      assert.ok(expected.counts['changed']! + expected.counts['unchanged']! > 250);
    });
  }

  void it('flat records whose integers differ only where ignored: the oracle\'s answer', async () => {
    const r = prng(57);
    const int = (max: number): number => Math.floor(r() * max);
    const row = (id: number, qty: number, price: number): string => JSON.stringify({ id, orderId: int(1e6), qty, price, seen: int(1e6) });
    const a = Array.from({ length: 400 }, (_, i) => row(i, int(9), int(9)));
    // B: every orderId and seen (both ignored) differs; qty or price on some only.
    const b = a.map((text) => {
      const x = JSON.parse(text) as { id: number; qty: number; price: number };
      return row(x.id, int(4) === 0 ? x.qty + 1 : x.qty, int(4) === 0 ? x.price + 1 : x.price);
    });
    const rules = rulesOf('id', ['seen', 'orderId']);
    const [pathA, pathB] = [join(dir, 'va.ndjson'), join(dir, 'vb.ndjson')];
    writeFileSync(pathA, `${a.join('\n')}\n`);
    writeFileSync(pathB, `${b.join('\n')}\n`);
    const expected = oracle(a.map((t) => JSON.parse(t) as Rec), b.map((t) => JSON.parse(t) as Rec), rules, { a, b });
    const quiet = await compareRecordFiles({ path: pathA, format: 'ndjson' }, { path: pathB, format: 'ndjson' }, { rules, tempDir: dir });
    assert.deepEqual({ added: quiet.added, removed: quiet.removed, changed: quiet.changed, unchanged: quiet.unchanged }, expected.counts);
    assert.ok(expected.counts['changed']! > 100 && expected.counts['unchanged']! > 100);
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

  void it('a number outside JSON\'s grammar (numberText.ts) is never surely different: the record is parsed, and refused', () => {
    const prover = new DifferenceProver(rulesOf('code').ignore);
    const [fa, fb] = [fieldSpans(), fieldSpans()];
    const y = Buffer.from('{"code":1,"amount":2}');
    const nb = scanObject(y, 0, y.length, fb);
    for (const amount of ['01', '-01', '1.', '.5', '1e', '1e+', '-', '2.50e']) {
      const x = Buffer.from(`{"code":1,"amount":${amount}}`);
      const na = scanObject(x, 0, x.length, fa);
      assert.ok(na > 0, `${amount}: scanned`);
      for (const unique of [false, true]) assert.equal(prover.surelyDiffer(x, fa, na, y, fb, nb, unique), false, amount);
    }
    // A JSON number that is another value is surely different (the check is not "never").
    const z = Buffer.from('{"code":1,"amount":2.5e0}');
    assert.equal(prover.surelyDiffer(z, fa, scanObject(z, 0, z.length, fa), y, fb, nb, false), true);
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
    for (const text of ['{"a":22,"b":"yy"}', ' { "a" : -1.5e3 , "b" : "" } ', '{"a":1,"b":"x\\"y"}', '{"a":"1","b":"x"}', '{"a":1,"b":"x","c":2}', '{"a":1}', '{"b":"x","a":1}', '{"a":1]'.replace(']', '],"b":"x"}'), '{"a":1,"b":"x"}x', '{"a":1,"b":"x"} ', '{"a":1,"b":"x"', '{"a":1,"bb":"x"}', '{"a":1,"b":"x"}}', '{"a":1,"b":"x",}', '{"a":1 ,"b":"x"}', '{"a":1,"b":x}', '{"a":1,"b":"x}']) {
      const buf = Buffer.from(text);
      const count = flat.scanLike(buf, 0, buf.length, like);
      const general = scanObject(buf, 0, buf.length, fields);
      if (count >= 0) assert.deepEqual([...like.subarray(0, count * 4)], [...fields.subarray(0, general * 4)], text);
      assert.equal(count >= 0, ['{"a":22,"b":"yy"}', ' { "a" : -1.5e3 , "b" : "" } ', '{"a":1,"b":"x"} ', '{"a":1 ,"b":"x"}'].includes(text), text);
    }
  });
});
