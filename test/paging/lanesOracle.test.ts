// An object body of many small arrays one or two levels down (src/core/paging/lane.ts, laneRows.ts), read
// against oracles (JSON.parse of the body, or of the rows fully received for a cut body, and the rule
// itself), by a review of the lanes that ask the rule of stand-ins: keys JavaScript orders first ("7"),
// keys given twice, random and pretty-printed bodies, cuts at every byte, faults inside a held lane. A
// key given twice may be refused in words; rows are never lost silently.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MalformedJsonError } from '../../src/core/export/jsonRowSplitter';
import { RowsRefusedError } from '../../src/core/export/splitResult';
import { oracleAt, read, rule, small, type Built, type Read } from './laneReads';


const oracleRows = (text: string): unknown[] => {
  const found = rule.find(JSON.parse(text));
  assert.ok(found.ok);
  return [...found.rows];
};

/**
 * A body that gives a key twice (JSON allows it; JSON.parse keeps the last, in the first one's place): the
 * oracle's rows, or a refusal that says to name the rows, never other rows and never rows claimed but unwritten.
 */
function rowsOrRefused(got: Read, lines: unknown[], note = ''): void {
  if (got.error === undefined) return assert.deepEqual({ lines: got.lines, rowCount: got.rowCount }, { lines, rowCount: lines.length }, note);
  assert.ok(got.error instanceof RowsRefusedError && /name the rows with items=/.test(got.error.message), `${note} ${got.error instanceof Error ? got.error.message : JSON.stringify(got.error)}`);
  assert.deepEqual(got.lines, [], `${note}: nothing written once refused`);
}

void describe('lanes against the oracle', () => {
  void it('integer-like key among equal lanes (depth 1): JSON.parse orders it first', async () => {
    // Object.keys puts array-index keys ("7") before all others: the rule's "first" is "7".
    const parts = small(30_000, 1, (i) => [{ i }]);
    parts[5_000] = `"7":${JSON.stringify([{ i: 'seven' }])}`;
    const text = `{${parts.join(',')}}`;
    const got = await read(text, undefined, 4093);
    assert.equal(got.error, undefined);
    assert.deepEqual({ lines: got.lines, rowCount: got.rowCount }, { lines: oracleRows(text), rowCount: oracleRows(text).length });
  });

  void it('integer-like key among equal lanes (depth 2)', async () => {
    const inner = Array.from({ length: 30_000 }, (_, i) => `"${i === 5_000 ? '7' : `k${i}`}":${JSON.stringify([{ i }])}`);
    const text = `{"o":{${inner.join(',')}}}`;
    const got = await read(text, undefined, 4093);
    assert.equal(got.error, undefined);
    assert.deepEqual({ lines: got.lines, rowCount: got.rowCount }, { lines: oracleRows(text), rowCount: oracleRows(text).length });
  });

  void it('integer-like outer key holding depth-2 lanes', async () => {
    const parts = small(30_000, 2, (i) => [{ i }]);
    parts[5_000] = `"7":{"v":${JSON.stringify([{ i: 'seven' }])}}`;
    const text = `{${parts.join(',')}}`;
    const got = await read(text, undefined, 4093);
    assert.equal(got.error, undefined);
    assert.deepEqual({ lines: got.lines, rowCount: got.rowCount }, { lines: oracleRows(text), rowCount: oracleRows(text).length });
  });

  void it('two integer keys, later smaller first: "9" after "10"', async () => {
    const parts = small(30_000, 1, (i) => [{ i }]);
    parts[100] = `"10":${JSON.stringify([{ i: 'ten' }])}`;
    parts[6_000] = `"9":${JSON.stringify([{ i: 'nine' }])}`;
    const text = `{${parts.join(',')}}`;
    const got = await read(text, undefined, 4093);
    assert.equal(got.error, undefined);
    assert.deepEqual({ lines: got.lines, rowCount: got.rowCount }, { lines: oracleRows(text), rowCount: oracleRows(text).length });
  });
});

function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => { s = (s + 0x6d2b79f5) >>> 0; let t = s; t = Math.imul(t ^ (t >>> 15), t | 1); t ^= t + Math.imul(t ^ (t >>> 7), t | 61); return ((t ^ (t >>> 14)) >>> 0) / 4294967296; };
}

/** A body of many small arrays, most alike, with a few odd ones: keys repeated, error lists, depth 2, primitives. */
function randomBody(seed: number, intKeys: boolean): string {
  const r = prng(seed);
  const int = (n: number): number => Math.floor(r() * n);
  const parts: string[] = [];
  const n = 25_000 + int(5_000);
  const arr = (i: number): string => {
    const k = int(40);
    if (k === 0) return JSON.stringify([{ i }, { i }]);
    if (k === 1) return JSON.stringify([1, 2]);
    if (k === 2) return JSON.stringify([{ i }, 2]);
    if (k === 3) return JSON.stringify([]);
    if (k === 4) return JSON.stringify([{ i, s: 'x'.repeat(int(3) === 0 ? 20_000 : 10) }]);
    return JSON.stringify([{ i }]);
  };
  const key = (i: number): string => {
    const k = int(200);
    if (k === 0) return ['Errors', 'errors', 'Error'][int(3)]!;
    if (k === 1) return `k${int(i + 1)}`; // a repeat, maybe
    if (k === 2 && intKeys) return String(int(50));
    if (k === 3) return 'password';
    return `k${i}`;
  };
  for (let i = 0; i < n; i++) {
    if (int(10) === 0) {
      const inner = Array.from({ length: 1 + int(3) }, (_, j) => `${JSON.stringify(key(i * 10 + j))}:${arr(i)}`);
      if (int(4) === 0) inner.push(`"n":1`);
      parts.push(`${JSON.stringify(key(i))}:{${inner.join(',')}}`);
    } else if (int(50) === 0) parts.push(`${JSON.stringify(key(i))}:{"deep":{"x":${arr(i)}}}`);
    else parts.push(`${JSON.stringify(key(i))}:${arr(i)}`);
  }
  return `{${parts.join(',')}}`;
}

void describe('random bodies of many small arrays against JSON.parse and the rule', () => {
  for (const intKeys of [false, true]) {
    for (let seed = 1; seed <= 12; seed++) {
      void it(`random body seed ${seed}${intKeys ? ' (with integer-like keys)' : ''}`, async () => {
        const text = randomBody(seed, intKeys);
        const r = prng(seed * 7);
        const step = [1, 7, 4093, 65536, 1 + Math.floor(r() * 100_000)][seed % 5]!;
        if (step < 100 && Buffer.byteLength(text) > 2_000_000) return;
        const got = await read(text, undefined, step === 1 ? 997 : step);
        const expected = rule.find(JSON.parse(text));
        if (!expected.ok) return assert.deepEqual(got.lines, []);
        rowsOrRefused(got, [...expected.rows], `step ${step}`);
      });
    }
  }
});

function buildSmall(seed: number): Built {
  const r = prng(seed);
  let text = `{"Blob":${JSON.stringify('x'.repeat(300_000))}`;
  const ends: Built['ends'] = [];
  for (let a = 0; a < 120; a++) {
    const depth2 = r() < 0.3;
    const path = depth2 ? [`o${a}`, 'v'] : [`a${a}`];
    text += depth2 ? `,"o${a}":{"v":[` : `,"a${a}":[`;
    const n = 1 + Math.floor(r() * 3);
    for (let i = 0; i < n; i++) {
      if (i > 0) text += ',';
      const row = { a, i, s: r() < 0.2 ? 'q"\\]}' : 'p' };
      text += JSON.stringify(row);
      ends.push({ path, end: Buffer.byteLength(text), row });
    }
    text += depth2 ? ']}' : ']';
  }
  return { text: `${text}}`, ends };
}

void describe('a body of small lanes cut at every byte', () => {
  for (const seed of [1, 2]) {
    void it(`cut at every byte among small lanes, seed ${seed}`, async () => {
      const built = buildSmall(seed);
      const start = 300_000;
      const size = Buffer.byteLength(built.text);
      const bad: string[] = [];
      for (let cut = start; cut < size; cut += seed === 1 ? 1 : 3) {
        const got = await read(built.text, cut, seed === 1 ? 4093 : 1000);
        const want = oracleAt(built, cut);
        try { assert.deepEqual(got.lines, want); } catch { bad.push(`cut ${cut}: got ${JSON.stringify(got.lines)} want ${JSON.stringify(want)}`); }
        if (bad.length > 3) break;
      }
      assert.deepEqual(bad, []);
    });
  }

  void it('malformed bytes inside a held small lane among many: the fault at its byte', async () => {
    const r = prng(5);
    for (let t = 0; t < 40; t++) {
      const parts = small(20_000, r() < 0.5 ? 1 : 2, (i) => [{ i }, { i }]);
      const at = Math.floor(r() * parts.length);
      const p = parts[at]!;
      const cutAt = p.lastIndexOf('{');
      parts[at] = `${p.slice(0, cutAt)}{"i":,${p.slice(cutAt + 5)}`;
      const text = `{${parts.join(',')}}`;
      const step = [4093, 65536, 997, 17][t % 4]!;
      const got = await read(text, undefined, step);
      assert.ok(got.error instanceof MalformedJsonError, `t ${t}`);
      assert.match(String(got.error), new RegExp(`malformed JSON at byte ${text.indexOf('{"i":,') + 5}:`), `t ${t} step ${step}`);
    }
  });
});

void describe('a lane hidden later by a duplicate key that is not an array', () => {
  for (const [name, tail] of [['a number', '"k0":5'], ['an object', '"k0":{"x":1}'], ['null', '"k0":null'], ['an array of numbers', '"k0":[1,2]'], ['an error list name reused', '"k0":[]']] as const) {
    void it(`the first of equal lanes later given again as ${name}`, async () => {
      const text = `{${small(30_000, 1, (i) => [{ i }]).join(',')},${tail}}`;
      const got = await read(text, undefined, 4093);
      rowsOrRefused(got, oracleRows(text));
    });
  }
  void it('an outer key of depth-2 lanes given again later as a number', async () => {
    const text = `{${small(30_000, 2, (i) => [{ i }]).join(',')},"k0":5}`;
    const got = await read(text, undefined, 4093);
    rowsOrRefused(got, oracleRows(text));
  });
});

void describe('pretty-printed bodies (blanks and newlines inside the small arrays)', () => {
  for (let seed = 1; seed <= 6; seed++) {
    void it(`pretty random body seed ${seed}`, async () => {
      const text = JSON.stringify(JSON.parse(randomBody(seed, false)) as unknown, null, seed % 2 ? 1 : '\t');
      const got = await read(text, undefined, [4093, 65536, 997][seed % 3]);
      const expected = rule.find(JSON.parse(text));
      assert.equal(got.error, undefined);
      if (!expected.ok) return assert.deepEqual(got.lines, []);
      assert.deepEqual({ lines: got.lines, rowCount: got.rowCount }, { lines: [...expected.rows], rowCount: expected.rows.length });
    });
  }
  void it('mixed-type small arrays: first row a primitive then objects, blanks before rows', async () => {
    const parts = Array.from({ length: 30_000 }, (_, i) => `"k${i}": [ ${i % 1000 === 7 ? '1, ' : ''}{"i":${i}} , {"j":${i}} ]`);
    parts[12_345] = `"k12345": [\n 1,\n {"i":1},\n {"i":2} ,"x"\n]`;
    const text = `{${parts.join(',')}}`;
    const got = await read(text, undefined, 4093);
    assert.deepEqual({ lines: got.lines, rowCount: got.rowCount }, { lines: oracleRows(text), rowCount: oracleRows(text).length });
  });
});

void describe('a duplicate key whose first place is before the chosen lane', () => {
  void it('"k0" first holds numbers, later holds a row like the others: JSON.parse puts it first', async () => {
    const parts = small(30_000, 1, (i) => [{ i }]);
    parts[0] = '"k0":[1,2]';
    const text = `{${parts.join(',')},"k0":[{"i":"again"}]}`;
    const got = await read(text, undefined, 4093);
    rowsOrRefused(got, oracleRows(text));
  });
});
