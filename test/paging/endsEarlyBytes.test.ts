// An object body read anywhere whose end never comes fails in words with its byte count, "malformed JSON:
// the body ends early (after N bytes)". The skeleton's splitter is fed the body without its arrays'
// content (anywhereFetch.ts): its count is put back to the bytes received, arrays included. Found by a
// review (older than the fix). Oracle: the body's length as received. The rows fully received are kept.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { read } from './laneReads';

void describe('an object body that ends early: the words count the bytes received', () => {
  void it('rows one level down, then an object never closed: "after <the body\'s length> bytes"', async () => {
    const text = `{"a":${JSON.stringify(Array.from({ length: 5000 }, (_, i) => ({ i, pad: 'x'.repeat(60) })))},"b":{"c":1`;
    const got = await read(text, undefined, 65536);
    assert.ok(got.error instanceof Error);
    assert.equal(got.lines.length, 5000, 'the rows fully received are kept');
    assert.match(got.error.message, new RegExp(`ends early \\(after ${Buffer.byteLength(text)} bytes\\)`), got.error.message);
  });

  void it('a long field, a small array, then a string never closed: "after <the body\'s length> bytes"', async () => {
    const text = `{"f":"${'y'.repeat(300_000)}","a":[{"x":1},{"x":2}],"b":[{"y":"\\`;
    const got = await read(text, undefined, 65536);
    assert.ok(got.error instanceof Error);
    assert.match(got.error.message, new RegExp(`ends early \\(after ${Buffer.byteLength(text)} bytes\\)`), got.error.message);
  });
});
