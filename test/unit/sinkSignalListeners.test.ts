// The JSON/CSV sinks' SIGINT/SIGTERM listeners (fileSink.ts: while an old file waits aside, a stop says
// where it is kept) go with the sink: the extension host opens many exports in one process.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { openCsvSink } from '../../src/core/export/csvSink';
import { openJsonArraySink } from '../../src/core/export/jsonArraySink';

const dir = mkdtempSync(join(tmpdir(), 'apiwb-sink-listeners-'));
/** The caller's port for the note (the CLI's stderr line): a sink given none listens for no signal. */
const say = (): void => undefined;
void describe('file sinks and signal listeners', () => {
  after(() => rmSync(dir, { recursive: true, force: true }));

  void it('many exports opened, written and closed leave no SIGINT/SIGTERM listener behind (extension host)', async () => {
    const before = [process.listenerCount('SIGINT'), process.listenerCount('SIGTERM')];
    for (let i = 0; i < 15; i++) {
      // Old files at the paths: each sink listens while the old one waits aside.
      for (const name of [`many${i}.json`, `many${i}.csv`, `none${i}.json`]) writeFileSync(join(dir, name), 'old');
      const json = await openJsonArraySink(join(dir, `many${i}.json`), { say });
      await json.writePage([{ i }]);
      assert.ok(process.listenerCount('SIGINT') > before[0]!, 'a sink listens while the old file waits aside');
      await json.close();
      const csv = await openCsvSink(join(dir, `many${i}.csv`), { say });
      await csv.writeRowsPart!([{ i }]);
      await csv.close();
      // An export that writes no row and leaves the path as it was.
      const none = await openJsonArraySink(join(dir, `none${i}.json`), { replaceUnwritten: () => false, say });
      const mark = none.mark?.();
      await none.writePage([{ i }]);
      await mark?.cutBack();
      await none.close();
    }
    assert.deepEqual([process.listenerCount('SIGINT'), process.listenerCount('SIGTERM')], before);
  });

  void it('a sink given no way to say the note (the extension host\'s exports) listens for no signal at all', async () => {
    const before = [process.listenerCount('SIGINT'), process.listenerCount('SIGTERM')];
    writeFileSync(join(dir, 'quiet.json'), 'old');
    const json = await openJsonArraySink(join(dir, 'quiet.json'), {});
    await json.writePage([{ i: 1 }]);
    assert.deepEqual([process.listenerCount('SIGINT'), process.listenerCount('SIGTERM')], before);
    await json.close();
  });
});
