// Rows nobody reads (a response without --out: only counted) are never held: the counts are JSON.parse's,
// nothing reaches the NDJSON blocks, and a row larger than the held-value bound is counted, not refused.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ByteBlocks, JsonRowSplitter } from '../../src/core/export/jsonRowSplitter';
import type { AnywhereOptions } from '../../src/core/export/splitResult';

const ANYWHERE: AnywhereOptions = { alwaysKept: new Set(), fieldBytes: 1 << 20, keptBytes: 1 << 20 };

void describe('JsonRowSplitter with rows only counted', () => {
  void it('counts a top-level array’s rows as JSON.parse does and holds none of them', () => {
    const body = JSON.stringify([{ id: 1, a: [1, { b: '],}' }] }, 2, 'x', null, { id: 5 }, []]);
    for (const size of [1, 3, 1000]) {
      const out = new ByteBlocks(64);
      const splitter = new JsonRowSplitter(undefined, out, ANYWHERE, true);
      for (let i = 0; i < body.length; i += size) splitter.push(Buffer.from(body.slice(i, i + size)));
      const result = splitter.end();
      assert.equal(result.rowCount, (JSON.parse(body) as unknown[]).length);
      assert.equal(out.length, 0);
    }
  });

  void it('counts a row of more than 256 MiB without holding it', () => {
    const out = new ByteBlocks();
    const splitter = new JsonRowSplitter(undefined, out, ANYWHERE, true);
    const mib = Buffer.alloc(1 << 20, 0x78);
    splitter.push(Buffer.from('[{"id":1,"blob":"'));
    for (let i = 0; i < 257; i++) splitter.push(mib);
    splitter.push(Buffer.from('"},{"id":2}]'));
    assert.equal(splitter.end().rowCount, 2);
    assert.equal(out.length, 0);
  });
});
