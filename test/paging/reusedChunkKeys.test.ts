// A reader may reuse a chunk's buffer once its callback has settled (the premise small lanes keep views
// under: Lane.own). The array cutter (arrayLanes.ts) keeps the last key of each depth as a view of the
// chunk it ended in and decodes it only when an array opens: a key ending one chunk whose array opens in
// the next must not be read from the reused buffer (a business list "errors" became a lane; rows landed
// under a garbled path). The product's readers (undici, zlib) hand fresh chunks today. Oracle: JSON.parse
// of the whole body.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readAnywhere } from '../../src/core/paging/anywhereFetch';
import { rowsRule } from '../../src/core/paging/rows';

const rule = rowsRule('none', {});
const rows = (n: number, tag: string): string => JSON.stringify(Array.from({ length: n }, (_, i) => ({ i, tag })));
const filler = `"f":"${'y'.repeat(300_000)}"`;

/** Reads `head` then `tail` as two chunks, from one buffer overwritten after each (reuse) or fresh. */
async function read(head: string, tail: string, reuse: boolean): Promise<{ value: unknown; lines: number }> {
  const parts = [Buffer.from(head), Buffer.from(tail)];
  const buffer = Buffer.alloc(Math.max(parts[0]!.length, parts[1]!.length));
  let lines = 0;
  const got = await readAnywhere(async (each) => {
    for (const part of parts) {
      if (!reuse) {
        await each(part);
        continue;
      }
      part.copy(buffer);
      await each(buffer.subarray(0, part.length));
      buffer.fill(0x5f);
    }
  }, (body) => rule.find(body), (ndjson) => {
    lines += Buffer.concat(ndjson).toString('utf8').split('\n').filter(Boolean).length;
    return Promise.resolve();
  }, true);
  assert.ok(got.body.ok);
  return { value: got.body.value, lines };
}

void describe('a key ending one chunk, its array opening the next, the chunk\'s buffer reused after', () => {
  for (const reuse of [false, true]) {
    void it(`a business error list "errors": kept as the server sent it (${reuse ? 'reused buffer' : 'fresh chunks'})`, async () => {
      const head = `{${filler},"Data":${rows(3, 'd')},"errors"`;
      const tail = ':[{"code":1,"message":"bad"}]}';
      const got = await read(head, tail, reuse);
      assert.deepEqual((got.value as { errors: unknown }).errors, (JSON.parse(head + tail) as { errors: unknown }).errors);
    });

    void it(`rows two levels down at "o.Items": placed at that path (${reuse ? 'reused buffer' : 'fresh chunks'})`, async () => {
      const head = `{${filler},"small":${rows(3, 's')},"o":{"Items"`;
      const tail = `:${rows(40, 'r')}}}`;
      const got = await read(head, tail, reuse);
      assert.equal(got.lines, 40);
      const value = got.value as Record<string, unknown>;
      assert.deepEqual(Object.keys(value), Object.keys(JSON.parse(head + tail) as object));
      assert.equal(((value['o'] as { Items: unknown[] }).Items).length, 40);
    });
  }
});
