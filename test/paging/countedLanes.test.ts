// A small lane (lane.ts: an array one or two levels down that closes within LAZY_BYTES) is counted at its
// close by JSON.parse and its rows cut only if the rule keeps it, while its bytes are still the chunk's.
// Against JSON.parse of the whole body (rows, count, the secret-key candidates of the rows kept), the
// rows fully received for a body cut at any byte, and a byte-by-byte reading's words for a fault: with
// the lanes at every offset of a chunk boundary (7-byte chunks shifted by 0 to 6 bytes, and 1-byte
// chunks). The body starts with a string past the size held whole, read as one chunk, so it streams.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MalformedJsonError } from '../../src/core/export/jsonRowSplitter';
import { RowsRefusedError } from '../../src/core/export/splitResult';
import { readAnywhere } from '../../src/core/paging/anywhereFetch';
import { oracleAt, rule, type Built } from './laneReads';
import { byteByByteFault } from './wholeBodyFault';

interface Got { lines: unknown[]; rowCount: number | undefined; keys: string[]; error: unknown }

/** Reads `text` (up to byte `cut`): its first `head` bytes as one chunk, the rest in chunks of `step`. */
async function read(text: string, head: number, step: number, cut = Buffer.byteLength(text), store = true): Promise<Got> {
  const bytes = Buffer.from(text).subarray(0, cut);
  const written: string[] = [];
  let rowCount: number | undefined;
  let keys: string[] = [];
  let error: unknown;
  try {
    const got = await readAnywhere(async (each) => {
      await each(bytes.subarray(0, head));
      for (let i = head; i < bytes.length; i += step) await each(bytes.subarray(i, Math.min(i + step, bytes.length)));
    }, (body) => rule.find(body), store ? (ndjson) => { written.push(Buffer.concat(ndjson).toString('utf8')); return Promise.resolve(); } : undefined, store);
    rowCount = got.streamed?.rowCount;
    keys = [...got.streamed?.secretKeyCandidates ?? []];
  } catch (e) {
    error = e;
  }
  return { lines: written.join('').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as unknown), rowCount, keys, error };
}

/** The long string's length: past 256 KiB, as a body once held whole was within (readAnywhere is asked directly). */
const BLOB_BYTES = 256 * 1024 + 1000;

/** The body: a long string, `pad` blanks, then these arrays (one level down, or two under `outer.v`), rows' ends noted. */
function build(pad: number, arrays: readonly { path: string[]; rows: readonly unknown[] }[]): Built & { head: number } {
  let text = `{"Blob":${JSON.stringify('x'.repeat(BLOB_BYTES))}`;
  const head = Buffer.byteLength(text);
  text += ' '.repeat(pad);
  const ends: Built['ends'] = [];
  let lastOuter = '';
  for (const { path, rows } of arrays) {
    const nested = path.length === 2;
    if (lastOuter && (!nested || path[0] !== lastOuter)) text += '}';
    if (nested && path[0] !== lastOuter) text += `,${JSON.stringify(path[0])}:{${JSON.stringify(path[1])}:[`;
    else if (nested) text += `,${JSON.stringify(path[1])}:[`;
    else text += `,${JSON.stringify(path[0])}:[`;
    lastOuter = nested ? path[0]! : '';
    rows.forEach((row, i) => {
      text += (i > 0 ? ',' : '') + JSON.stringify(row);
      ends.push({ path, end: Buffer.byteLength(text), row });
    });
    text += ']';
  }
  if (lastOuter) text += '}';
  return { text: `${text}}`, ends, head };
}

const ARRAYS = [
  { path: ['k0'], rows: [{ i: 0 }, { j: 0 }] },
  { path: ['k1', 'v'], rows: [{ s: 'a ] in a string' }, { e: '"[\\' }] },
  { path: ['k2'], rows: [1, 'two', null] },
  // The rows: the largest array, small, with a key that may name a secret.
  { path: ['Items'], rows: [{ id: 1, password: 'p' }, { id: 2 }, { id: 3, 'tok\u00e9n': 'é' }, { id: 4 }] },
  { path: ['k3', 'v'], rows: [{ i: 3 }] },
  { path: ['k3', 'w'], rows: [[1, [2]], {}] },
  { path: ['k4'], rows: [] },
  // Larger, but no array of objects: the rule passes it over by its sample.
  { path: ['m'], rows: [[1], [2], [3], [4], [5]] },
];

void describe('small lanes counted at their close, their rows cut only when kept', () => {
  void it('span a chunk boundary at every byte: JSON.parse\'s rows, count and secret-key candidates, rows kept or not', async () => {
    for (const [pad, step] of [[0, 1], [0, 7], [1, 7], [2, 7], [3, 7], [4, 7], [5, 7], [6, 7]] as const) {
      const built = build(pad, ARRAYS);
      const found = rule.find(JSON.parse(built.text));
      assert.ok(found.ok);
      const got = await read(built.text, built.head, step);
      assert.equal(got.error, undefined, `pad ${pad}, step ${step}`);
      assert.deepEqual(got.lines, found.rows, `pad ${pad}, step ${step}`);
      assert.equal(got.rowCount, 4);
      assert.deepEqual(got.keys.sort(), ['password', 'tok\u00e9n'], `pad ${pad}, step ${step}`);
      assert.equal((await read(built.text, built.head, step, undefined, false)).rowCount, 4, `pad ${pad}, step ${step}, rows not kept`);
    }
  });

  void it('a body cut at any byte among them keeps the rows fully received', async () => {
    const built = build(0, ARRAYS);
    const length = Buffer.byteLength(built.text);
    for (const step of [1, 7]) {
      for (let cut = built.head + 1; cut < length; cut++) {
        const got = await read(built.text, built.head, step, cut);
        assert.ok(got.error instanceof Error, `cut at ${cut}: fails`);
        assert.deepEqual(got.lines, oracleAt(built, cut), `cut at ${cut}, step ${step}`);
      }
    }
  });

  void it('a key given twice: the later copy, at the first place, as JSON.parse keeps it', async () => {
    const rows = (...ns: number[]): unknown[] => ns.map((n) => ({ n }));
    const bodies = [
      // The larger array's key given again with a smaller one: a tie of the rest, the first place wins.
      [{ path: ['a'], rows: rows(1, 2, 3) }, { path: ['b'], rows: rows(4, 5) }, { path: ['a'], rows: rows(6, 7) }],
      // The later copy is the larger one.
      [{ path: ['a'], rows: rows(1) }, { path: ['b'], rows: rows(2, 3) }, { path: ['a'], rows: rows(4, 5, 6) }],
      // Two levels down: the outer object given again drops the first copy's arrays.
      [{ path: ['o', 'v'], rows: rows(1, 2, 3, 4) }, { path: ['b'], rows: rows(5, 6) }, { path: ['o', 'w'], rows: rows(7) }],
    ];
    const refused = new Set<unknown>();
    for (const arrays of bodies) {
      for (const [pad, step] of [[0, 1], [0, 7], [3, 7], [6, 7]] as const) {
        const built = build(pad, arrays);
        const found = rule.find(JSON.parse(built.text));
        assert.ok(found.ok);
        const got = await read(built.text, built.head, step);
        const said = `${built.text.slice(built.head)}, step ${step}`;
        // JSON.parse's rows, or (a copy passed over before the rule could know) refused in words, no rows written.
        if (got.error === undefined) assert.deepEqual(got.lines, found.rows, said);
        else {
          assert.ok(got.error instanceof RowsRefusedError, `${said}: ${(got.error as Error).message}`);
          assert.deepEqual(got.lines, [], said);
          refused.add(arrays);
        }
      }
    }
    // Refused as the lanes say (laneDoubts.ts): the first body's later copy of "a" passed over as it arrives
    // (a tie it loses by arrival, wins by place); in the third, "b" passed over while "o.v" was kept, then void.
    assert.deepEqual([...refused].map((b) => bodies.indexOf(b as never)), [0, 2]);
  });

  void it('not JSON inside one: the words and byte of a byte-by-byte reading of the whole body', async () => {
    const faults = ['[01]', '[1,]', '[{"a" 1}]', '["\u0001"]', '["\\q"]', '[1}]', '[tru]', '[{"a":1}}]', '[1 2]', '["a":1]'];
    for (const fault of faults) {
      const built = build(0, ARRAYS);
      const text = built.text.replace('"k2":[1,"two",null]', `"k2":${fault}`);
      assert.notEqual(text, built.text);
      const want = byteByByteFault(text);
      assert.ok(want?.startsWith('malformed JSON at byte '), `${fault}: ${want}`);
      for (const step of [1, 7, 65_536]) {
        const got = await read(text, built.head, step);
        assert.ok(got.error instanceof MalformedJsonError, `${fault}, step ${step}: ${String(got.error)}`);
        assert.equal(got.error.message, want, `${fault}, step ${step}`);
      }
    }
  });
});
