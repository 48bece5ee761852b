// The streaming row splitter: rows to NDJSON at every chunk boundary, fields kept, malformed rejected.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ByteBlocks, JsonRowSplitter, MalformedJsonError } from '../../src/core/export/jsonRowSplitter';

function split(body: string, field: string | undefined, chunkSize: number) {
  const out = new ByteBlocks(64);
  const splitter = new JsonRowSplitter(field, out);
  const bytes = Buffer.from(body, 'utf8');
  for (let i = 0; i < bytes.length; i += chunkSize) splitter.push(bytes.subarray(i, i + chunkSize));
  const result = splitter.end();
  return { ...result, ndjson: Buffer.concat(out.buffers()).toString('utf8') };
}

function expected(rows: unknown[]): string {
  return rows.map((r) => `${JSON.stringify(r)}\n`).join('');
}

const rows = [
  { id: 1, name: 'Ann "the \\\\ first"', tags: ['a', 'b,]}'], nested: { deep: [1, { x: null }] } },
  { id: 2, name: 'Zoë 東京', ok: true, n: -1.5e3 },
  { id: 3, empty: {}, list: [] },
];
const body = JSON.stringify({ TableName: 'SEL_1', Result: rows, Remaining: 0, Errors: ['x'] });

void describe('JsonRowSplitter', () => {
  void it('splits the rows field into NDJSON and keeps the other fields, at every chunk size', () => {
    for (let size = 1; size <= body.length; size++) {
      const result = split(body, 'Result', size);
      assert.equal(result.ndjson, expected(rows), `chunk size ${size}`);
      assert.deepEqual(result.fields, { TableName: 'SEL_1', Remaining: 0, Errors: ['x'] });
      assert.equal(result.rowCount, 3);
    }
  });

  void it('rows with "},{" inside strings or nested values are split at the real boundaries only', () => {
    const tricky = Array.from({ length: 300 }, (_, i) => (i % 7 === 3
      ? { id: i, text: 'a},{"b":1},{c', nested: [{ x: 1 }, { y: [{ z: 2 }, {}] }] }
      : { id: i, name: `row ${i}`, ok: i % 2 === 0 }));
    const text = JSON.stringify({ Result: tricky, After: [{ k: 1 }, { k: 2 }], TableName: 'T' });
    for (const size of [3, 64, 1000, 4096, 65_536]) {
      const result = split(text, 'Result', size);
      assert.equal(result.ndjson, expected(tricky), `chunk size ${size}`);
      assert.deepEqual(result.fields, { After: [{ k: 1 }, { k: 2 }], TableName: 'T' });
      assert.equal(result.rowCount, 300);
    }
  });

  void it('a malformed row in the middle of a long compact page is caught', () => {
    const many = Array.from({ length: 2000 }, (_, i) => ({ id: i, v: 'x'.repeat(i % 50) }));
    const text = JSON.stringify({ Result: many }).replace('{"id":1000,', '{"id":1000,,');
    for (const size of [100, 65_536]) assert.throws(() => split(text, 'Result', size), MalformedJsonError);
  });

  void it('splits a top-level array, scalars and strings included', () => {
    const array = [1, 'two', { three: 3 }, null, [4], true, -0.5];
    for (const size of [1, 2, 3, 7, 100]) assert.equal(split(JSON.stringify(array), undefined, size).ndjson, expected(array));
  });

  void it('re-serialises a pretty-printed row so each row stays on one line', () => {
    const pretty = JSON.stringify({ Result: rows }, null, 2);
    for (const size of [1, 5, 1000]) assert.equal(split(pretty, 'Result', size).ndjson, expected(rows));
  });

  void it('an empty rows array, a null one, or none at all', () => {
    assert.equal(split('{"Result":[],"TableName":"T"}', 'Result', 3).rowCount, 0);
    assert.deepEqual(split('{"Result":null}', 'Result', 4).fields, { Result: null });
    const none = split('{"Assets":[{"a":1}]}', 'Result', 4);
    assert.equal(none.rowsFound, false);
    assert.deepEqual(none.fields, { Assets: [{ a: 1 }] });
  });

  void it('a body of another shape than expected is parsed whole, not rejected', () => {
    assert.deepEqual(split('[1,2]', 'Result', 1).value, [1, 2]);
    assert.deepEqual(split('{"items":[1]}', undefined, 2).value, { items: [1] });
    assert.throws(() => split('{"items":[1]', undefined, 2), MalformedJsonError);
  });

  void it('rejects malformed bodies like JSON.parse would', () => {
    const broken = [
      body.slice(0, body.length - 10), // cut short
      body.replace('"id":2', '"id":2,,'),
      body.replace('true', 'tru'),
      body.replace('"TableName":', '"TableName"'),
      `${body}x`,
      '{"Result":[1,]}',
      '{"Result":[{"a":1}{"b":2}]}',
    ];
    for (const text of broken) {
      for (const size of [1, 16, 10_000]) {
        assert.throws(() => split(text, 'Result', size), MalformedJsonError, `${text} at ${size}`);
      }
    }
  });
});
