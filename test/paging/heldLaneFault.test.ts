// A fault inside a small array one level down (a lane held until it closes, lane.ts) that
// leaves a string open as the skeleton sees it, e.g. a string missing its closing quote: the whole body
// is there, yet the anywhere read says the body "ends early" after all its bytes, where a byte-by-byte
// reading of the same body (the oracle: the splitter fed one byte at a time) and JSON.parse name the
// byte. The user reads "the body ends early" (a cut connection) for a body that came whole.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MalformedJsonError } from '../../src/core/export/jsonRowSplitter';
import { read } from './laneReads';
import { byteByByteFault } from './wholeBodyFault';

const oracle = byteByByteFault;

void describe('a fault inside a held lane that leaves a string open', () => {
  const bodies = [
    // a string whose closing quote is missing, inside a lane one level down
    '{"f0":[true,"s,1,"k"]}',
    '{"f0":[true,"sx95,1,"k0":333}]}',
    // two levels down, fields after
    '{"f0":{"in":[true,"sx95,1.5e3,true,{"k0":333}],"z":1}}',
  ];
  for (const text of bodies) {
    void it(`${text}: said at its byte, as the whole body gives it`, async () => {
      const want = oracle(text);
      assert.ok(want?.startsWith('malformed JSON at byte '), want);
      assert.throws(() => JSON.parse(text));
      for (const step of [1, 3, 1000]) {
        const got = await read(text, undefined, step);
        assert.ok(got.error instanceof MalformedJsonError, String(got.error));
        assert.equal(got.error.message, want, `chunks of ${step} bytes`);
      }
    });
  }
});

// A "}" where a held lane's literal or value is cut short: the anywhere read names a byte the body does not
// hold there ("]") or another fault, where the byte-by-byte reading names the "}" at that byte.
void describe('a "}" inside a held lane', () => {
  for (const text of ['{"f0":[nu}ll]}', '{"f0":[1,nu}ll,2],"b":1}', '{"f0":[tr}', '{"f0":[1,2}']) {
    void it(`${text}: the words of the whole body's reading`, async () => {
      const want = oracle(text);
      assert.ok(want?.startsWith('malformed JSON at byte '), want);
      for (const step of [1, 1000]) {
        const got = await read(text, undefined, step);
        assert.ok(got.error instanceof MalformedJsonError, String(got.error));
        assert.equal(got.error.message, want, `chunks of ${step} bytes`);
      }
    });
  }
});
