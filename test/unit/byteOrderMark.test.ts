// The client drops exactly one UTF-8 byte order mark at a body's start, wherever its first chunks end,
// and hands on every other byte as it came (src/core/http/byteOrderMark.ts).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { withoutByteOrderMark } from '../../src/core/http/byteOrderMark';

/** What a reader gets of a body arriving in `chunks`, joined. */
async function readOf(chunks: readonly Buffer[]): Promise<Buffer> {
  const got: Buffer[] = [];
  await withoutByteOrderMark(async (each) => {
    for (const chunk of chunks) await each(chunk);
  })((chunk) => {
    got.push(Buffer.from(chunk));
  });
  return Buffer.concat(got);
}

const MARK = [0xef, 0xbb, 0xbf];
const bytes = (...b: number[]): Buffer => Buffer.from(b);

void describe('one leading byte order mark', () => {
  void it('dropped, in one chunk or split byte by byte', async () => {
    const body = Buffer.from('[{"id":1}]');
    assert.deepEqual(await readOf([Buffer.concat([bytes(...MARK), body])]), body);
    assert.deepEqual(await readOf([bytes(0xef), bytes(0xbb), Buffer.concat([bytes(0xbf), body])]), body);
    assert.deepEqual(await readOf([bytes(0xef, 0xbb), bytes(0xbf), body]), body);
    assert.deepEqual(await readOf([bytes(...MARK)]), Buffer.alloc(0));
  });

  void it('only one: a second mark stays', async () => {
    assert.deepEqual(await readOf([bytes(...MARK, ...MARK, 0x5b, 0x5d)]), bytes(...MARK, 0x5b, 0x5d));
  });

  void it('bytes that only begin like the mark are handed on as they came', async () => {
    assert.deepEqual(await readOf([bytes(0xef)]), bytes(0xef));
    assert.deepEqual(await readOf([bytes(0xef), bytes(0xbb)]), bytes(0xef, 0xbb));
    assert.deepEqual(await readOf([bytes(0xef, 0xbb), bytes(0x41, 0x42)]), bytes(0xef, 0xbb, 0x41, 0x42));
    assert.deepEqual(await readOf([Buffer.from('{"a":"\uFEFF"}')]), Buffer.from('{"a":"\uFEFF"}'));
    assert.deepEqual(await readOf([]), Buffer.alloc(0));
  });
});
