// The panel's RowStore takes a row too long to hold from its file, piece by piece (RowSink/HeldPage
// writeLongRow): the row reads back whole in its place among the others, kept only once its page is kept,
// cut off with a page dropped. A Send in the editor then never holds such a row to store it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { LongRow } from '../../src/core/export/sink';
import { MAX_SHOWN_ROW_BYTES, RowStore } from '../../src/core/results/rowStore';

/** A long row given in pieces of 7 bytes (none ends in a line end: the store adds it). */
function longRow(text: string): LongRow {
  const bytes = Buffer.from(text);
  return {
    size: bytes.length,
    each: async (piece) => {
      for (let at = 0; at < bytes.length; at += 7) await piece(Buffer.from(bytes.subarray(at, at + 7)));
    },
  };
}

void describe('RowStore and a row too long to hold', () => {
  const long = { id: 'L', blob: 'x'.repeat(500), n: [1, 2, 3] };

  void it('stores it in its place among the rows, each read back as it was', async () => {
    const store = new RowStore(64);
    await store.writeNdjsonPage([Buffer.from('{"id":1}\n')]);
    await store.writeLongRow(longRow(JSON.stringify(long)));
    await store.writeNdjsonPage([Buffer.from('{"id":2}\n{"id":3}\n')]);
    assert.equal(store.rowCount, 4);
    assert.deepEqual(await store.readRows(0, 4), [{ id: 1 }, long, { id: 2 }, { id: 3 }]);
    assert.deepEqual(await store.readRows(2, 1), [{ id: 2 }]);
    await store.remove();
  });

  void it('in a held page: counted once kept, cut off when the page is dropped', async () => {
    const store = new RowStore(64);
    await store.writeNdjsonPage([Buffer.from('{"id":1}\n')]);
    const dropped = store.openPage();
    await dropped.writeLongRow!(longRow(JSON.stringify(long)), new Set());
    assert.equal(store.rowCount, 1, 'not kept yet');
    await dropped.drop();
    const kept = store.openPage();
    await kept.writeLongRow!(longRow(JSON.stringify({ ...long, id: 'K' })), new Set());
    await kept.keep();
    assert.deepEqual(await store.readRows(0, 5), [{ id: 1 }, { ...long, id: 'K' }]);
    await store.remove();
  });
});

void describe('RowStore and a row too long to show', () => {
  void it('reads back as words past MAX_SHOWN_ROW_BYTES, the rows around it as they were', async () => {
    const store = new RowStore(64);
    const huge = `{"id":"H","blob":"${'y'.repeat(MAX_SHOWN_ROW_BYTES)}"}`;
    await store.writeNdjsonPage([Buffer.from('{"id":1}\n')]);
    await store.writeLongRow(longRow(huge));
    await store.writeNdjsonPage([Buffer.from('{"id":2}\n')]);
    const rows = await store.readRows(0, 3);
    assert.deepEqual([rows[0], rows[2]], [{ id: 1 }, { id: 2 }]);
    assert.equal(rows[1], '(a row of 4 MB, too large to show here)');
    assert.deepEqual(await store.readRows(2, 1), [{ id: 2 }], 'a read that starts after it passes over it');
    await store.remove();
  });
});
