// A row the Redactor changes (a secret-named field) keeps its numbers' text in the NDJSON and JSON files
// (redactingSink.ts keeps them as NumberText; ndjsonSink.ts and jsonArraySink.ts write them with
// rowJsonText): 1E400 is not null, 12345678901234567890 is not 12345678901234567000, 1.50 is not 1.5,
// on the page's path (writeNdjsonPage) and on the held page's (openPage), and the secret is masked.
// Oracle: the texts the test writes into the lines.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { openJsonArraySink } from '../../src/core/export/jsonArraySink';
import { openNdjsonSink } from '../../src/core/export/ndjsonSink';
import { redactingSink } from '../../src/core/export/redactingSink';
import { Redactor } from '../../src/core/secrets';

const LINES = [
  '{"id":1,"password":"hunter2","big":12345678901234567890,"huge":1E400,"m":{"k":[1.50]}}',
  '{"id":2,"n":1E400}',
  '{"id":3,"password":"hunter3","n":2}',
];
const NUMBERS = ['12345678901234567890', '1E400', '[1.50]'];

async function written(format: 'ndjson' | 'json', held: boolean): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'apiwb-redact-numbers-'));
  try {
    const path = join(dir, `rows.${format}`);
    const sink = redactingSink(format === 'json' ? await openJsonArraySink(path, {}) : await openNdjsonSink(path), () => new Redactor([]));
    const pieces = [Buffer.from(`${LINES.join('\n')}\n`)];
    const keys = new Set(['password']);
    if (held) {
      const page = sink.openPage!();
      await page.writeNdjson(pieces, LINES.length, keys);
      await page.keep();
    } else await sink.writeNdjsonPage!(pieces, LINES.length, keys);
    await sink.close();
    return readFileSync(path, 'utf8');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

void describe('redacted rows keep their number text in NDJSON and JSON files', () => {
  for (const format of ['ndjson', 'json'] as const) {
    for (const held of [false, true]) {
      void it(`${format}${held ? ' (a held page)' : ''}: the numbers as sent, the secret masked`, async () => {
        const text = await written(format, held);
        assert.ok(!text.includes('hunter2') && !text.includes('hunter3'), text);
        const first = text.split('\n').find((line) => line.includes('"id":1'))!;
        assert.ok(!first.includes('"password":"hunter2"') && /"password":"\*+"/.test(first), first);
        for (const number of NUMBERS) assert.ok(first.includes(number), `${number} in ${first}`);
        assert.ok(!text.includes('null') && !text.includes('12345678901234567000') && !text.includes('1.5]'), text);
        assert.ok(text.includes('{"id":2,"n":1E400}'), 'a row redaction leaves as it was is its line');
        assert.ok(/"id":3,"password":"\*+","n":2\}/.test(text), text);
        if (format === 'json') assert.ok(text.startsWith('[\n') && text.endsWith('\n]\n'), text);
      });
    }
  }
});
