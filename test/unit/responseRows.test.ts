// The rule of a single response's rows in --out (src/cli/responseRows.ts) on real --out files of every
// format: the count its line prints is the rows left in the file; what a request wrote that the line does
// not own (its rows refused, or any count that disagrees with the rows written) is cut off back to where
// the request began, earlier requests' rows (and a CSV header of theirs) kept.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { ExchangeResult } from '../../src/core/run/exchange';
import { ResponseRows } from '../../src/cli/responseRows';
import { openOutputSink, type OutputFormat } from '../../src/cli/reporters/outputSink';
import type { RowSink } from '../../src/core/export/sink';

const dir = mkdtempSync(join(tmpdir(), 'apiwb-response-rows-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** Just what settle reads of an exchange result. */
function result(count: number | undefined, opts: { ok?: boolean; refused?: boolean; items?: unknown[] } = {}): ExchangeResult {
  return {
    ok: opts.ok ?? true,
    ...(count === undefined ? {} : { rows: { path: '$', items: opts.items ?? [], count } }),
    ...(opts.refused ? { walk: { failure: { kind: 'rows' } } } : {}),
  } as unknown as ExchangeResult;
}

const lines = (buffers: string[]): Buffer[] => [Buffer.from(buffers.map((l) => `${l}\n`).join(''))];

void describe('ResponseRows', () => {
  for (const format of ['ndjson', 'csv', 'json'] as OutputFormat[]) {
    void it(`${format}: a request whose count disagrees with its rows written is cut back, earlier rows kept`, async () => {
      const path = join(dir, `mismatch.${format}`);
      const sink = await openOutputSink(path, format, () => []);
      const first = new ResponseRows(sink);
      await first.sink.writePage([{ a: 1 }, { a: 2 }]);
      assert.deepEqual(await first.settle(result(2)), { rows: 2, fails: false });
      const second = new ResponseRows(sink);
      await second.sink.writePage([{ b: 1 }, { b: 2 }, { b: 3 }]);
      const settled = await second.settle(result(1));
      assert.equal(settled.fails, true);
      assert.equal(settled.rows, 0);
      assert.match(settled.words ?? '', /it counted 1 row\(s\) but wrote 3 .*the 3 row\(s\) it wrote to --out while the body arrived were cut off again/);
      const third = new ResponseRows(sink);
      await third.sink.writePage([{ c: 1 }]);
      assert.deepEqual(await third.settle(result(1)), { rows: 1, fails: false });
      await sink.close();
      const text = readFileSync(path, 'utf8');
      if (format === 'ndjson') assert.equal(text, '{"a":1}\n{"a":2}\n{"c":1}\n');
      if (format === 'csv') assert.equal(text, 'a,_extra\r\n1,\r\n2,\r\n,"{""c"":1}"\r\n');
      if (format === 'json') assert.deepEqual(JSON.parse(text), [{ a: 1 }, { a: 2 }, { c: 1 }]);
    });
  }

  void it('csv: a header written by the request cut back goes with it; the next request writes its own', async () => {
    const path = join(dir, 'header.csv');
    const sink = await openOutputSink(path, 'csv', () => []);
    const refused = new ResponseRows(sink);
    await refused.sink.writePage([{ x: 1 }]);
    assert.equal((await refused.settle(result(1, { refused: true }))).rows, 0);
    const next = new ResponseRows(sink);
    await next.sink.writePage([{ y: 2 }]);
    await next.settle(result(1));
    await sink.close();
    assert.equal(readFileSync(path, 'utf8'), 'y,_extra\r\n2,\r\n');
  });

  void it('ndjson: rows streamed as they arrive and a held page kept count; a held page dropped does not; refused rows are cut', async () => {
    const path = join(dir, 'held.ndjson');
    const sink = await openOutputSink(path, 'ndjson', () => []);
    const rows = new ResponseRows(sink);
    await rows.sink.writeNdjsonPage!(lines(['{"s":1}', '{"s":2}']), 2, new Set());
    const dropped = rows.sink.openPage!();
    await dropped.writeNdjson(lines(['{"d":1}']), 1, new Set());
    await dropped.drop();
    const kept = rows.sink.openPage!();
    await kept.writeNdjson(lines(['{"k":1}']), 1, new Set());
    await kept.keep();
    assert.deepEqual(await rows.settle(result(3)), { rows: 3, fails: false });
    const refused = new ResponseRows(sink);
    await refused.sink.writeNdjsonPage!(lines(['{"r":1}']), 1, new Set());
    const settled = await refused.settle(result(1, { refused: true, ok: false }));
    assert.equal(settled.rows, 0);
    assert.match(settled.words ?? '', /^its rows were refused: the 1 row\(s\)/);
    await sink.close();
    assert.equal(readFileSync(path, 'utf8'), '{"s":1}\n{"s":2}\n{"k":1}\n');
  });

  void it('a failed request\'s rows held in memory (never written) are not claimed by its line, said as a note', async () => {
    const sink = await openOutputSink(join(dir, 'failed.ndjson'), 'ndjson', () => []);
    const rows = new ResponseRows(sink);
    const failed = result(2, { ok: false, items: [{ e: 1 }, { e: 2 }] });
    assert.equal(await rows.writeKept(failed), undefined);
    const settled = await rows.settle(failed);
    assert.deepEqual(settled, { rows: 0, words: 'its 2 row(s) are not in --out (the request failed)', fails: false });
    await sink.close();
  });

  void it('the count boundary: one row more or fewer than counted is a mismatch', async () => {
    for (const [written, counted] of [[1, 0], [0, 1], [2, 1]] as const) {
      const sink = await openOutputSink(join(dir, `edge-${written}-${counted}.ndjson`), 'ndjson', () => []);
      const rows = new ResponseRows(sink);
      if (written > 0) await rows.sink.writePage(Array.from({ length: written }, (_, i) => ({ i })));
      const settled = await rows.settle(result(counted));
      assert.equal(settled.fails, true, `${written} written, ${counted} counted`);
      assert.equal(settled.rows, 0);
      await sink.close();
    }
  });
});

void describe('ResponseRows after the file failed', () => {
  void it('rows written before a write failed are cut off (the end may be torn), said, and the request fails', async () => {
    const path = join(dir, 'torn.ndjson');
    const sink = await openOutputSink(path, 'ndjson', () => []);
    const before = new ResponseRows(sink);
    await before.sink.writePage([{ kept: 1 }]);
    await before.settle(result(1));
    const rows = new ResponseRows(sink);
    await rows.sink.writeNdjsonPage!(lines(['{"a":1}', '{"a":2}']), 2, new Set());
    const settled = await rows.settle({ ...result(2, { ok: false }), walk: { failure: { kind: 'sink' } } } as unknown as ExchangeResult);
    assert.equal(settled.fails, true);
    assert.equal(settled.rows, 0);
    assert.match(settled.words ?? '', /^--out could not be written whole: the 2 row\(s\)/);
    await sink.close();
    assert.equal(readFileSync(path, 'utf8'), '{"kept":1}\n');
  });
});

void describe('ResponseRows when a write fails part way (EFBIG: a short write, then the fault)', () => {
  /** A file of text whose writes fail once `limit` characters are in it, the part that fit written. */
  function limitedSink(limit: number): RowSink & { text: string } {
    const sink = {
      format: 'ndjson' as const,
      text: '',
      writePage: (rows: readonly unknown[]) => sink.writeNdjsonPage(lines(rows.map((r) => JSON.stringify(r))), rows.length, new Set()),
      writeNdjsonPage: (buffers: readonly Buffer[], _rows: number, _keys: ReadonlySet<string>) => {
        const text = Buffer.concat(buffers).toString('utf8');
        sink.text += text.slice(0, Math.max(0, limit - sink.text.length));
        return sink.text.length < limit || text.length === 0 ? Promise.resolve() : Promise.reject(new Error('File too large'));
      },
      checkpoint: () => undefined,
      mark: () => {
        const at = sink.text.length;
        return { cutBack: () => { sink.text = sink.text.slice(0, at); return Promise.resolve(); } };
      },
      close: () => Promise.resolve(),
    };
    return sink;
  }

  void it('the first write fails part way (nothing counted written): its part is cut off, the line says 0 and why', async () => {
    const sink = limitedSink(20);
    const rows = new ResponseRows(sink);
    await assert.rejects(rows.sink.writeNdjsonPage!(lines(['{"a":1}', '{"a":2}', '{"a":3}']), 3, new Set()));
    const settled = await rows.settle({ ...result(3, { ok: false }), walk: { failure: { kind: 'sink' } } } as unknown as ExchangeResult);
    assert.deepEqual({ rows: settled.rows, fails: settled.fails, text: sink.text }, { rows: 0, fails: true, text: '' });
    assert.match(settled.words ?? '', /^--out could not be written whole: what it wrote to --out .*was cut off again/);
  });

  void it('rows kept in memory whose write fails part way (writeKept): cut off, the line says 0', async () => {
    const sink = limitedSink(10);
    const rows = new ResponseRows(sink);
    const good = result(2, { items: [{ abc: 1 }, { abc: 2 }] });
    assert.match(await rows.writeKept(good) ?? '', /could not be written to --out \(File too large\)/);
    const settled = await rows.settle(good);
    assert.deepEqual({ rows: settled.rows, fails: settled.fails, text: sink.text }, { rows: 0, fails: true, text: '' });
  });
});
