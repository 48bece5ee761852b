// A top-level array's row too long to hold (longRowParts.ts) leaves the splitter in parts as it arrives,
// goes to a spill file and is written from it in its place among the rows (earlyBatches.ts). Oracle: the
// rows of JSON.parse of the whole body, in order, each line the row's own bytes (a pretty-printed row on
// one line, its blanks between tokens dropped); a body cut anywhere hands on exactly the rows fully
// received, and no spill file is left behind. LONG_ROW.bytes is lowered so small bodies reach it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { longRowLine } from '../../src/core/export/longRow';
import { readAnywhere } from '../../src/core/paging/anywhereFetch';
import { rowsRule } from '../../src/core/paging/rows';
import { longRowsLowered } from '../fixtures/longRows';

const rule = rowsRule('generic', {});
const find = (body: unknown): ReturnType<typeof rule.findStreamed> => rule.findStreamed(body);

/** Rows as the server writes them, and the line each must become. */
const ROWS: readonly { readonly text: string; readonly line: string }[] = [
  { text: '{"id":1}', line: '{"id":1}' },
  { text: `{"id":2,"blob":"${'a'.repeat(300)}","n":1E400,"big":12345678901234567890}`, line: `{"id":2,"blob":"${'a'.repeat(300)}","n":1E400,"big":12345678901234567890}` },
  { text: '{"id":3}', line: '{"id":3}' },
  { text: `{\n  "id": 4,\n  "note": "keep  these  blanks \\" and \\\\",\n  "list": [ 1, 2,\n 3 ],\n  "pad": "${'b '.repeat(80)}"\n}`, line: `{"id":4,"note":"keep  these  blanks \\" and \\\\","list":[1,2,3],"pad":"${'b '.repeat(80)}"}` },
  { text: `"${'c'.repeat(200)}"`, line: `"${'c'.repeat(200)}"` },
  { text: `[${Array.from({ length: 60 }, (_, i) => i).join(',')}]`, line: `[${Array.from({ length: 60 }, (_, i) => i).join(',')}]` },
  { text: '{"id":7,"s":"short"}', line: '{"id":7,"s":"short"}' },
  { text: `{"id":8,"blob":"${'d'.repeat(500)}"}`, line: `{"id":8,"blob":"${'d'.repeat(500)}"}` },
];
const BODY = `[${ROWS.map((r) => r.text).join(', ')}]`;
/** Where each row's last byte is in BODY (a row is fully received once that byte is). */
const ENDS = ((): number[] => {
  const ends: number[] = [];
  let at = 1;
  for (const row of ROWS) {
    ends.push(at + Buffer.byteLength(row.text));
    at += Buffer.byteLength(row.text) + 2;
  }
  return ends;
})();


/** BODY's first `cut` bytes read in chunks of `size`: the lines handed on, in order, how many as long rows, and the fault. */
async function streamed(size: number, cut = Buffer.byteLength(BODY)): Promise<{ lines: string[]; long: number; fault?: unknown }> {
  const bytes = Buffer.from(BODY).subarray(0, cut);
  const lines: string[] = [];
  let long = 0;
  try {
    await readAnywhere(async (each) => {
      for (let at = 0; at < bytes.length; at += size) await each(bytes.subarray(at, Math.min(bytes.length, at + size)));
    }, find, (ndjson, rows) => {
      const some = Buffer.concat(ndjson).toString('utf8').split('\n').filter((line) => line !== '');
      assert.equal(some.length, rows, 'the rows said are the lines handed');
      lines.push(...some);
      return Promise.resolve();
    }, true, undefined, {}, async (row) => {
      const line = await longRowLine(row);
      assert.equal(line.length, row.size + 1);
      lines.push(line.toString('utf8', 0, row.size));
      long++;
    });
    return { lines, long };
  } catch (fault) {
    return { lines, long, fault };
  }
}

void describe('a row too long to hold, streamed from a spill file', () => {
  const { spills } = longRowsLowered(64);

  void it('gives the rows of JSON.parse, in order, each its own bytes on one line, however the chunks fall', async () => {
    const parsed = JSON.parse(BODY) as unknown[];
    for (const size of [1, 3, 17, 64, 65, 100, 4096]) {
      const { lines, long, fault } = await streamed(size);
      assert.equal(fault, undefined, `chunks of ${size}`);
      assert.deepEqual(lines, ROWS.map((r) => r.line), `chunks of ${size}`);
      assert.deepEqual(lines.map((l) => JSON.parse(l) as unknown), parsed);
      // In small chunks every row past 64 bytes (and a chunk) goes long; in one chunk none does (a row is a slice of it).
      if (size <= 17) assert.equal(long, ROWS.filter((r) => Buffer.byteLength(r.text) > 64 + size).length, `chunks of ${size}`);
      if (size === 4096) assert.equal(long, 0);
    }
  });

  void it('cut anywhere: exactly the rows fully received are handed on, and no spill file stays', async () => {
    const before = spills();
    const length = Buffer.byteLength(BODY);
    for (const size of [5, 64]) {
      for (let cut = 1; cut < length; cut += 7) {
        const { lines, fault } = await streamed(size, cut);
        assert.ok(fault, `cut at ${cut}: the body is incomplete`);
        const whole = ROWS.filter((_, i) => ENDS[i]! <= cut).map((r) => r.line);
        assert.deepEqual(lines, whole, `chunks of ${size}, cut at ${cut}`);
      }
    }
    assert.equal(spills(), before, 'a spill file was left behind');
  });

  void it('a write of a long row that fails stops the read with its fault, and its spill file goes', async () => {
    const before = spills();
    const bytes = Buffer.from(BODY);
    const fault = await readAnywhere(async (each) => {
      for (let at = 0; at < bytes.length; at += 16) await each(bytes.subarray(at, at + 16));
    }, find, () => Promise.resolve(), true, undefined, {}, () => Promise.reject(new Error('disk full'))).then(() => undefined, (error: unknown) => error);
    assert.match(String(fault), /disk full/);
    assert.equal(spills(), before);
  });
});

/** Short rows first: an array is only held (never split as it arrives) until it passes 16 KiB (lane.ts, LAZY_BYTES). */
const FILLER: readonly { readonly text: string; readonly line: string }[] = Array.from({ length: 300 }, (_, i) => ({ text: `{"f":${i},"pad":"${'p'.repeat(50)}"}`, line: `{"f":${i},"pad":"${'p'.repeat(50)}"}` }));
const DATA = [...FILLER, ...ROWS];
/** The rows one level down, beside an array the rule passes over that holds a long row of its own. */
const OBJECT_BODY = `{"Notes":[{"x":"${'n'.repeat(400)}"}],"Total":${DATA.length},"Data":[${DATA.map((r) => r.text).join(', ')}]}`;
/** Where each row of Data ends in OBJECT_BODY. */
const OBJECT_ENDS = ((): number[] => {
  const ends: number[] = [];
  let at = OBJECT_BODY.indexOf('"Data":[') + '"Data":['.length;
  for (const row of DATA) {
    ends.push(at + Buffer.byteLength(row.text));
    at += Buffer.byteLength(row.text) + 2;
  }
  return ends;
})();

/** Where the small chunks of laneStreamed begin: three filler rows before the rows of ROWS. */
const SMALL_FROM = OBJECT_ENDS[FILLER.length - 4]!;

interface LaneRead { lines: string[]; rowCount: number; fault?: unknown; kept?: boolean; longRows: number }

/**
 * OBJECT_BODY's first `cut` bytes in chunks of `size`: the lines handed on (`early`, or a tentative page
 * when `paged`), the rows counted. `rowBytes` false: only counted.
 */
async function laneStreamed(size: number, options: { cut?: number; paged?: boolean; rowBytes?: boolean } = {}): Promise<LaneRead> {
  const bytes = Buffer.from(OBJECT_BODY).subarray(0, options.cut ?? Buffer.byteLength(OBJECT_BODY));
  const lines: string[] = [];
  const take = (ndjson: readonly Buffer[]): string[] => Buffer.concat(ndjson).toString('utf8').split('\n').filter((l) => l !== '');
  const read: LaneRead = { lines, rowCount: 0, longRows: 0 };
  let keptLines = 0;
  const page = {
    writeNdjson: (ndjson: readonly Buffer[]) => { lines.push(...take(ndjson)); return Promise.resolve(); },
    writeRows: () => Promise.reject(new Error('no rows to redact here')),
    writeLongRow: async (row: Parameters<typeof longRowLine>[0]) => {
      read.longRows++;
      lines.push((await longRowLine(row)).toString('utf8', 0, row.size));
    },
    keep: () => { read.kept = true; keptLines = lines.length; return Promise.resolve(); },
    // As a file's held page: what was written since the last keep is cut off.
    drop: () => { lines.length = keptLines; return Promise.resolve(); },
  };
  try {
    const got = await readAnywhere(async (each) => {
      // The filler rows but the last few in one chunk (the array opens its splitter past 16 KiB all the same), then chunks of `size`.
      const first = Math.min(bytes.length, SMALL_FROM);
      await each(bytes.subarray(0, first));
      for (let at = first; at < bytes.length; at += size) await each(bytes.subarray(at, Math.min(bytes.length, at + size)));
    }, find, (ndjson) => { lines.push(...take(ndjson)); return Promise.resolve(); }, options.rowBytes ?? true, options.paged ? () => page : undefined, {});
    read.rowCount = got.streamed?.rowCount ?? 0;
  } catch (fault) {
    read.fault = fault;
  }
  return read;
}

void describe('a row too long to hold in an array one level down', () => {
  const { spills } = longRowsLowered(64);

  void it('gives the rows JSON.parse and the rule find, each its own bytes on one line, into a page or at the end', async () => {
    const parsed = (JSON.parse(OBJECT_BODY) as { Data: unknown[] }).Data;
    for (const paged of [false, true]) {
      for (const size of [1, 3, 17, 64, 65, 100, 4096]) {
        const { lines, rowCount, fault, kept, longRows } = await laneStreamed(size, { paged });
        assert.equal(fault, undefined, `chunks of ${size}`);
        assert.equal(rowCount, DATA.length);
        assert.deepEqual(lines, DATA.map((r) => r.line), `chunks of ${size}${paged ? ', paged' : ''}`);
        assert.deepEqual(lines.map((l) => JSON.parse(l) as unknown), parsed);
        if (paged && size < 4096) assert.equal(kept, true, 'the page is kept');
        // In small chunks every row past 64 bytes (and a chunk) after the array's first 16 KiB (held, then
        // split in one go: lane.ts) is written from its file into the page: ROWS' long ones at least.
        if (paged && size <= 17) assert.ok(longRows >= ROWS.filter((r) => Buffer.byteLength(r.text) > 64 + size).length, `chunks of ${size}: ${longRows}`);
      }
    }
    assert.equal(spills(), 0, 'a spill file was left behind');
  });

  void it('only counted: the rows are counted and weighed, no long row is kept anywhere', async () => {
    for (const size of [1, 17, 100]) {
      const { lines, rowCount, fault } = await laneStreamed(size, { rowBytes: false });
      assert.equal(fault, undefined);
      assert.equal(rowCount, DATA.length, `chunks of ${size}`);
      assert.deepEqual(lines, []);
    }
    assert.equal(spills(), 0);
  });

  void it('cut anywhere: exactly the rows fully received, and no spill file stays', async () => {
    const length = Buffer.byteLength(OBJECT_BODY);
    // From the last filler rows on (the cuts before them read as the tests of lanes do).
    const start = OBJECT_ENDS[FILLER.length - 3]!;
    for (const paged of [false, true]) {
      for (let cut = start; cut < length - 1; cut += 11) {
        const { lines, fault } = await laneStreamed(5, { cut, paged });
        assert.ok(fault, `cut at ${cut}`);
        const whole = DATA.filter((_, i) => OBJECT_ENDS[i]! <= cut).map((r) => r.line);
        assert.deepEqual(lines, whole, `cut at ${cut}${paged ? ', paged' : ''}`);
      }
    }
    assert.equal(spills(), 0, 'a spill file was left behind');
  });
});
