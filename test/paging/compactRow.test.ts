// A pretty-printed row on one line: the blanks between tokens dropped, every other byte as it came,
// whatever the seams between the pieces it is held in (oracle: JSON.stringify of the value).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ByteBlocks } from '../../src/core/export/byteBlocks';
import { appendCompactRow } from '../../src/core/export/compactRow';

function compact(text: string, cuts: readonly number[]): string {
  const bytes = Buffer.from(text, 'utf8');
  const pieces: Buffer[] = [];
  let from = 0;
  for (const cut of [...cuts, bytes.length]) {
    pieces.push(Buffer.from(bytes.subarray(from, cut)));
    from = cut;
  }
  const out = new ByteBlocks(16);
  appendCompactRow(out, pieces);
  return Buffer.concat(out.buffers()).toString('utf8');
}

/** A small pseudo-random generator, so a failure is the same failure again. */
function random(seed: number): () => number {
  let s = seed;
  return () => ((s = (s * 1103515245 + 12345) % 2147483648) / 2147483648);
}

const STRINGS = ['', ' ', 'a b', '"', '\\', '\\"', '"\\', 'x\\\\"y', '\n\t\r', ' { } [ ] , : ', 'Zoë 東京 😀', '\\u0041'];

function value(next: () => number, depth: number): unknown {
  const pick = next();
  if (depth > 3 || pick < 0.3) return STRINGS[Math.floor(next() * STRINGS.length)];
  if (pick < 0.4) return Math.floor(next() * 1e6) / 100;
  if (pick < 0.45) return [true, false, null][Math.floor(next() * 3)];
  if (pick < 0.7) return Array.from({ length: Math.floor(next() * 4) }, () => value(next, depth + 1));
  const object: Record<string, unknown> = {};
  for (let k = Math.floor(next() * 4); k > 0; k--) object[STRINGS[Math.floor(next() * STRINGS.length)]! + String(k)] = value(next, depth + 1);
  return object;
}

void describe('appendCompactRow', () => {
  void it('gives JSON.stringify’s line for any value pretty-printed, at every seam', () => {
    const next = random(7);
    for (let round = 0; round < 300; round++) {
      const row = { id: round, v: value(next, 0) };
      const line = JSON.stringify(row);
      const pretty = JSON.stringify(row, null, round % 2 ? '\t' : 2).replace(/\n/g, round % 3 ? '\r\n' : '\n');
      const cuts = [...new Set(Array.from({ length: 4 }, () => Math.floor(next() * pretty.length)))].sort((a, b) => a - b);
      // Cut inside a character's bytes too: a piece is bytes, not text.
      assert.equal(compact(pretty, cuts.map((c) => Buffer.byteLength(pretty.slice(0, c)) + (c % 2))), line, pretty);
    }
  });

  void it('keeps a backslash that ends a piece and the quote that begins the next as one escaped quote', () => {
    assert.equal(compact('{ "a" : "x\\" y" }', [9]), '{"a":"x\\" y"}');
    assert.equal(compact('{ "a" : "x\\\\" , "b" : 1 }', [10]), '{"a":"x\\\\","b":1}');
  });

  void it('keeps numbers and escapes as the server wrote them', () => {
    assert.equal(compact('[ 1E400 ,\n 12345678901234567890 , "\\u00e9" , 1.50 ]', []), '[1E400,12345678901234567890,"\\u00e9",1.50]');
  });
});
