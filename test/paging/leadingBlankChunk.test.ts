// A body whose first chunk holds only blanks (a server that writes a keep-alive newline,
// or pretty-printed JSON led by blanks, cut so), then the object: a fault inside an array one level down
// (a lane) is said at a byte as many bytes too early as the blanks before the "{", where the whole body's
// reading (oracle: the splitter fed the body byte by byte, and the same read in one chunk) names the byte.
// The blanks go to the skeleton's splitter before the body's shape is known, past the count of the bytes
// it was fed that maps a lane's bytes back to the body (anywhereFetch.ts BodyOffsets).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MalformedJsonError } from '../../src/core/export/jsonRowSplitter';
import { readAnywhere } from '../../src/core/paging/anywhereFetch';
import { rowsRule } from '../../src/core/paging/rows';
import { byteByByteFault } from './wholeBodyFault';

const rule = rowsRule('none', {});

const oracle = byteByByteFault;

async function readIn(chunks: readonly string[]): Promise<unknown> {
  try {
    await readAnywhere(async (each) => {
      for (const chunk of chunks) await each(Buffer.from(chunk));
    }, (body) => rule.find(body), () => Promise.resolve(), true);
  } catch (error) {
    return error;
  }
  return undefined;
}

void describe('a body led by a chunk of blanks', () => {
  const rows = Array.from({ length: 3000 }, (_, i) => JSON.stringify({ id: i, pad: 'x'.repeat(20) }));
  const cases: [string, string][] = [
    ['a small array', '{"f0":[1,2,x],"b":1}'],
    ['the second array', '{"f0":[1,2],"b":[1,x]}'],
    ['a large array (split as it arrives)', `{"count":3000,"value":[${rows.join(',').replace('{"id":2000,', '{"id":2000,#')}]}`],
  ];
  for (const [what, body] of cases) {
    void it(`a fault in ${what} is said at its byte in the body`, async () => {
      const text = `\n  ${body}`;
      const want = oracle(text);
      assert.ok(want?.startsWith('malformed JSON at byte '), want);
      const whole = await readIn([text]);
      assert.ok(whole instanceof MalformedJsonError);
      assert.equal(whole.message, want, 'read in one chunk');
      const led = await readIn(['\n  ', body]);
      assert.ok(led instanceof MalformedJsonError, String(led));
      assert.equal(led.message, want, 'the blanks in a chunk of their own');
    });
  }
});
