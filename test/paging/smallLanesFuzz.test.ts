// Bodies of many small arrays (each a small lane: lane.ts) with awkward items (brackets in strings,
// escapes, pretty-printed rows, nested arrays, secrets), read in random chunkings with and without rows
// kept, against JSON.parse of the whole body; a body broken at a random byte fails with the same words
// and byte whatever the chunking. From a review; seeded, so a failure replays.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { readAnywhere } from '../../src/core/paging/anywhereFetch';
import { rowsRule } from '../../src/core/paging/rows';

let seed = 20261129;
const rnd = (): number => { seed = (Math.imul(seed, 1103515245) + 12345) >>> 0; return (seed >>> 8) / 16777216; };
const pick = <T>(a: readonly T[]): T => a[Math.floor(rnd() * a.length)]!;
const ITEMS = ['{"i":1}', '1', '"s]"', '{"a":[1,2]}', '[3,[4]]', '{"password":"x"}', '{"k\\u0065y":"]"}', 'null', '{\n "p": 1\n}', '"\\"["', '{"x":{"y":[{"z":1}]}}', '  {"b" : 2 }  ', '{"__proto__":1}', '"é"', '-1.5e3', '{}', '[]'];
const array = (): string => `[${Array.from({ length: Math.floor(rnd() * 4) }, () => pick(ITEMS)).join(pick([',', ', ', ',\n']))}]`;
function body(n: number, depth: 1 | 2): string {
  const parts: string[] = [];
  for (let i = 0; i < n; i++) parts.push(depth === 1 || rnd() < 0.1 ? `"k${i}":${array()}` : `"k${i}":{"v":${array()}${rnd() < 0.2 ? `,"w":${array()}` : ''}}`);
  parts.splice(Math.floor(rnd() * n), 0, `"data":${JSON.stringify([{ row: 1 }, { row: 2 }, 'three'])}`);
  return `{${parts.join(pick([',', ',\n ']))}}`;
}

const rule = rowsRule('none', {});
async function read(bytes: Buffer, step: number, store: boolean): Promise<{ lines: unknown[]; rowCount: number | undefined; error: string | undefined }> {
  const written: string[] = [];
  try {
    const got = await readAnywhere(async (each) => {
      for (let i = 0; i < bytes.length; i += step) await each(bytes.subarray(i, i + step));
    }, (b) => rule.find(b), store ? (nd) => { written.push(Buffer.concat(nd).toString()); return Promise.resolve(); } : undefined, store);
    let rowCount = got.streamed?.rowCount;
    if (!got.streamed && got.body.ok) {
      const found = rule.find(got.body.value);
      rowCount = found.ok ? found.rows.length : undefined;
      if (found.ok) written.push(found.rows.map((r) => `${JSON.stringify(r)}\n`).join(''));
    }
    return { lines: written.join('').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as unknown), rowCount, error: undefined };
  } catch (error) {
    return { lines: [], rowCount: undefined, error: (error as Error).message };
  }
}

void it('small lanes read in place give JSON.parse\'s rows and count, in any chunking, rows kept or not', async () => {
  for (let t = 0; t < 4; t++) {
    const text = body(9_000 + Math.floor(rnd() * 4_000), t % 2 === 0 ? 1 : 2);
    const found = rule.find(JSON.parse(text));
    assert.ok(found.ok);
    const bytes = Buffer.from(text);
    for (const step of [1 + Math.floor(rnd() * 300), 4093, 65_536]) {
      const kept = await read(bytes, step, true);
      assert.deepEqual({ lines: kept.lines, rowCount: kept.rowCount, error: kept.error }, { lines: found.rows, rowCount: found.rows.length, error: undefined }, `body ${t} step ${step}`);
      const counted = await read(bytes, step, false);
      assert.equal(counted.rowCount, found.rows.length, `body ${t} step ${step}, rows not kept`);
    }
  }
});

void it('a body broken inside its small lanes fails with the same words and byte in any chunking', async () => {
  for (let t = 0; t < 4; t++) {
    const text = body(9_000, 1);
    const at = Math.floor(text.length / 4 + rnd() * text.length / 2);
    const broken = Buffer.from(text.slice(0, at) + pick(['}', ',', 'x', ':']) + text.slice(at));
    const words = new Set<string | undefined>();
    for (const step of [65_536, 4093, 1 + Math.floor(rnd() * 500)]) for (const store of [true, false]) words.add((await read(broken, step, store)).error);
    assert.equal(words.size, 1, [...words].join(' | '));
    assert.match([...words][0] ?? '', /malformed JSON/);
  }
});
