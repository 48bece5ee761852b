// redactingSink.ts's mixed parts: rows redaction leaves as they came keep
// their text, rows it changes go on as rows (writeRowsPart), in order, into the CSV and JSON sinks; a secret
// as a key, escaped (\u), next to rows with nothing to redact, in parts cut anywhere. Invariants: no secret
// in the file; the file holds every row once, in order; the CSV file does not depend on the parts.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { redactingSink } from '../../src/core/export';
import { openCsvSink } from '../../src/core/export/csvSink';
import { openJsonArraySink } from '../../src/core/export/jsonArraySink';
import { Redactor } from '../../src/core/secrets';

const SECRET = 'sk_live_9f8e7d6c5b4a';
const escaped = SECRET.replace('s', '\\u0073').replace('_', '\\u005f');
const dir = mkdtempSync(join(tmpdir(), 'apiwb-redact-mixed-'));
let n = 0;
// Lines as a service may send them: numbers JSON.stringify would write otherwise, a secret escaped, as a key.
const LINES = [
  '{"id":1,"n":1.50}',
  `{"id":2,"note":"${escaped}"}`,
  '{"id":3,"n":1E2}',
  `{"id":4,"${escaped}":true}`,
  '{"id":5,"n":-0}',
  `{"id":6,"nested":{"token":"abc","x":["${SECRET}"]}}`,
  '{"id":7}',
];
const BODY = Buffer.from(`${LINES.join('\n')}\n`);

async function written(format: 'csv' | 'json', cuts: readonly number[]): Promise<string> {
  const path = join(dir, `${n++}.${format}`);
  const inner = format === 'csv' ? await openCsvSink(path, {}) : await openJsonArraySink(path, {});
  const sink = redactingSink(inner, () => new Redactor([SECRET]));
  let from = 0;
  for (const to of [...cuts, BODY.length]) {
    const part = BODY.subarray(from, to);
    // Whole lines per part (the splitter's parts hold whole rows).
    const rows = part.toString('utf8').split('\n').filter((l) => l.trim() !== '').length;
    await sink.writeNdjsonPage!([part], rows, new Set(['token']));
    from = to;
  }
  await sink.close();
  return readFileSync(path, 'utf8');
}

void describe('redacted rows beside rows as they came', () => {
  after(() => rmSync(dir, { recursive: true, force: true }));
  const lineEnds = [...BODY.entries()].filter(([, b]) => b === 0x0a).map(([i]) => i + 1).slice(0, -1);
  const cutSets = [[], [lineEnds[0]!], [lineEnds[1]!, lineEnds[3]!], lineEnds];

  for (const format of ['json', 'csv'] as const) {
    void it(`${format}: no secret, every row once in order, the same file whatever the parts`, async () => {
      const files = await Promise.all(cutSets.map(async (cuts) => written(format, cuts)));
      for (const text of files) {
        assert.ok(!text.includes(SECRET) && !text.includes(escaped) && !text.includes('\\u0073k'), `no secret in ${text}`);
        assert.ok(!text.includes('"abc"') && !text.includes(',abc,'), 'a secret-named field masked');
      }
      for (const text of files.slice(1)) assert.equal(text, files[0], 'the file does not depend on the parts');
      if (format === 'json') {
        const rows = JSON.parse(files[0]!) as { id: number }[];
        assert.deepEqual(rows.map((r) => r.id), [1, 2, 3, 4, 5, 6, 7]);
      } else {
        const lines = files[0]!.split('\r\n').filter((l) => l !== '');
        assert.equal(lines.length, 1 + LINES.length, `a header and one line a row: ${files[0]}`);
      }
    });
  }
});
