// Adversarial review (revf2): the sinks' SIGINT/SIGTERM handler (fileSink.ts endAtStop) in a process that
// a signal does NOT end: one with a listener of its own (the extension host, where panel exports open CSV
// and JSON sinks; any host that handles SIGTERM itself). The handler ends the file at the signal and marks
// it stopped; as the process lives on, the export goes on: its later rows are dropped without a word
// (hold() returns when stopped) and close() resolves as if all were written (it returns early, the handle
// left open). The export then says "N rows written" of a file that holds fewer.
// Expected: a stop that does not end the process leaves the sink usable (every row written reaches the
// file) or makes its writes/close fail; never a close that succeeds over rows that were dropped.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { openCsvSink } from '../../src/core/export/csvSink';
import { openJsonArraySink } from '../../src/core/export/jsonArraySink';
import type { RowSink } from '../../src/core/export/sink';

const dir = mkdtempSync(join(tmpdir(), 'apiwb-rev-revf2-live-'));

async function until(done: () => boolean): Promise<void> {
  for (let i = 0; i < 10_000 && !done(); i++) await new Promise((resolve) => setImmediate(resolve));
}

/** Rows 1–2, a SIGTERM the process survives (a listener of its own), rows 3–4, close: the rows the file holds, or the fault said. */
async function exportAcrossSignal(sink: RowSink): Promise<{ closed: 'ok' | 'failed' }> {
  const hosts = (): void => undefined; // the host's own SIGTERM listener: it does not exit
  process.on('SIGTERM', hosts);
  try {
    await sink.writePage([{ id: 1 }, { id: 2 }]);
    process.emit('SIGTERM', 'SIGTERM');
    await until(() => process.listeners('SIGTERM').length === 1);
    assert.deepEqual(process.listeners('SIGTERM'), [hosts], 'the stop is over');
    try {
      await sink.writePage([{ id: 3 }, { id: 4 }]);
      await sink.close();
      return { closed: 'ok' };
    } catch {
      return { closed: 'failed' };
    }
  } finally {
    process.off('SIGTERM', hosts);
  }
}

void describe('revf2: a signal the process survives, during an export', () => {
  after(() => rmSync(dir, { recursive: true, force: true }));

  void it('json: a close that succeeds means every row written is in the file', async () => {
    const path = join(dir, 'a.json');
    const { closed } = await exportAcrossSignal(await openJsonArraySink(path, {}));
    if (closed === 'ok') assert.deepEqual(JSON.parse(readFileSync(path, 'utf8')), [{ id: 1 }, { id: 2 }, { id: 3 }, { id: 4 }], 'close() succeeded, yet rows 3 and 4 are not in the file');
  });

  void it('csv: a close that succeeds means every row written is in the file', async () => {
    const path = join(dir, 'a.csv');
    const { closed } = await exportAcrossSignal(await openCsvSink(path, {}));
    if (closed === 'ok') assert.equal(readFileSync(path, 'utf8'), 'id,_extra\r\n1,\r\n2,\r\n3,\r\n4,\r\n', 'close() succeeded, yet rows 3 and 4 are not in the file');
  });
});
