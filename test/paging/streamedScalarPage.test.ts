// A streamed page (readAnywhere: a body past the held bound, heldBody.ts) that is one string, number or literal: read as it is, not kept,
// no rows and no fault; anything after it, or a cut inside it, is refused at the byte, in the words a
// whole-body read gives (the oracle: JSON.parse refuses the bytes, and parseJsonText says where), however
// the chunks fall. The body is never read as an array: `"x…"]` is not taken, `"x…" 1` is not "in an array".
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseJsonText } from '../../src/core/export/jsonFault';
import { MalformedJsonError } from '../../src/core/export/jsonRowSplitter';
import { readAnywhere } from '../../src/core/paging/anywhereFetch';
import { rowsRule } from '../../src/core/paging/rows';

const rule = rowsRule('generic', {});
const find = (body: unknown): ReturnType<typeof rule.findStreamed> => rule.findStreamed(body);
/** Larger than any chunk: every value is cut across chunks (readAnywhere itself never holds a body). */
const PAST = 256 * 1024 + 4099;
const BLANKS = ' '.repeat(PAST);

/** Large bodies that are JSON alone: a string, a number, each literal (blanks before or after). */
const VALID: readonly (readonly [string, string])[] = [
  ['a long string', `"${'x'.repeat(PAST)}"`],
  ['a long string with escapes', `"${'ab\\"\\u00e9'.repeat(PAST / 8)}"`],
  ['a long number', `-1${'2'.repeat(PAST)}.5e+3`],
  ['a long integer', `9${'0'.repeat(PAST)}`],
  ['true after blanks', `${BLANKS}true`],
  ['false before blanks', `false${BLANKS}`],
  ['null between blanks', `${BLANKS}null\n${BLANKS}`],
  ['a short number after blanks', `${BLANKS}12`],
];

const AFTER = [']', ' 1', ',2', '}'];

/** Bodies cut inside their value. */
const CUT: readonly (readonly [string, string])[] = [
  ['a string without its end', `"${'x'.repeat(PAST)}`],
  ['a string cut in an escape', `"${'x'.repeat(PAST)}\\`],
  ['a string cut in a \\u escape', `"${'x'.repeat(PAST)}\\u00`],
  ['a number cut after "."', `1${'2'.repeat(PAST)}.`],
  ['a number cut after "e"', `1${'2'.repeat(PAST)}e`],
  ['a number cut after "e-"', `1${'2'.repeat(PAST)}e-`],
  ['"-" after blanks', `${BLANKS}-`],
  ['a literal cut', `${BLANKS}tru`],
];

const CHUNKS = [Number.MAX_SAFE_INTEGER, 7, 65536];

/** The body read through readAnywhere in chunks of `size`: its value and rows, or the fault's words. */
async function readIn(text: string, size: number): Promise<{ readonly fault?: string; readonly value?: unknown; readonly rows?: number }> {
  const bytes = Buffer.from(text, 'utf8');
  let handed = 0;
  try {
    const read = await readAnywhere(async (each) => {
      for (let at = 0; at < bytes.length; at += size) await each(bytes.subarray(at, Math.min(bytes.length, at + size)));
    }, find, (_ndjson, rows) => { handed += rows; return Promise.resolve(); }, true);
    assert.ok(read.body.ok);
    return { value: read.body.value, rows: (read.streamed?.rowCount ?? 0) + handed };
  } catch (error) {
    assert.ok(error instanceof MalformedJsonError, String(error));
    return { fault: error.message };
  }
}

/** What a whole-body read says of `text`: JSON.parse refuses it, parseJsonText gives the product's words. */
function wholeBodyWords(text: string): string {
  assert.throws(() => JSON.parse(text) as unknown, SyntaxError);
  try {
    parseJsonText(text, Buffer.from(text, 'utf8'));
  } catch (error) {
    assert.ok(error instanceof MalformedJsonError);
    return error.message;
  }
  assert.fail('parseJsonText took a body JSON.parse refused');
}

void describe('a streamed page that is one string, number or literal', () => {
  for (const [name, text] of VALID) {
    void it(`${name}: taken, no rows, nothing kept, in any chunks`, async () => {
      JSON.parse(text);
      for (const size of CHUNKS) assert.deepEqual(await readIn(text, size), { value: undefined, rows: 0 }, `chunks of ${size}`);
    });

    for (const after of AFTER) {
      void it(`${name} then ${JSON.stringify(after)}: refused at the byte, in a whole-body read's words`, async () => {
        const body = text + after;
        const words = wholeBodyWords(body);
        assert.doesNotMatch(words, /array|ends early/);
        for (const size of CHUNKS) assert.deepEqual(await readIn(body, size), { fault: words }, `chunks of ${size}`);
      });
    }
  }

  for (const [name, text] of CUT) {
    void it(`${name}: ends early, after every byte received`, async () => {
      const words = wholeBodyWords(text);
      assert.equal(words, `malformed JSON: the body ends early (after ${Buffer.byteLength(text)} bytes)`);
      for (const size of CHUNKS) assert.deepEqual(await readIn(text, size), { fault: words }, `chunks of ${size}`);
    });
  }
});
