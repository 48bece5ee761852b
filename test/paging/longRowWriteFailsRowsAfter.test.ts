// A top-level array's row too long to hold whose write fails (a sink fault, or a row too long to be read
// whole for CSV, a JSON array or redaction: longRowLine) stops the read; what is written must be exactly
// the rows before it, in order: never a row after it with the failed row missing (a gap in the file).
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { longRowsLowered } from '../fixtures/longRows';
import { readAnywhere } from '../../src/core/paging/anywhereFetch';
import { rowsRule } from '../../src/core/paging/rows';

const rule = rowsRule('generic', {});
const find = (body: unknown): ReturnType<typeof rule.findStreamed> => rule.findStreamed(body);
const { spills } = longRowsLowered(64);

const ROWS = ['{"id":1}', `{"id":2,"blob":"${'a'.repeat(300)}"}`, '{"id":3}', '{"id":4}'];
const BODY = `[${ROWS.join(',')}]`;

void it('a long row whose write fails: the rows after it are not written', async () => {
  const bytes = Buffer.from(BODY);
  // The long row ends in the last chunk, with the rows after it.
  const cuts = [0, 40, 120, 200, bytes.length];
  const lines: string[] = [];
  const before = spills();
  const fault = await readAnywhere(async (each) => {
    for (let i = 0; i + 1 < cuts.length; i++) await each(bytes.subarray(cuts[i], cuts[i + 1]));
  }, find, (ndjson) => {
    lines.push(...Buffer.concat(ndjson).toString('utf8').split('\n').filter((line) => line !== ''));
    return Promise.resolve();
  }, true, undefined, {}, () => Promise.reject(new Error('disk full'))).then(() => undefined, (error: unknown) => error);
  assert.match(String(fault), /disk full/);
  assert.equal(spills(), before);
  assert.deepEqual(lines, [ROWS[0]], 'rows after the failed long row were written past the gap it left');
});
