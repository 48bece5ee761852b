// csvSink.ts's header rule: the union of the keys of the first HEADER_ROWS rows of the first page that has
// rows (fewer when the page has fewer), whatever parts the page arrives in (writeNdjsonPage, writeRowsPart:
// a single response's batches) — held back until then and written at the page's end or at close; a key
// first seen later goes into `_extra`. A page read whole (writePage) or a held page kept ends the header.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { HEADER_ROWS, openCsvSink } from '../../src/core/export/csvSink';

const dir = mkdtempSync(join(tmpdir(), 'apiwb-csv-header-'));
let n = 0;
const ndjson = (rows: readonly unknown[]): Buffer => Buffer.from(rows.map((r) => `${JSON.stringify(r)}\n`).join(''));
const rows = Array.from({ length: HEADER_ROWS + 50 }, (_, i): Record<string, number> => ({ id: i, ...(i === 10 ? { early: 1 } : {}), ...(i === HEADER_ROWS - 1 ? { last: 1 } : {}), ...(i === HEADER_ROWS ? { late: 1 } : {}) }));

/** The CSV file `write` makes. */
async function csvOf(write: (sink: Awaited<ReturnType<typeof openCsvSink>>) => Promise<void>): Promise<string> {
  const path = join(dir, `${n++}.csv`);
  const sink = await openCsvSink(path);
  await write(sink);
  await sink.close();
  return readFileSync(path, 'utf8');
}

void describe('CSV header of the first rows', () => {
  after(() => rmSync(dir, { recursive: true, force: true }));

  void it('one header and one file whatever parts the rows arrive in', async () => {
    const whole = await csvOf((sink) => sink.writeNdjsonPage!([ndjson(rows)], rows.length, new Set()));
    assert.equal(whole.split('\r\n')[0], 'id,early,last,_extra');
    assert.ok(whole.includes(`\r\n${HEADER_ROWS},,,"{""late"":1}"\r\n`), 'a key past the header rows is in _extra');
    for (const cuts of [[1], [10, 11], [HEADER_ROWS - 1], [HEADER_ROWS], [3, 500, HEADER_ROWS + 1]]) {
      const text = await csvOf(async (sink) => {
        let from = 0;
        for (const [i, to] of [...cuts, rows.length].entries()) {
          const part = rows.slice(from, to);
          // Parts as NDJSON lines and as rows (the redacting sink's rows it changed), one after the other.
          await (i % 2 === 0 ? sink.writeNdjsonPage!([ndjson(part)], part.length, new Set()) : sink.writeRowsPart!(part));
          from = to;
        }
      });
      assert.equal(text, whole, `parts ending at ${cuts.join(', ')}`);
    }
  });

  void it('fewer rows than the header takes: held until close, then every key', async () => {
    const text = await csvOf(async (sink) => {
      await sink.writeNdjsonPage!([ndjson([{ a: 1 }])], 1, new Set());
      await sink.writeNdjsonPage!([ndjson([{ b: 2 }])], 1, new Set());
    });
    assert.equal(text, 'a,b,_extra\r\n1,,\r\n,2,\r\n');
  });

  void it('a page read whole, or a held page kept, ends the header: the next page\'s keys go to _extra', async () => {
    const whole = await csvOf(async (sink) => {
      await sink.writePage([{ a: 1 }]);
      await sink.writePage([{ b: 2 }]);
    });
    assert.equal(whole, 'a,_extra\r\n1,\r\n,"{""b"":2}"\r\n');
    const held = await csvOf(async (sink) => {
      const page = sink.openPage!();
      await page.writeNdjson([ndjson([{ a: 1 }])], 1, new Set());
      await page.keep();
      assert.ok(sink.checkpoint()?.columns, 'the checkpoint of a kept page names the header');
      const next = sink.openPage!();
      await next.writeRows([{ b: 2 }]);
      await next.keep();
    });
    assert.equal(held, whole);
  });

  void it('a page written in parts ends at endPage (a single response\'s end): the next page\'s keys go to _extra', async () => {
    const parts = await csvOf(async (sink) => {
      await sink.writeNdjsonPage!([ndjson([{ a: 1 }])], 1, new Set());
      await sink.endPage!();
      await sink.writeNdjsonPage!([ndjson([{ b: 2 }])], 1, new Set());
      await sink.endPage!();
    });
    assert.equal(parts, 'a,_extra\r\n1,\r\n,"{""b"":2}"\r\n');
  });

  void it('a held page dropped takes its held-back rows with it', async () => {
    const text = await csvOf(async (sink) => {
      const page = sink.openPage!();
      await page.writeNdjson([ndjson([{ dropped: 1 }])], 1, new Set());
      await page.drop();
      const next = sink.openPage!();
      await next.writeNdjson([ndjson([{ kept: 1 }])], 1, new Set());
      await next.keep();
    });
    assert.equal(text, 'kept,_extra\r\n1,\r\n');
  });
});
