// One measure of nesting, two ways in: a whole text (jsonTextTooDeep, src/core/json/depth.ts) and a body's
// chunks as they arrive (HeldScan, src/core/json/heldScan.ts). Both against an oracle with a scanner of its
// own (jsonc-parser's visitor), on the texts a miscount hides in: brackets in strings, an escaped quote,
// `\\` before a closing quote, \u escapes, characters of several bytes, and MAX_JSON_DEPTH levels against
// one more; the chunks cut in two at every byte (in a string, between a backslash and what it escapes) and
// fed byte by byte. The whole text's offset is in characters, the chunks' in bytes: the same bracket.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { visit, type ParseErrorCode } from 'jsonc-parser';
import { jsonTextTooDeep, MAX_JSON_DEPTH } from '../../src/core/json/depth';
import { HeldScan } from '../../src/core/json/heldScan';

/** The deepest nesting of a JSON text, and the offset (characters) of its first bracket deeper than `limit`, or -1. */
function oracle(text: string, limit: number): { deepest: number; past: number } {
  let depth = 0, deepest = 0, past = -1;
  const open = (offset: number): void => {
    depth++;
    deepest = Math.max(deepest, depth);
    if (depth > limit && past < 0) past = offset;
  };
  const close = (): void => void depth--;
  const errors: ParseErrorCode[] = [];
  visit(text, { onObjectBegin: open, onArrayBegin: open, onObjectEnd: close, onArrayEnd: close, onError: (error) => errors.push(error) }, { disallowComments: true });
  assert.deepEqual(errors, [], `the oracle reads JSON only: ${text.slice(0, 80)}`);
  return { deepest, past };
}

/** What the scan says of the chunks: its deepest nesting, whether it is too deep, where it went past the limit (bytes). */
function chunked(chunks: readonly Buffer[], limit: number): { deepest: number; tooDeep: boolean; past: number } {
  const scan = new HeldScan(limit);
  for (const chunk of chunks) scan.push(chunk);
  return { deepest: scan.deepest, tooDeep: scan.tooDeep, past: scan.past };
}

const open = (n: number, bracket = '['): string => bracket.repeat(n);
const close = (n: number, bracket = ']'): string => bracket.repeat(n);
/** `levels` of arrays and objects, a member `"k"` at each object, the deepest holding `inner`. */
function nested(levels: number, inner: string): string {
  let text = inner;
  for (let level = levels; level >= 1; level--) text = level % 2 === 0 ? `["]\\\\",${text}]` : `{"k\\"{":${text}}`;
  return text;
}

const TRICKY = [
  '{"a":"[[[{{{","b":[1]}', '["]]]}}}",[["x"]]]', '[[["]"]]]', '{"q":"say \\"[\\" please","r":[[]]}',
  '{"s":"C:\\\\","t":"[[["}', '["\\\\\\"[[[",[]]', '["\\\\\\\\",[[{}]]]', '{"u":"\\u005b\\u007b\\"","v":[{}]}',
  '{"é😀":"☃[","x":[["ü\\"["]]}', '["\\"","\\\\","[\\\\\\"]",[["\\\\"]]]', ' [ { "k" : [ "{" , [ ] ] } ] ',
  '"[[[["', '0', '{}', `${open(5)}"\\\\"${close(5)}`, `[${open(4, '{"a":')}"}"${close(4, '}')}]`,
];

void test('the whole text and the chunks say what the oracle says, on tricky texts, at limits 0 to 4', () => {
  for (const text of TRICKY) {
    const bytes = Buffer.from(text);
    for (let limit = 0; limit <= 4; limit++) {
      const want = oracle(text, limit);
      const where = `${JSON.stringify(text)} (limit ${limit})`;
      assert.deepEqual(jsonTextTooDeep(text, limit), want.past < 0 ? undefined : { offset: want.past, limit }, where);
      const wantChunked = { deepest: want.deepest, tooDeep: want.past >= 0, past: want.past < 0 ? -1 : Buffer.byteLength(text.slice(0, want.past)) };
      assert.deepEqual(chunked([bytes], limit), wantChunked, `${where} whole`);
      for (let at = 0; at <= bytes.length; at++) assert.deepEqual(chunked([bytes.subarray(0, at), bytes.subarray(at)], limit), wantChunked, `${where} cut at ${at}`);
      assert.deepEqual(chunked(Array.from(bytes, (b) => Buffer.of(b)), limit), wantChunked, `${where} byte by byte`);
    }
  }
});

void test('MAX_JSON_DEPTH levels are read and one more is not, strings full of brackets and escapes at every level', () => {
  for (const inner of ['"[\\\\"', '"]\\"["', '[]', '{}', '"\\\\\\"{"']) {
    for (const levels of [MAX_JSON_DEPTH - 1, MAX_JSON_DEPTH, MAX_JSON_DEPTH + 1]) {
      // `inner` adds a level when it is itself an array or an object.
      const text = nested(levels, inner);
      const want = oracle(text, MAX_JSON_DEPTH);
      const where = `${levels} levels around ${inner}`;
      assert.equal(want.deepest, levels + (inner.startsWith('"') ? 0 : 1), where);
      const tooDeep = jsonTextTooDeep(text);
      assert.deepEqual(tooDeep, want.past < 0 ? undefined : { offset: want.past, limit: MAX_JSON_DEPTH }, where);
      const bytes = Buffer.from(text);
      const wantChunked = { deepest: want.deepest, tooDeep: want.past >= 0, past: want.past };
      assert.deepEqual(chunked([bytes], MAX_JSON_DEPTH), wantChunked, `${where} whole`);
      // Cut every 7 bytes: prime to the 15 bytes two levels open in, so every place of them is cut somewhere.
      for (let at = 0; at <= bytes.length; at += 7) assert.deepEqual(chunked([bytes.subarray(0, at), bytes.subarray(at)], MAX_JSON_DEPTH), wantChunked, `${where} cut at ${at}`);
      assert.deepEqual(chunked(Array.from(bytes, (b) => Buffer.of(b)), MAX_JSON_DEPTH), wantChunked, `${where} byte by byte`);
    }
  }
});

void test('a whole text’s string ends at a CR as at an LF, as the JSON reader ends it: nesting after it counts', async () => {
  const { jsonTree } = await import('../../src/server/service/jsonTree');
  for (const lineBreak of ['\n', '\r', '\r\n']) {
    const text = `["x${lineBreak},${'['.repeat(100_000)}`;
    assert.ok(jsonTextTooDeep(text), JSON.stringify(lineBreak));
    // The reader of texts recurses: measured first, it never overflows the stack.
    assert.doesNotThrow(() => jsonTree(text));
  }
});
