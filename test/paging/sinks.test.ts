// NDJSON and CSV sinks: formats, RFC 4180 escaping, the column rule, and resuming from a checkpoint.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { reopenFileSink } from '../../src/core/export';
import { csvField, openCsvSink } from '../../src/core/export/csvSink';
import { openJsonArraySink } from '../../src/core/export/jsonArraySink';
import { openNdjsonSink } from '../../src/core/export/ndjsonSink';

let dir = '';
before(() => { dir = mkdtempSync(join(tmpdir(), 'apiwb-sinks-')); });
after(() => rmSync(dir, { recursive: true, force: true }));

void describe('NDJSON sink', () => {
  void it('writes one JSON row per line, page after page', async () => {
    const path = join(dir, 'rows.ndjson');
    const sink = await openNdjsonSink(path);
    await sink.writePage([{ a: 1, text: 'line\nbreak' }, { a: 2 }]);
    await sink.writePage([]);
    await sink.writePage([[1, 2], 'plain']);
    await sink.close();
    assert.equal(readFileSync(path, 'utf8'), '{"a":1,"text":"line\\nbreak"}\n{"a":2}\n[1,2]\n"plain"\n');
  });

  void it('a sink opened on an existing file replaces it: only the new rows, also when there are none', async () => {
    const path = join(dir, 'old.ndjson');
    writeFileSync(path, '{"old":1}\n'.repeat(50_000));
    const sink = await openNdjsonSink(path);
    await sink.writePage([{ n: 1 }]);
    await sink.close();
    assert.equal(readFileSync(path, 'utf8'), '{"n":1}\n');
    writeFileSync(path, '{"old":1}\n'.repeat(50_000));
    await (await openNdjsonSink(path)).close();
    assert.equal(readFileSync(path, 'utf8'), '', 'a run that wrote no row leaves an empty file, not the old one');
    writeFileSync(path, '{"old":1}\n'.repeat(50_000));
    const held = await openNdjsonSink(path);
    const page = held.openPage!();
    await page.writeNdjson([Buffer.from('{"n":2}\n')], 1, new Set());
    await page.keep();
    assert.equal(held.checkpoint()?.bytes, 8);
    await held.close();
    assert.equal(readFileSync(path, 'utf8'), '{"n":2}\n');
  });

  void it('a held page counts once kept; a dropped one is cut off; a resumed sink cuts off one never kept', async () => {
    const path = join(dir, 'held.ndjson');
    const sink = await openNdjsonSink(path);
    await sink.writePage([{ n: 1 }]);
    const dropped = sink.openPage!();
    await dropped.writeNdjson([Buffer.from('{"n":2}\n')], 1, new Set());
    await dropped.writeRows([{ n: 3 }]);
    assert.equal(sink.checkpoint()?.bytes, 8, 'held bytes are not counted');
    assert.equal(readFileSync(path, 'utf8'), '{"n":1}\n{"n":2}\n{"n":3}\n', 'they are in the file while held');
    await dropped.drop();
    assert.equal(readFileSync(path, 'utf8'), '{"n":1}\n');
    const kept = sink.openPage!();
    await kept.writeRows([{ n: 2 }]);
    await kept.keep();
    const never = sink.openPage!();
    await never.writeRows([{ n: 99 }]);
    const checkpoint = sink.checkpoint();
    await sink.close();
    assert.ok(checkpoint);
    assert.equal(checkpoint.bytes, 16);
    const resumed = await reopenFileSink(checkpoint);
    await resumed.writePage([{ n: 3 }]);
    await resumed.close();
    assert.equal(readFileSync(path, 'utf8'), '{"n":1}\n{"n":2}\n{"n":3}\n');
  });

  void it('a resumed sink drops bytes past the checkpoint (a torn page) and appends', async () => {
    const path = join(dir, 'resume.ndjson');
    const sink = await openNdjsonSink(path);
    await sink.writePage([{ n: 1 }]);
    const checkpoint = sink.checkpoint();
    await sink.close();
    appendFileSync(path, '{"n":2}\n{"n":'); // a page that was never confirmed
    assert.ok(checkpoint);
    const resumed = await reopenFileSink(JSON.parse(JSON.stringify(checkpoint)) as typeof checkpoint);
    await resumed.writePage([{ n: 2 }]);
    await resumed.close();
    assert.equal(readFileSync(path, 'utf8'), '{"n":1}\n{"n":2}\n');
  });
});

void describe('CSV sink', () => {
  void it('escapes per RFC 4180: commas, quotes, CR and LF are quoted, quotes doubled', () => {
    assert.equal(csvField('plain'), 'plain');
    assert.equal(csvField('a,b'), '"a,b"');
    assert.equal(csvField('say "hi"'), '"say ""hi"""');
    assert.equal(csvField('two\r\nlines'), '"two\r\nlines"');
    assert.equal(csvField(null), '');
    assert.equal(csvField(12.5), '12.5');
    assert.equal(csvField({ x: [1] }), '"{""x"":[1]}"');
  });

  void it('columns come from the first page; later keys go to _extra, never lost', async () => {
    const path = join(dir, 'rows.csv');
    const sink = await openCsvSink(path);
    await sink.writePage([{ id: 1, name: 'Ann' }, { id: 2, city: 'Lyon, FR' }]);
    await sink.writePage([{ id: 3, name: 'Bo', late: true }]);
    await sink.close();
    assert.equal(readFileSync(path, 'utf8'), [
      'id,name,city,_extra',
      '1,Ann,,',
      '2,,"Lyon, FR",',
      '3,Bo,,"{""late"":true}"',
      '',
    ].join('\r\n'));
  });

  void it('a resumed CSV keeps its header and columns', async () => {
    const path = join(dir, 'resume.csv');
    const sink = await openCsvSink(path);
    await sink.writePage([{ id: 1 }]);
    const checkpoint = sink.checkpoint();
    await sink.close();
    assert.ok(checkpoint);
    const resumed = await reopenFileSink(checkpoint);
    await resumed.writePage([{ id: 2 }]);
    await resumed.close();
    assert.equal(readFileSync(path, 'utf8'), 'id,_extra\r\n1,\r\n2,\r\n');
  });

  void it('rows that are not objects go in one value column', async () => {
    const path = join(dir, 'values.csv');
    const sink = await openCsvSink(path);
    await sink.writePage(['a', 'b,c']);
    await sink.close();
    assert.equal(readFileSync(path, 'utf8'), 'value\r\na\r\n"b,c"\r\n');
  });

  void it('refuses a checkpoint longer than the file (not the file of this walk)', async () => {
    const path = join(dir, 'short.ndjson');
    const sink = await openNdjsonSink(path);
    await sink.close();
    await assert.rejects(reopenFileSink({ format: 'ndjson', path, bytes: 100 }), /not the file of this walk/);
  });
});

void describe('CSV and JSON array sinks take streamed pages (NDJSON lines) as NDJSON does', () => {
  const lines = (rows: readonly unknown[]): Buffer[] => [Buffer.from(rows.map((r) => JSON.stringify(r)).join('\n').slice(0, 7)), Buffer.from(`${rows.map((r) => JSON.stringify(r)).join('\n').slice(7)}\n`)];

  void it('CSV: a held page dropped takes its header with it; one kept, then a drop of nothing more, keeps it', async () => {
    const path = join(dir, 'held.csv');
    const sink = await openCsvSink(path);
    const refused = sink.openPage!();
    await refused.writeNdjson(lines([{ z: 1 }]), 1, new Set());
    await refused.drop();
    const page = sink.openPage!();
    await page.writeNdjson(lines([{ a: '=1', b: 2 }, { a: 'x', c: 3 }]), 2, new Set());
    await page.keep();
    await page.drop();
    await sink.writeNdjsonPage!(lines([{ a: 'y', d: 4 }]), 1, new Set());
    await sink.close();
    assert.equal(readFileSync(path, 'utf8'), "a,b,c,_extra\r\n'=1,2,,\r\nx,,3,\r\ny,,,\"{\"\"d\"\":4}\"\r\n");
  });

  void it('JSON: rows streamed keep their text, commas put between; a drop after keep keeps what was kept; valid once closed', async () => {
    const path = join(dir, 'held.json');
    const sink = await openJsonArraySink(path, {});
    const page = sink.openPage!();
    await page.writeNdjson([Buffer.from('{"a": 1.50}\n{"a"'), Buffer.from(':2}\n')], 2, new Set());
    await page.keep();
    await page.drop();
    const refused = sink.openPage!();
    await refused.writeNdjson([Buffer.from('{"gone":1}\n')], 1, new Set());
    await refused.drop();
    await sink.writeNdjsonPage!([Buffer.from('3\n')], 1, new Set());
    await sink.writePage([{ b: 'x' }]);
    await sink.close();
    const text = readFileSync(path, 'utf8');
    assert.equal(text, '[\n{"a": 1.50},\n{"a":2},\n3,\n{"b":"x"}\n]\n');
    assert.deepEqual(JSON.parse(text), [{ a: 1.5 }, { a: 2 }, 3, { b: 'x' }]);
  });

  void it('a first page dropped whole, then nothing: the JSON file is an empty array', async () => {
    const path = join(dir, 'dropped.json');
    const sink = await openJsonArraySink(path, {});
    const page = sink.openPage!();
    await page.writeNdjson([Buffer.from('1\n2\n')], 2, new Set());
    await page.drop();
    await sink.close();
    assert.equal(readFileSync(path, 'utf8'), '[]\n');
  });
});

void describe('A sink on a file that was there, no row kept (replaceUnwritten false)', () => {
  void it('rows written then all cut off again: the old file is back, its permissions too; none is made where there was none', async () => {
    const path = join(dir, 'kept-old.ndjson');
    writeFileSync(path, '{"yesterday":1}\n', { mode: 0o600 });
    chmodSync(path, 0o600);
    const sink = await openNdjsonSink(path, { replaceUnwritten: () => false });
    const mark = sink.mark!();
    await sink.writePage([{ n: 1 }, { n: 2 }]);
    assert.equal(statSync(path).mode & 0o777, 0o600, 'the new file is as private as the old one');
    await mark.cutBack();
    await sink.close();
    assert.equal(readFileSync(path, 'utf8'), '{"yesterday":1}\n');
    assert.equal(statSync(path).mode & 0o777, 0o600);
    assert.equal(sink.leftAsItWas?.(), true);
    assert.deepEqual(readdirSync(dir).filter((n) => n.includes('apiwb-before')), [], 'nothing left aside');
    const fresh = join(dir, 'never-there.ndjson');
    const none = await openNdjsonSink(fresh, { replaceUnwritten: () => false });
    const at = none.mark!();
    await none.writePage([{ n: 1 }]);
    await at.cutBack();
    await none.close();
    assert.equal(existsSync(fresh), false);
  });

  void it('rows kept: the new file replaces the old one, nothing left aside', async () => {
    const path = join(dir, 'replaced.ndjson');
    writeFileSync(path, '{"yesterday":1}\n');
    const sink = await openNdjsonSink(path, { replaceUnwritten: () => false });
    await sink.writePage([{ n: 1 }]);
    await sink.close();
    assert.equal(readFileSync(path, 'utf8'), '{"n":1}\n');
    assert.equal(sink.leftAsItWas?.(), false);
    assert.deepEqual(readdirSync(dir).filter((n) => n.includes('apiwb-before')), []);
  });
});
