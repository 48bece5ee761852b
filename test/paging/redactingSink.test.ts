import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openNdjsonSink, redactingSink, type RowSink } from '../../src/core/export';
import { Redactor } from '../../src/core/secrets';

function lines(...rows: unknown[]): Buffer[] {
  return [Buffer.from(rows.map((r) => `${JSON.stringify(r)}\n`).join(''))];
}

void describe('redactingSink', () => {
  void it('keeps the streamed fast path for pages with nothing to redact, and redacts the others', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'apiwb-redacting-'));
    try {
      const inner = await openNdjsonSink(join(dir, 'rows.ndjson'));
      let fastWrites = 0;
      const counting: RowSink = { ...inner, writePage: (r) => inner.writePage(r), writeNdjsonPage: (l, n) => { fastWrites++; return inner.writeNdjsonPage!(l, n); }, checkpoint: () => inner.checkpoint(), close: () => inner.close() };
      const sink = redactingSink(counting, () => new Redactor(['sk_live_123456']));
      assert.ok(sink.writeNdjsonPage, 'a sink that can take streamed pages still can');
      await sink.writeNdjsonPage(lines({ id: 1, name: 'plain' }, { id: 2, name: 'also plain' }), 2);
      await sink.writeNdjsonPage(lines({ id: 3, Password: 'hunter2' }), 1);
      await sink.writeNdjsonPage(lines({ id: 4, note: 'key sk_live_123456 echoed' }), 1);
      await sink.writePage([{ id: 5, access_token: 'abc' }]);
      await sink.close();
      assert.equal(fastWrites, 1, 'only the clean page went through as it was');
      assert.deepEqual(readFileSync(join(dir, 'rows.ndjson'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as unknown), [
        { id: 1, name: 'plain' }, { id: 2, name: 'also plain' },
        { id: 3, Password: '***' },
        { id: 4, note: 'key *** echoed' },
        { id: 5, access_token: '***' },
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  void it('asks for the redactor on every page, so secrets learnt mid-walk count from then on', async () => {
    const written: unknown[][] = [];
    const inner: RowSink = { format: 'memory', writePage: (rows) => { written.push([...rows]); return Promise.resolve(); }, checkpoint: () => undefined, close: () => Promise.resolve() };
    const known: string[] = [];
    const sink = redactingSink(inner, () => new Redactor(known));
    await sink.writePage([{ echo: 'token-learnt-later' }]);
    known.push('token-learnt-later');
    await sink.writePage([{ echo: 'token-learnt-later' }]);
    assert.deepEqual(written, [[{ echo: 'token-learnt-later' }], [{ echo: '***' }]]);
    assert.equal(sink.writeNdjsonPage, undefined, 'no streamed path where the inner sink has none');
  });
});
