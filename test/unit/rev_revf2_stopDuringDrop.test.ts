// Adversarial review (revf2): fileSink.ts's stop path waits for the write under way (`writing`, set by
// hold()) but not for a truncate under way: drop() (a held page dropped: a walk's page retried or refused)
// and a mark's cutBack() (a single response's rows cut off again: responseRows.ts) set the length at once
// and truncate the file asynchronously. A stop in that window ends the file (`]`) at the length, and the
// truncate still in flight then cuts that end off: the JSON file does not parse.
// The window is made wide by a busy libuv pool (four slow pbkdf2 jobs), so the truncate waits behind them
// as it would behind a slow disk; the stop is a SIGINT raised as the drop starts.
import assert from 'node:assert/strict';
import { pbkdf2 } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { openJsonArraySink } from '../../src/core/export/jsonArraySink';

const dir = mkdtempSync(join(tmpdir(), 'apiwb-rev-revf2-drop-'));
const ndjson = (rows: readonly unknown[]): Buffer => Buffer.from(rows.map((r) => `${JSON.stringify(r)}\n`).join(''));

async function until(done: () => boolean): Promise<void> {
  for (let i = 0; i < 10_000 && !done(); i++) await new Promise((resolve) => setImmediate(resolve));
}

/** The libuv pool busy for a while (its default four threads). */
function busyPool(): Promise<unknown> {
  return Promise.all(Array.from({ length: 4 }, () => new Promise((resolve) => pbkdf2('x', 'y', 300_000, 32, 'sha256', resolve))));
}

void describe('revf2: a stop while a page is dropped or cut back', () => {
  after(() => rmSync(dir, { recursive: true, force: true }));

  for (const how of ['held page dropped', 'mark cut back'] as const) {
    void it(`json, ${how}: the file at the stop parses, the kept rows in it`, async () => {
      const path = join(dir, `${how.replace(/\W/g, '')}.json`);
      const sink = await openJsonArraySink(path, {});
      await sink.writeNdjsonPage!([ndjson([{ id: 1 }, { id: 2 }])], 2, new Set());
      const mark = sink.mark!();
      const page = sink.openPage!();
      if (how === 'held page dropped') await page.writeNdjson([ndjson([{ id: 3 }, { id: 4 }])], 2, new Set());
      else await sink.writeNdjsonPage!([ndjson([{ id: 3 }, { id: 4 }])], 2, new Set());
      const mine = (): void => undefined;
      process.on('SIGINT', mine);
      try {
        const busy = busyPool();
        const cut = how === 'held page dropped' ? page.drop() : mark.cutBack();
        process.emit('SIGINT', 'SIGINT');
        await until(() => process.listeners('SIGINT').length === 1);
        await cut;
        await busy;
      } finally {
        process.off('SIGINT', mine);
      }
      const text = readFileSync(path, 'utf8');
      assert.doesNotThrow(() => JSON.parse(text), `valid JSON after a stop during a ${how}; the file ends ${JSON.stringify(text.slice(-24))}`);
      assert.deepEqual(JSON.parse(text), [{ id: 1 }, { id: 2 }]);
    });
  }
});
