// A body read whole and refused by JSON.parse is said in the product's words, at its byte (jsonFault.ts):
// the held anywhere body, a buffered page (parseBody) and a body the splitter keeps whole (not the shape
// its style reads rows from) never show V8's "Unexpected token …" words.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { jsonFault, parseJsonText } from '../../src/core/export/jsonFault';
import { ByteBlocks, JsonRowSplitter, MalformedJsonError } from '../../src/core/export/jsonRowSplitter';
import { parseBody } from '../../src/core/paging/pageFetch';
import type { HttpResponse } from '../../src/core/http/types';

const V8_WORDS = /Unexpected|is not valid JSON|at position|Expected|Unterminated|Bad (control|escaped)|No number/;

/** Bodies JSON.parse refuses, and where the product says they stop being JSON (a byte, or an early end). */
const FAULTS: readonly (readonly [string, string])[] = [
  [']', 'malformed JSON at byte 0: unexpected "]" where a value was expected'],
  [' ]', 'malformed JSON at byte 1: unexpected "]" where a value was expected'],
  ['1]', 'malformed JSON at byte 1: unexpected content after the end of the body'],
  ['1 2', 'malformed JSON at byte 2: unexpected content after the end of the body'],
  ['"a"x', 'malformed JSON at byte 3: unexpected content after the end of the body'],
  ['nul l', 'malformed JSON at byte 3: unexpected " " in "null"'],
  ['{"a":1}x', 'malformed JSON at byte 7: unexpected content after the end of the body'],
  ['[1]]', 'malformed JSON at byte 3: unexpected content after the end of the body'],
  ['[1,]', 'malformed JSON at byte 3: unexpected "]" where a value was expected'],
  ['{"a" 1}', 'malformed JSON at byte 5: unexpected "1" where ":" after a field name was expected'],
  ['01', 'malformed JSON at byte 1: a number with a leading zero'],
  ['"a\u0001"', 'malformed JSON at byte 2: a control character inside a string'],
  // A byte, not a UTF-16 position: "é" is two bytes.
  ['["é"]]', 'malformed JSON at byte 6: unexpected content after the end of the body'],
  ['tru', 'malformed JSON: the body ends early (after 3 bytes)'],
  ['[1', 'malformed JSON: the body ends early (after 2 bytes)'],
  ['-', 'malformed JSON: the body ends early (after 1 bytes)'],
];

function response(bodyText: string): HttpResponse {
  return { status: 200, statusText: 'OK', headers: { 'content-type': 'application/json' }, bodyText, timing: { startedAt: 0, firstByteMs: 1, totalMs: 1 }, sizeBytes: Buffer.byteLength(bodyText) };
}

void describe('jsonFault: a body JSON.parse refused, in the product\'s words', () => {
  for (const [body, words] of FAULTS) {
    void it(`${JSON.stringify(body)}: ${words}`, () => {
      assert.throws(() => JSON.parse(body));
      assert.equal(jsonFault(body).message, words);
      assert.throws(() => parseJsonText(body), (error: unknown) => error instanceof MalformedJsonError && error.message === words);
    });
  }

  void it('JSON.parse\'s value when it takes the body', () => {
    assert.deepEqual(parseJsonText(' {"a":[1,"x",null]} '), { a: [1, 'x', null] });
    assert.equal(parseJsonText('12'), 12);
  });

  void it('a buffered page (parseBody) that is not JSON: the product\'s words, never V8\'s', () => {
    for (const [body, words] of FAULTS) {
      const parsed = parseBody(response(body));
      assert.deepEqual(parsed, { ok: false, error: words });
    }
    assert.deepEqual(parseBody(response('{"a":1}')), { ok: true, value: { a: 1 } });
  });

  void it('a body the splitter keeps whole (not its style\'s shape): said at its byte in the body', () => {
    // Rows at "items": a body that is an array is kept whole, from its first byte (after the blanks).
    const splitter = new JsonRowSplitter('items', new ByteBlocks());
    splitter.push(Buffer.from('  [1,'));
    splitter.push(Buffer.from('2]]'));
    assert.throws(() => splitter.end(), (error: unknown) => {
      assert.ok(error instanceof MalformedJsonError);
      assert.doesNotMatch(error.message, V8_WORDS);
      assert.equal(error.message, 'malformed JSON at byte 7: unexpected content after the end of the body');
      return true;
    });
    const early = new JsonRowSplitter('items', new ByteBlocks());
    early.push(Buffer.from(' [1,2'));
    assert.throws(() => early.end(), { message: 'malformed JSON: the body ends early (after 5 bytes)' });
  });
});
