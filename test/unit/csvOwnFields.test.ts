// csvSink.ts's cells are the row's own fields: a row that lacks a column named like a member of
// Object.prototype (constructor, toString, __proto__, valueOf…) gets an empty field, never the runtime's
// member ("function Object() { [native code] }", "{}"); a late key `__proto__` is a field of `_extra`.
// Oracle: JSON.parse, where the row has no such field (a missing value is an empty field: csvSink.ts).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { csvColumns, csvRow, EXTRA_COLUMN } from '../../src/core/export/csvSink';

void describe('CSV cells of columns named like Object.prototype members', () => {
  void it('a row without the field writes an empty cell, never the runtime\'s own member', () => {
    const rows = JSON.parse('[{"id":1,"constructor":"c","__proto__":5,"toString":"t","valueOf":"v"},{"id":2}]') as unknown[];
    const columns = csvColumns(rows);
    assert.deepEqual(columns, ['id', 'constructor', '__proto__', 'toString', 'valueOf', EXTRA_COLUMN]);
    const known = new Set(columns.filter((c) => c !== EXTRA_COLUMN));
    assert.equal(csvRow(rows[0], columns, known), '1,c,5,t,v,');
    assert.equal(csvRow(rows[1], columns, known), '2,,,,,');
  });

  void it('a key __proto__ not in the header is a field of _extra, its value kept', () => {
    const row = JSON.parse('{"id":3,"__proto__":{"x":1},"constructor":2}') as unknown;
    const known = new Set(['id']);
    assert.equal(csvRow(row, ['id', EXTRA_COLUMN], known), '3,"{""__proto__"":{""x"":1},""constructor"":2}"');
  });
});
