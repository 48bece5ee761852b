// Object bodies read "anywhere" (no style) against JSON.parse and the rows rule, on shapes the lane
// tests do not list: an outer key given twice (its first object's arrays are not JSON.parse's), an
// error list's inner array, arrays three levels down, a key named __proto__, a key spelt with an escape.
// Either exactly the oracle's rows and count, or a refusal in words with nothing written: never other rows.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RowsRefusedError } from '../../src/core/export/splitResult';
import { read, rule } from './laneReads';

const rows = (n: number, tag: string): string => JSON.stringify(Array.from({ length: n }, (_, i) => ({ i, tag, pad: 'x'.repeat(40) })));
/** Over the size held whole: the body streams. */
const filler = Array.from({ length: 3000 }, (_, i) => `"f${i}":"${'y'.repeat(100)}"`).join(',');

const CASES: Record<string, { text: string }> = {
  'an outer key given twice, the first object\'s array larger': { text: `{${filler},"o":{"v":${rows(500, 'v')}},"o":{"w":${rows(3, 'w')}}}` },
  'an outer key given twice, the first object\'s array streamed large': { text: `{"o":{"v":${rows(30_000, 'v')}},${filler},"o":{"w":${rows(3, 'w')}}}` },
  'an outer key given twice, back to back': { text: `{${filler},"o":{"v":${rows(500, 'v')}},"o":{"w":${rows(3, 'w')}}}` },
  'an outer key given twice, the same inner key': { text: `{${filler},"o":{"v":${rows(500, 'first')}},"o":{"v":${rows(3, 'last')}}}` },
  'an outer key given twice, the last smaller but not an array there': { text: `{${filler},"o":{"v":${rows(500, 'v')}},"o":{"n":1},"a":${rows(2, 'a')}}` },
  'an outer object then an array under the same key': { text: `{"o":{"v":${rows(500, 'v')}},${filler},"o":${rows(3, 'top')}}` },
  'an array then an outer object under the same key': { text: `{"o":${rows(500, 'top')},${filler},"o":{"v":${rows(3, 'v')}}}` },
  'an array inside an error list object': { text: `{${filler},"Errors":{"list":${rows(50, 'e')}},"a":${rows(2, 'a')}}` },
  'an array three levels down': { text: `{${filler},"a":{"b":{"c":${rows(50, 'c')}}},"x":${rows(1, 'x')}}` },
  'a key named __proto__': { text: `{${filler},"__proto__":${rows(50, 'p')},"x":${rows(1, 'x')}}` },
  'a key spelt with an escape, then plainly': { text: `{${filler},"\\u0061":${rows(50, 'a1')},"a":${rows(3, 'a2')}}` },
};

void describe('object bodies read anywhere: the oracle\'s rows or a refusal in words', () => {
  for (const [name, { text }] of Object.entries(CASES)) {
    void it(name, async () => {
      for (const step of [4093, 65536, 997]) {
        const got = await read(text, undefined, step);
        const found = rule.find(JSON.parse(text));
        const want = found.ok ? [...found.rows] : [];
        if (got.error !== undefined) {
          assert.ok(got.error instanceof RowsRefusedError && /name the rows with items=/.test(got.error.message), `${name} step ${step}: ${got.error instanceof Error ? got.error.message : JSON.stringify(got.error)}`);
          assert.deepEqual(got.lines, [], 'nothing written once refused');
          continue;
        }
        assert.deepEqual({ lines: got.lines, rowCount: got.rowCount ?? 0 }, { lines: want, rowCount: want.length }, `${name} step ${step}`);
      }
    });
  }
});
