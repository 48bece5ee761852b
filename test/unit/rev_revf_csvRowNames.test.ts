// Adversarial review (revf) of csvSink.ts's csvRow (its loop was rewritten on this branch; the lookup
// `row[c]` is as on main 74bb245, so this defect is older than the branch): a row that lacks a column named
// like a member of Object.prototype (constructor, toString, __proto__, valueOf…) gets the runtime's value of
// that member written in the cell ("function Object() { [native code] }", "{}") instead of an empty field.
// Oracle: JSON.parse, where the row has no such field (a missing value is an empty field: csvSink.ts).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { csvColumns, csvRow, EXTRA_COLUMN } from '../../src/core/export/csvSink';

void describe('review revf: CSV cells of columns named like Object.prototype members', () => {
  void it('a row without the field writes an empty cell, never the runtime\'s own member', () => {
    const rows = JSON.parse('[{"id":1,"constructor":"c","__proto__":5,"toString":"t","valueOf":"v"},{"id":2}]') as unknown[];
    const columns = csvColumns(rows);
    assert.deepEqual(columns, ['id', 'constructor', '__proto__', 'toString', 'valueOf', EXTRA_COLUMN]);
    const known = new Set(columns.filter((c) => c !== EXTRA_COLUMN));
    assert.equal(csvRow(rows[0], columns, known), '1,c,5,t,v,');
    assert.equal(csvRow(rows[1], columns, known), '2,,,,,');
  });
});
