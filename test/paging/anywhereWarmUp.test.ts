// The streamed read's warm-up (src/core/paging/anywhereWarmUp.ts): its samples cover the paths it claims
// (an empty array, a rows array past LAZY_BYTES, a field after the rows, a top-level array, all JSON and
// held whole), it runs once, and it leaves nothing behind that changes a later read: a malformed page
// says the same byte and words, and a cut one hands over the same rows fully received, before and after
// it (oracle: the same read in the same process before the warm-up ran).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readAnywhere } from '../../src/core/paging/anywhereFetch';
import { HELD } from '../../src/core/paging/heldBody';
import { readInChunks, WARM_UP_READS, warmUpAnywhereOnce, warmUpBodies } from '../../src/core/paging/anywhereWarmUp';
import { LAZY_BYTES } from '../../src/core/paging/lane';
import { rowsRule } from '../../src/core/paging/rows';

const rule = rowsRule('generic', {});
const find = (body: unknown): ReturnType<typeof rule.findStreamed> => rule.findStreamed(body);
const rows = Array.from({ length: 6000 }, (_, i) => JSON.stringify({ id: i, name: `Customer ${i}`, active: i % 2 === 0 }));
const PAGE = `{"count":6000,"value":[${rows.join(',')}],"next_link":"/x?page=2"}`;
/** Row 4 000 broken by a byte no value starts with. */
const BROKEN = Buffer.from(PAGE.replace('{"id":4000,', '{"id":4000,#'));

interface Outcome { readonly error: string; readonly handed: number; readonly lines: number }

/** Reads `body` (64 KiB chunks, cut after `cutAt` bytes when given) with its whole rows handed over as they come. */
async function read(body: Buffer, cutAt?: number): Promise<Outcome> {
  let handed = 0;
  let lines = 0;
  const early = (ndjson: readonly Buffer[], count: number): Promise<void> => {
    handed += count;
    for (const part of ndjson) for (const byte of part) if (byte === 0x0a) lines++;
    return Promise.resolve();
  };
  const end = cutAt ?? body.length;
  try {
    await readAnywhere(async (each) => {
      for (let at = 0; at < end; at += 65536) await each(body.subarray(at, Math.min(end, at + 65536)));
      if (cutAt !== undefined) throw new Error('connection reset');
    }, find, early, true);
    return { error: '', handed, lines };
  } catch (error) {
    return { error: (error as Error).message, handed, lines };
  }
}

void describe('the streamed read\'s warm-up', () => {
  void it('reads samples that are JSON, held whole, with a rows array past LAZY_BYTES, an empty array and a field after the rows', () => {
    const [object, array] = warmUpBodies();
    for (const body of [object!, array!]) {
      assert.ok(body.length <= HELD.bytes, 'a sample larger than a held body: not a page\'s size');
      JSON.parse(body.toString('utf8'));
    }
    const text = object!.toString('utf8');
    const parsed = JSON.parse(text) as Record<string, unknown>;
    const rowsText = JSON.stringify(parsed['value']);
    assert.ok(rowsText.length > LAZY_BYTES, 'the rows array must be split as it arrives, past LAZY_BYTES');
    assert.match(text, /:\[\]/);
    assert.ok(text.indexOf('"next_link"') > text.indexOf('"value"'), 'a field after the rows');
    assert.ok(Array.isArray(JSON.parse(array!.toString('utf8'))));
  });

  void it('reads each sample without a fault, whole and cut, as the warm-up reads it (which ignores its faults)', async () => {
    for (const body of warmUpBodies()) {
      for (const [size, rowBytes] of WARM_UP_READS) {
        const got = await readInChunks(body, size, rowBytes);
        assert.equal(got.body.ok, true);
        assert.equal(got.size, body.length);
      }
    }
  });

  void it('leaves a malformed page its byte and words, and a cut page its rows fully received', async () => {
    const cutAt = Math.floor(BROKEN.length / 2);
    const before = { broken: await read(BROKEN), cut: await read(Buffer.from(PAGE), cutAt), whole: await read(Buffer.from(PAGE)) };
    await warmUpAnywhereOnce();
    await warmUpAnywhereOnce(); // once a process: the second call returns at once
    const after = { broken: await read(BROKEN), cut: await read(Buffer.from(PAGE), cutAt), whole: await read(Buffer.from(PAGE)) };
    assert.deepEqual(after, before);
    assert.match(before.broken.error, /^malformed JSON at byte \d+: unexpected "#"/);
    assert.equal(before.broken.error.match(/byte (\d+)/)![1], String(BROKEN.indexOf('#')));
    assert.equal(before.broken.handed, 4000);
    assert.equal(before.cut.error, 'connection reset');
    assert.ok(before.cut.handed > 0 && before.cut.handed < 6000);
    assert.equal(before.cut.handed, before.cut.lines);
    assert.deepEqual(before.whole, { error: '', handed: 6000, lines: 6000 });
  });
});
