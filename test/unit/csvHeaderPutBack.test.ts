// A streamed batch that fixes the CSV header part-way and then holds a line that is not
// JSON must leave the sink as it was (no header "written" that never reached the file), as the exact
// path (ndjsonRows: the whole batch parsed before anything is encoded) does.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { openCsvSink } from '../../src/core/export/csvSink';

const rowLines = (n: number, from = 0): string[] => Array.from({ length: n }, (_, i) => JSON.stringify({ id: from + i, name: `n${from + i}` }));

void describe('CSV sink: a batch that fixes the header then fails', () => {
  void it('held page: a failed batch that fixed the header mid-way leaves no header behind; the next batch writes its own', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'apiwb-rev-csv-'));
    try {
      const path = join(dir, 'rows.csv');
      const sink = await openCsvSink(path);
      const page = sink.openPage!();
      // 1 000 rows fix the header; the broken line after them makes the batch fail.
      await assert.rejects(async () => page.writeNdjson([Buffer.from(`${[...rowLines(1000), '{"broken":'].join('\n')}\n`)], 1001, new Set()));
      await page.writeNdjson([Buffer.from(`${['{"other":1}', ...rowLines(2, 5000)].join('\n')}\n`)], 3, new Set());
      await page.keep();
      await sink.close();
      // As a fresh sink given only the second batch writes it (the failed batch left nothing).
      const refPath = join(dir, 'ref.csv');
      const ref = await openCsvSink(refPath);
      const refPage = ref.openPage!();
      await refPage.writeNdjson([Buffer.from(`${['{"other":1}', ...rowLines(2, 5000)].join('\n')}\n`)], 3, new Set());
      await refPage.keep();
      await ref.close();
      const got = readFileSync(path, 'utf8');
      assert.ok(got.startsWith('other,'), `the file starts with a header: ${JSON.stringify(got.slice(0, 60))}`);
      assert.equal(got, readFileSync(refPath, 'utf8'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
