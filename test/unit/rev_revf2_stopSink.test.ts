// Adversarial review (revf2) of the stop path of the JSON/CSV sinks (fileSink.ts endAtStop/endNow,
// encodedSink.ts atStop) and of their SIGINT/SIGTERM listeners (the extension host opens many of them).
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { openCsvSink } from '../../src/core/export/csvSink';
import { openJsonArraySink } from '../../src/core/export/jsonArraySink';

const dir = mkdtempSync(join(tmpdir(), 'apiwb-rev-revf2-'));
let n = 0;
const ndjson = (rows: readonly unknown[]): Buffer => Buffer.from(rows.map((r) => `${JSON.stringify(r)}\n`).join(''));

/** Until `done()` or a bounded number of turns of the event loop. */
async function until(done: () => boolean): Promise<void> {
  for (let i = 0; i < 10_000 && !done(); i++) await new Promise((resolve) => setImmediate(resolve));
}

void describe('revf2: sinks at a stop', () => {
  after(() => rmSync(dir, { recursive: true, force: true }));

  // The signal is raised from close() itself, after the file's last bytes (the bracket, CSV's held rows) are
  // kept and before the handle is closed and the listeners forgotten (fileSink.ts close(): replaceUnwritten
  // is asked there, then `await this.handle?.close()`, then forgetSignals()): a Ctrl-C in that window, as a
  // user presses it at the end of a long export. The stop ends the file a second time after bytes that
  // already ended it.
  async function stoppedInClose(path: string, open: (options: { replaceUnwritten: () => boolean }) => Promise<{ close(): Promise<void> }>, write: (sink: never) => Promise<void>): Promise<string> {
    let asked = 0;
    let inClose = false;
    const sink = await open({
      replaceUnwritten: () => {
        asked++;
        if (inClose) process.emit('SIGINT', 'SIGINT');
        return true;
      },
    });
    await write(sink as never);
    // A listener of the test's own, so the stop does not re-raise the signal at this process.
    const mine = (): void => undefined;
    process.on('SIGINT', mine);
    try {
      inClose = true;
      await sink.close();
      // The stop's wait listeners go once the file is ended.
      await until(() => process.listeners('SIGINT').length === 1 && process.listeners('SIGINT')[0] === mine);
    } finally {
      process.off('SIGINT', mine);
    }
    assert.ok(asked > 0);
    return readFileSync(path, 'utf8');
  }

  void it('a SIGINT while close() closes the handle (after the closing bracket was kept) leaves a JSON array that parses', async () => {
    const path = join(dir, `${n++}.json`);
    const text = await stoppedInClose(path, (options) => openJsonArraySink(path, options), (sink: { writeNdjsonPage: (l: Buffer[], c: number, k: Set<string>) => Promise<void> }) => sink.writeNdjsonPage([ndjson([{ id: 1 }, { id: 2 }])], 2, new Set()));
    assert.doesNotThrow(() => JSON.parse(text), `valid JSON after a stop during close; the file ends ${JSON.stringify(text.slice(-20))}`);
    assert.deepEqual(JSON.parse(text), [{ id: 1 }, { id: 2 }]);
  });

  void it('a CSV SIGINT while close() closes the handle does not write the held rows twice', async () => {
    const path = join(dir, `${n++}.csv`);
    // Fewer rows than the header's: held back, written at close (finish).
    const text = await stoppedInClose(path, (options) => openCsvSink(path, options), (sink: { writeRowsPart: (rows: unknown[]) => Promise<void> }) => sink.writeRowsPart([{ id: 1 }, { id: 2 }]));
    assert.equal(text, 'id,_extra\r\n1,\r\n2,\r\n', 'the header and rows once, as many rows as were written');
  });

  void it('many exports opened, written and closed leave no SIGINT/SIGTERM listener behind (extension host)', async () => {
    const before = [process.listenerCount('SIGINT'), process.listenerCount('SIGTERM')];
    for (let i = 0; i < 15; i++) {
      const json = await openJsonArraySink(join(dir, `many${i}.json`), {});
      await json.writePage([{ i }]);
      await json.close();
      const csv = await openCsvSink(join(dir, `many${i}.csv`), {});
      await csv.writeRowsPart!([{ i }]);
      await csv.close();
      // An export that writes no row and leaves the path as it was.
      const none = await openJsonArraySink(join(dir, `none${i}.json`), { replaceUnwritten: () => false });
      const mark = none.mark?.();
      await none.writePage([{ i }]);
      await mark?.cutBack();
      await none.close();
    }
    assert.deepEqual([process.listenerCount('SIGINT'), process.listenerCount('SIGTERM')], before);
  });
});
