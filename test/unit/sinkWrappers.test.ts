// A sink behind a wrapper (the redacting sink, the CLI's counting sink of a response, compare's sink that
// tells a growing file) writes the file the sink alone writes: every optional member of RowSink the inner
// sink has goes through (sink.ts wrappedSink), so a CSV's header is fixed where the bare sink fixes it (at
// endPage, a single response's end; never by a part written as rows: writeRowsPart). Found by a review:
// compare's wrapper dropped endPage and writeRowsPart, the counting sink too. Oracle: the bare CSV sink.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { ResponseRows } from '../../src/cli/responseRows';
import { GrowingFile, keepingSink } from '../../src/core/compare/growingFile';
import { openCsvSink } from '../../src/core/export/csvSink';
import { redactingSink } from '../../src/core/export/redactingSink';
import type { RowSink } from '../../src/core/export/sink';
import { Redactor } from '../../src/core/secrets/redact';

const dir = mkdtempSync(join(tmpdir(), 'apiwb-sink-wrappers-'));
let n = 0;
const ndjson = (rows: readonly unknown[]): Buffer[] => [Buffer.from(rows.map((r) => `${JSON.stringify(r)}\n`).join(''))];
const none = new Set<string>();

/**
 * A streamed walk as the CLI and the walker write it: a single response in parts (NDJSON lines, rows a
 * redaction changed, more lines) ended by endPage, pages held while they arrive (one dropped), then another
 * response in parts. Parts written as rows go as the redacting sink sends them: writeRowsPart, else writePage.
 */
async function walk(sink: RowSink, say: (row: Record<string, unknown>) => Record<string, unknown> = (row) => row): Promise<void> {
  const part = (rows: readonly Record<string, unknown>[]): Promise<void> => (sink.writeRowsPart ?? sink.writePage).call(sink, rows.map(say));
  await sink.writeNdjsonPage!(ndjson([{ a: 1 }, { a: 2 }]), 2, none);
  await part([{ a: 3, b: 'x' }]);
  await sink.writeNdjsonPage!(ndjson([{ a: 4, c: true }]), 1, none);
  await sink.endPage?.();
  const dropped = sink.openPage!();
  await dropped.writeNdjson(ndjson([{ dropped: 1 }]), 1, none);
  await dropped.drop();
  for (const page of [[{ a: 5, d: 'late' }], [{ b: 'y' }, { e: [1] }]]) {
    const held = sink.openPage!();
    await held.writeNdjson(ndjson(page), page.length, none);
    await held.keep();
  }
  await sink.writeNdjsonPage!(ndjson([{ a: 6 }]), 1, none);
  await part([{ f: 'new' }]);
  await sink.endPage?.();
}

async function csvThrough(wrap: (sink: RowSink, path: string) => RowSink, say?: (row: Record<string, unknown>) => Record<string, unknown>): Promise<string> {
  const path = join(dir, `${n++}.csv`);
  const sink = wrap(await openCsvSink(path), path);
  await walk(sink, say);
  await sink.close();
  return readFileSync(path, 'utf8');
}

const redacting = (sink: RowSink): RowSink => redactingSink(sink, () => new Redactor());
const WRAPPERS: Record<string, (sink: RowSink, path: string) => RowSink> = {
  'the redacting sink': redacting,
  'the counting sink of a response (apiwb run)': (sink) => new ResponseRows(sink).sink,
  'the counting sink over the redacting sink (apiwb run --out)': (sink) => new ResponseRows(redacting(sink)).sink,
  'compare\'s sink telling a growing file': (sink, path) => keepingSink(sink, new GrowingFile(), path),
  'compare\'s sink over the redacting sink (a side\'s rows)': (sink, path) => keepingSink(redacting(sink), new GrowingFile(), path),
};

void describe('a CSV sink behind each wrapper', () => {
  after(() => rmSync(dir, { recursive: true, force: true }));

  void it('writes the same file as the bare sink for a streamed walk of several pages', async () => {
    const bare = await csvThrough((sink) => sink);
    // The header is the first response's (fixed at its endPage): later keys go to _extra.
    assert.equal(bare.split('\r\n')[0], 'a,b,c,_extra');
    for (const [name, wrap] of Object.entries(WRAPPERS)) assert.equal(await csvThrough(wrap), bare, name);
  });

  void it('the redacting sink redacts rows written as a part of a page too', async () => {
    const secret = 'sk_live_wrapped_0123456789';
    const text = await csvThrough((sink) => redactingSink(sink, () => new Redactor([secret])), (row) => ({ ...row, token: secret }));
    assert.ok(!text.includes(secret), text);
  });

  void it('compare\'s growing file is told of the bytes a response\'s end keeps', async () => {
    const path = join(dir, `${n++}.csv`);
    const growing = new GrowingFile();
    const sink = keepingSink(await openCsvSink(path), growing, path);
    await sink.writeNdjsonPage!(ndjson([{ a: 1 }]), 1, none);
    await sink.endPage?.();
    assert.ok(growing.kept > 0);
    assert.equal(growing.kept, sink.checkpoint()?.bytes);
    await sink.close();
  });
});
