// Adversarial review (revf2): fileSink.ts endNow cuts the bytes held past the kept ones only when the sink
// has something to end the file with (`ending !== ''`). A CSV whose header is fixed (a walk's first page
// kept) ends with '' at a stop, so the rows of the page still arriving (held, not kept) stay in the file;
// the JSON array's stop cuts them (outJsonStoppedIsJson: a walk's page still arriving is not kept).
// Expected, as the export README says ("A stop ends the file after its kept rows"): the kept rows only.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { openCsvSink } from '../../src/core/export/csvSink';
import { openJsonArraySink } from '../../src/core/export/jsonArraySink';

const dir = mkdtempSync(join(tmpdir(), 'apiwb-rev-revf2-held-'));

async function until(done: () => boolean): Promise<void> {
  for (let i = 0; i < 10_000 && !done(); i++) await new Promise((resolve) => setImmediate(resolve));
}

void describe('revf2: a stop while a walk page is held', () => {
  after(() => rmSync(dir, { recursive: true, force: true }));

  for (const format of ['csv', 'json'] as const) {
    void it(`${format}: the page not kept is not in the file after the stop`, async () => {
      const path = join(dir, `a.${format}`);
      const sink = format === 'csv' ? await openCsvSink(path, {}) : await openJsonArraySink(path, {});
      // Page 1 kept (a whole page: the CSV header fixed at its end).
      await sink.writePage([{ id: 1 }, { id: 2 }]);
      // Page 2 arriving, held.
      const page = sink.openPage!();
      await page.writeRows([{ id: 3 }, { id: 4 }]);
      const mine = (): void => undefined;
      process.on('SIGINT', mine);
      try {
        process.emit('SIGINT', 'SIGINT');
        await until(() => process.listeners('SIGINT').length === 1);
      } finally {
        process.off('SIGINT', mine);
      }
      const text = readFileSync(path, 'utf8');
      if (format === 'csv') assert.equal(text, 'id,_extra\r\n1,\r\n2,\r\n', 'the kept page only');
      else assert.deepEqual(JSON.parse(text), [{ id: 1 }, { id: 2 }]);
    });
  }
});
