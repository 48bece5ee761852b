// A signal the process survives (a listener of its own: the extension host, where panel exports open CSV
// and JSON sinks) during an export, while the old file at the path waits aside (the one time a file sink
// listens for SIGINT/SIGTERM: fileSink.ts says where the old file is kept): the export goes on, every row
// written reaches the file, and close() succeeds.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { openCsvSink } from '../../src/core/export/csvSink';
import { openJsonArraySink } from '../../src/core/export/jsonArraySink';
import type { RowSink } from '../../src/core/export/sink';

const dir = mkdtempSync(join(tmpdir(), 'apiwb-sink-signal-'));
/** The caller's port for the note (the CLI's stderr line): a sink given none listens for no signal. */
const say = (): void => undefined;

async function until(done: () => boolean): Promise<void> {
  for (let i = 0; i < 10_000 && !done(); i++) await new Promise((resolve) => setImmediate(resolve));
}

/** Rows 1–2, a SIGTERM the process survives (a listener of its own), rows 3–4, close (a fault fails the test). */
async function exportAcrossSignal(sink: RowSink): Promise<void> {
  const hosts = (): void => undefined; // the host's own SIGTERM listener: it does not exit
  process.on('SIGTERM', hosts);
  try {
    await sink.writePage([{ id: 1 }, { id: 2 }]);
    assert.equal(process.listenerCount('SIGTERM'), 2, 'the sink listens while the old file waits aside');
    process.emit('SIGTERM', 'SIGTERM');
    await until(() => process.listeners('SIGTERM').length === 1);
    assert.deepEqual(process.listeners('SIGTERM'), [hosts], 'the sink stopped listening at the signal');
    await sink.writePage([{ id: 3 }, { id: 4 }]);
    await sink.close();
  } finally {
    process.off('SIGTERM', hosts);
  }
}

void describe('a signal the process survives, during an export', () => {
  after(() => rmSync(dir, { recursive: true, force: true }));

  void it('json: every row written is in the file, close succeeds', async () => {
    const path = join(dir, 'a.json');
    writeFileSync(path, 'old');
    await exportAcrossSignal(await openJsonArraySink(path, { say }));
    assert.deepEqual(JSON.parse(readFileSync(path, 'utf8')), [{ id: 1 }, { id: 2 }, { id: 3 }, { id: 4 }]);
  });

  void it('csv: every row written is in the file, close succeeds', async () => {
    const path = join(dir, 'a.csv');
    writeFileSync(path, 'old');
    await exportAcrossSignal(await openCsvSink(path, { say }));
    assert.equal(readFileSync(path, 'utf8'), 'id,_extra\r\n1,\r\n2,\r\n3,\r\n4,\r\n');
  });
});
