// A body read anywhere as it arrives (no style, or the configurable style's names): the fields whose
// words the business check reads (Message beside Success, Errors...) are kept as they came, never a
// stand-in, while an array under a flag's name (`response`) still streams as rows. Against JSON.parse.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { detectBusinessErrors } from '../../src/core/catalog/businessErrors';
import { isNotHeld } from '../../src/core/paging/notHeld';
import { readAnywhere } from '../../src/core/paging/anywhereFetch';
import { rowsRule } from '../../src/core/paging/rows';

const rows = JSON.stringify(Array.from({ length: 3000 }, (_, i) => ({ id: i, pad: 'y'.repeat(100) })));

async function read(text: string): Promise<{ body: unknown; count: number | undefined }> {
  const rule = rowsRule('none', {});
  const got = await readAnywhere(async (each) => {
    const bytes = Buffer.from(text);
    for (let i = 0; i < bytes.length; i += 65536) await each(bytes.subarray(i, i + 65536));
  }, (b) => rule.find(b), () => Promise.resolve(), true);
  return { body: got.body.ok ? got.body.value : undefined, count: got.streamed?.rowCount };
}

void describe('the business check\'s words in a body streamed anywhere', () => {
  void it('Message beside Success is said in the server\'s words, the rows streamed', async () => {
    const text = `{"Success":false,"Message":["The brand is not allowed","Quota spent"],"value":${rows}}`;
    const got = await read(text);
    assert.equal(got.count, 3000, 'the rows streamed');
    assert.deepEqual(detectBusinessErrors(got.body), detectBusinessErrors(JSON.parse(text)));
  });

  void it('an array under `response` (read only as a flag) still streams as the rows', async () => {
    const got = await read(`{"response":${rows}}`);
    assert.equal(got.count, 3000);
    assert.ok(isNotHeld((got.body as Record<string, unknown>).response), 'not held whole');
  });
});
