// An object body of many small arrays read past the skeleton's budget (made small here: SKELETON), where
// the arrays the rule passes over leave nothing (laneRows.ts, laneDoubts.ts): random bodies with fixed
// seeds (keys given twice as arrays and not, ties, index-like keys, arrays two levels down, outer objects
// given twice) against the oracle, JSON.parse of the whole body and the rule. Each read gives the
// oracle's rows and count, or a refusal in words that names the rows with items=; a body that gives no
// key twice is never refused. And what the skeleton keeps does not grow with the arrays passed over.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { RowsRefusedError } from '../../src/core/export/splitResult';
import { readAnywhere, SKELETON } from '../../src/core/paging/anywhereFetch';
import { fieldsNotHeldUnnamed } from '../../src/core/paging/notHeld';
import { rowsRule } from '../../src/core/paging/rows';
import { mulberry32 } from '../../src/sandbox/shared/prng';

const rule = rowsRule('none', {});

interface Body { readonly text: string; readonly twice: boolean }

/** A body of `n` top-level entries: small arrays of objects (ties), numbers, objects holding arrays, keys again. */
function body(seed: number, n: number): Body {
  // Seeded: the same bodies on every run.
  const r = mulberry32(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
  let twice = false;
  let row = 0;
  const array = (most = false): string => {
    const count = most ? 4 : pick([0, 1, 1, 2, 2, 2, 3, 3, 4]);
    const numbers = r() < 0.1;
    return `[${Array.from({ length: count }, () => (numbers ? String(row++) : `{"i":${row++}}`)).join(',')}]`;
  };
  const top: string[] = [];
  const used: string[] = [];
  const dupRate = r() < 0.5 ? 0 : pick([0.002, 0.01, 0.05]);
  for (let i = 0; i < n; i++) {
    let key = `k${i}`;
    let again = false;
    if (used.length > 0 && r() < dupRate) {
      // Often a key of the body's start, again as an array that ties the largest: it stands first.
      key = r() < 0.5 ? used[Math.floor(r() * Math.min(used.length, 20))]! : pick(used);
      twice = true;
      again = r() < 0.5;
    } else if (r() < 0.01) {
      // An index-like key ("7"): JavaScript orders it first.
      key = String(Math.floor(r() * 50));
      if (used.includes(key)) {
        if (r() < dupRate * 20) twice = true;
        else key = `k${i}`;
      }
    }
    used.push(key);
    const kind = r();
    let value: string;
    if (again) value = array(true);
    else if (kind < 0.7) value = array();
    else if (kind < 0.8) value = pick(['5', '"s"', 'null', '{"x":1}']);
    else {
      const inner: string[] = [];
      const innerUsed: string[] = [];
      for (let j = 0, m = 1 + Math.floor(r() * 3); j < m; j++) {
        const k = pick(['a', 'b', 'c', '7'].filter((x) => !innerUsed.includes(x) || r() < dupRate * 20));
        if (innerUsed.includes(k)) twice = true;
        innerUsed.push(k);
        inner.push(`"${k}":${r() < 0.85 ? array() : '1'}`);
      }
      value = `{${inner.join(',')}}`;
    }
    top.push(`"${key}":${value}`);
  }
  // A field too large to hold, so the body streams (past 256 KiB) whatever its arrays.
  top.splice(Math.floor(r() * top.length), 0, `"pad":"${'x'.repeat(300_000)}"`);
  // Now and then a clear winner, early or late.
  if (r() < 0.3) top.splice(Math.floor(r() * top.length), 0, `"big":[${Array.from({ length: 9 }, (_, i) => `{"b":${i}}`).join(',')}]`);
  return { text: `{${top.join(',')}}`, twice };
}

interface Got { readonly lines: unknown[]; readonly rowCount: number | undefined; readonly error: unknown; readonly skeleton: Record<string, unknown> | undefined }

async function read(text: string, step: number): Promise<Got> {
  const bytes = Buffer.from(text);
  const written: string[] = [];
  let rowCount: number | undefined;
  let skeleton: Record<string, unknown> | undefined;
  let error: unknown;
  try {
    const result = await readAnywhere(async (each) => {
      for (let i = 0; i < bytes.length; i += step) await each(bytes.subarray(i, i + step));
    }, (b) => rule.find(b), (ndjson) => {
      written.push(Buffer.concat(ndjson).toString('utf8'));
      return Promise.resolve();
    }, true);
    rowCount = result.streamed?.rowCount;
    skeleton = result.body.ok ? result.body.value as Record<string, unknown> : undefined;
  } catch (e) {
    error = e;
  }
  const lines = written.join('').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as unknown);
  return { lines, rowCount, error, skeleton };
}

void describe('arrays passed over past the skeleton\'s budget leave nothing, and the answer stays JSON.parse\'s', () => {
  const budget = SKELETON.keptBytes;
  before(() => { SKELETON.keptBytes = 4096; });
  after(() => { SKELETON.keptBytes = budget; });

  void it('random bodies (fixed seeds): the oracle\'s rows, or refused in words; never refused without a key given twice', async () => {
    let refused = 0, refusedTwice = 0, answered = 0, withTwice = 0;
    for (let seed = 1; seed <= 160; seed++) {
      const { text, twice } = body(seed, 800 + (seed % 5) * 900);
      if (twice) withTwice++;
      const found = rule.find(JSON.parse(text));
      const rows = found.ok ? [...found.rows] : [];
      const got = await read(text, [997, 4093, 65536][seed % 3]!);
      if (got.error !== undefined) {
        assert.ok(got.error instanceof RowsRefusedError && /name the rows with items=/.test(got.error.message), `seed ${seed}: ${got.error instanceof Error ? got.error.message : typeof got.error}`);
        assert.ok(twice, `seed ${seed}: refused, but the body gives no key twice: ${got.error.message}`);
        assert.deepEqual(got.lines, [], `seed ${seed}: nothing written once refused`);
        refused++;
        if (twice) refusedTwice++;
        continue;
      }
      answered++;
      assert.deepEqual({ lines: got.lines, rowCount: got.rowCount ?? 0 }, { lines: rows, rowCount: rows.length }, `seed ${seed}${twice ? ' (a key twice)' : ''}`);
    }
    console.log(`# ${answered} answered, ${refused} refused (${refusedTwice} giving a key twice), ${withTwice} giving a key twice`);
    // The bodies give keys twice often enough to test it, and most of them are still answered.
    assert.ok(withTwice >= 40 && withTwice <= 120, `bodies with a key twice: ${withTwice}`);
    assert.ok(answered >= 120, `answered ${answered}, refused ${refused} (${refusedTwice} with a key twice)`);
  });

  void it('a tie with a key given before: the later copy stands first and wins (kept), or the body is refused', async () => {
    // "b" first as a number, then many equal arrays, then "b" again as an equal array: JSON.parse puts it
    // at its first place, before "k0", so the rule's first of the equal ones is "b".
    const parts = Array.from({ length: 3000 }, (_, i) => `"k${i}":[{"i":${i}}]`);
    const text = `{"b":1,"pad":"${'x'.repeat(300_000)}",${parts.join(',')},"b":[{"i":"b"}]}`;
    const got = await read(text, 4093);
    const found = rule.find(JSON.parse(text));
    assert.ok(found.ok && found.path === 'b');
    if (got.error === undefined) assert.deepEqual(got.lines, [{ i: 'b' }]);
    else assert.ok(got.error instanceof RowsRefusedError && /name the rows with items=/.test(got.error.message), got.error instanceof Error ? got.error.message : 'no refusal');
  });

  void it('the kept array given again smaller, the runner-up passed over: refused in words, never the smaller one', async () => {
    const parts = Array.from({ length: 3000 }, (_, i) => `"k${i}":[{"i":${i}}]`);
    const text = `{"pad":"${'x'.repeat(300_000)}","a":[{"a":1},{"a":2},{"a":3}],"r":[{"r":1},{"r":2}],${parts.join(',')},"a":[{"a":0}]}`;
    const found = rule.find(JSON.parse(text));
    assert.ok(found.ok && found.path === 'r');
    const got = await read(text, 4093);
    assert.ok(got.error instanceof RowsRefusedError && /the key "a" twice/.test(got.error.message) && /name the rows with items=/.test(got.error.message), got.error instanceof Error ? got.error.message : 'no refusal');
    assert.deepEqual(got.lines, []);
  });

  void it('the skeleton does not grow with the arrays passed over: their keys are counted, not held', async () => {
    const parts = Array.from({ length: 40_000 }, (_, i) => `"k${i}":[{"i":${i}},{"j":${i}}]`);
    const text = `{${parts.join(',')},"Data":[${Array.from({ length: 5 }, (_, i) => `{"d":${i}}`).join(',')}]}`;
    const got = await read(text, 65536);
    assert.equal(got.error, undefined);
    assert.deepEqual(got.lines, (JSON.parse(text) as { Data: unknown[] }).Data);
    const keys = Object.keys(got.skeleton!);
    assert.ok(keys.length < 200, `the skeleton holds ${keys.length} keys`);
    assert.ok(keys.includes('Data'));
    assert.ok(fieldsNotHeldUnnamed(got.skeleton!) > 38_000, 'the arrays let go are counted as fields not held');
  });
});
