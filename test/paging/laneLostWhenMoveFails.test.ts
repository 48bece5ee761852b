// An object body's array (a lane) writing into the sink's tentative page, whose row too long to hold
// fails to be written part way (a disk fault, or a row too long to be read whole): the read fails, and
// the page must be dropped. A lane whose move throws stays on LaneRows' list of closed lanes (it was once
// taken off it first, and then no drop reached it: the next response's keep made its torn rows part of
// the file), so dropAll drops its page and files.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { it } from 'node:test';
import { longRowsLowered } from '../fixtures/longRows';
import { openNdjsonSink } from '../../src/core/export/ndjsonSink';
import type { HeldPage, LongRow } from '../../src/core/export/sink';
import { readAnywhere } from '../../src/core/paging/anywhereFetch';
import { rowsRule } from '../../src/core/paging/rows';

const rule = rowsRule('generic', {});
const find = (body: unknown): ReturnType<typeof rule.findStreamed> => rule.findStreamed(body);
const { dir } = longRowsLowered(8192);

const ROWS = ['{"id":1}', `{"id":2,"blob":"${'a'.repeat(40_000)}"}`, '{"id":3}'];

void it('a long row failing part way into the tentative page: the page is dropped, nothing of it stays in the file', async () => {
  const path = join(dir, 'out.ndjson');
  const sink = await openNdjsonSink(path);
  // The long row's write fails after its first 1000 bytes reached the file (a disk that fills up).
  const failing = (row: LongRow): LongRow => ({
    size: row.size,
    each: async (piece) => {
      await row.each(async (bytes) => {
        await piece(bytes.subarray(0, 1000));
        throw new Error('disk full');
      });
    },
  });
  const tentative = (): HeldPage => {
    const page = sink.openPage!();
    return { ...page, writeNdjson: page.writeNdjson.bind(page), writeLongRow: (row, keys) => page.writeLongRow!(failing(row), keys) };
  };
  const body = Buffer.from(`{"Data":[${ROWS.join(',')}]}`);
  const fault = await readAnywhere(async (each) => {
    for (let at = 0; at < body.length; at += 4096) await each(body.subarray(at, at + 4096));
  }, find, (ndjson, rows, keys) => sink.writeNdjsonPage!(ndjson, rows, keys), true, tentative, {}, (row, keys) => sink.writeLongRow!(row, keys)).then(() => undefined, (error: unknown) => error);
  assert.match(String(fault), /disk full/);
  // The next response of the run writes its rows.
  await sink.writeNdjsonPage!([Buffer.from('{"id":"next"}\n')], 1, new Set());
  await sink.close?.();
  const lines = readFileSync(path, 'utf8').split('\n').filter((line) => line !== '');
  for (const line of lines) assert.doesNotThrow(() => JSON.parse(line), `a torn line in the file: ${line.slice(0, 40)}…`);
  assert.deepEqual(lines, ['{"id":"next"}'], 'the failed response\'s page stayed in the file');
});
