// A spilled lane's lines read back in batches of whole rows, however the reads cut them: a row longer
// than a read (a row of one huge value) comes back whole, once, in order.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { copyLines, countLines } from '../../src/core/paging/laneLines';
import { openSpill } from '../../src/core/json/spill';

void describe('copyLines', () => {
  void it('gives every row back whole and in order, a row three reads long included', async () => {
    const huge = `{"id":2,"blob":"${'x'.repeat(3 * 1048576 + 17)}"}\n`;
    const lines = ['{"id":1}\n', huge, '{"id":3}\n', huge, '{"id":5}\n'];
    const spill = await openSpill();
    try {
      for (const line of lines) await spill.write(Buffer.from(line));
      const batches: string[] = [];
      let rows = 0;
      await copyLines(spill, (ndjson, count) => {
        const text = Buffer.concat(ndjson).toString();
        assert.ok(text.endsWith('\n'), 'a batch ends at a row’s end');
        assert.equal(count, countLines(ndjson));
        batches.push(text);
        rows += count;
        return Promise.resolve();
      });
      assert.equal(batches.join(''), lines.join(''));
      assert.equal(rows, lines.length);
    } finally {
      await spill.remove();
    }
  });
});
