// A body that is not JSON fails with facts, not only words (splitResult.ts MalformedJsonError.fault): the
// byte it stops being JSON at, or the bytes it had when it ended early. A reader that saw a part of the
// body (the anywhere read: lanes cut out, the skeleton fed without them) says the fault at its byte in the
// whole from those facts (MalformedJsonError.at), never by reading its own words back: the words are
// written in one place, and what the user reads stays as it was. Oracle: the byte in the text as sent.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MalformedJsonError, RowsRefusedError } from '../../src/core/export/splitResult';
import { read } from './laneReads';

const rows = (n: number): string => JSON.stringify(Array.from({ length: n }, (_, i) => ({ id: i, pad: 'x'.repeat(40) })));

void describe('a malformed body\'s fault, as facts', () => {
  void it('a broken byte inside an array, in the skeleton, and an early end: the facts are the words\' byte, in the whole body', async () => {
    const inLane = `{"a":${rows(3000).replace('{"id":2000,', '{"id":2000,,')},"b":1}`;
    const inSkeleton = `{"a":${rows(3000)},"b":1,,"c":2}`;
    const early = `{"a":${rows(3000)},"b":{"c":1`;
    for (const step of [7, 4096, 65536]) {
      for (const [text, at] of [[inLane, inLane.indexOf(',,') + 1], [inSkeleton, inSkeleton.indexOf(',,') + 1]] as const) {
        const got = await read(text, undefined, step);
        assert.ok(got.error instanceof MalformedJsonError, String(got.error));
        assert.deepEqual(got.error.fault && { endedEarly: got.error.fault.endedEarly, offset: got.error.fault.offset }, { endedEarly: false, offset: at }, `step ${step}`);
        assert.match(got.error.message, new RegExp(`^malformed JSON at byte ${at}: unexpected "," `));
      }
      const got = await read(early, undefined, step);
      assert.ok(got.error instanceof MalformedJsonError, String(got.error));
      assert.deepEqual(got.error.fault, { endedEarly: true, offset: Buffer.byteLength(early) }, `step ${step}`);
      assert.equal(got.error.message, `malformed JSON: the body ends early (after ${Buffer.byteLength(early)} bytes)`);
    }
  });

  void it('says the same fault at another byte in the same words; words without a byte stay as they are', () => {
    const atByte = new MalformedJsonError({ endedEarly: false, offset: 12, what: 'a number with a leading zero' });
    assert.equal(atByte.message, 'malformed JSON at byte 12: a number with a leading zero');
    const moved = atByte.at(120_000);
    assert.equal(moved.message, 'malformed JSON at byte 120000: a number with a leading zero');
    assert.deepEqual(moved.fault, { endedEarly: false, offset: 120_000, what: 'a number with a leading zero' });
    assert.equal(atByte.message, 'malformed JSON at byte 12: a number with a leading zero', 'the first error is left as it was');
    const early = new MalformedJsonError({ endedEarly: true, offset: 7 });
    assert.equal(early.message, 'malformed JSON: the body ends early (after 7 bytes)');
    assert.equal(early.at(9).message, 'malformed JSON: the body ends early (after 9 bytes)');
    for (const worded of [new MalformedJsonError('malformed JSON in field "b": Unexpected token'), new RowsRefusedError('the rows field "a" appears twice')]) {
      assert.equal(worded.fault, undefined);
      assert.equal(worded.at(5), worded);
    }
  });
});
