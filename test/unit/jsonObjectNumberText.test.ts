// Rule (src/core/json/numberText.ts isJsonObject): a number kept as its text (parseKeepingNumbers'
// NumberText: 9007199254740993, 1E400, -0, 1.50) is a JSON number wherever a JSON object is told apart:
// CSV's columns and rows (csvSink.ts), the panel's columns (results/tableModel.ts), a walk's next body
// (paging/requestEdit.ts), the rows rule's arrays of objects (paging/rows.ts), compare's key path
// (compare/records.ts), a generated loop's first body (codegen/paging/common.ts firstBody). Each case
// holds the lossy number to a plain one (7, 123), which never was an object.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { csvColumns, csvRow } from '../../src/core/export/csvSink';
import { isJsonObject, NumberText, parseKeepingNumbers } from '../../src/core/json/numberText';
import { firstBody, type LoopInput } from '../../src/core/codegen/paging/common';
import { recordKey, rulesOf } from '../../src/core/compare/records';
import { withBodyFields } from '../../src/core/paging/requestEdit';
import { rowsOfBody } from '../../src/core/paging/rows';
import { exportOrdinalStrategy } from '../../src/core/paging/strategies/exportOrdinal';
import { DEFAULT_RETRY_POLICY } from '../../src/core/paging/types';
import { columnsOf } from '../../src/core/results/tableModel';

const LOSSY = ['9007199254740993', '1E400', '-0', '1.50'];

void describe('a number kept as its text is no JSON object', () => {
  void it('isJsonObject: objects yes; numbers (kept or not), arrays, null, strings no', () => {
    for (const text of [...LOSSY, '7', '[1]', 'null', '"x"']) assert.equal(isJsonObject(parseKeepingNumbers(text)), false, text);
    for (const text of ['{}', '{"a":9007199254740993}']) assert.equal(isJsonObject(parseKeepingNumbers(text)), true, text);
  });

  void it('CSV: number rows get the single value column, their text as sent; among objects, _extra', () => {
    const rows = [...LOSSY, '7'].map(parseKeepingNumbers);
    assert.deepEqual(csvColumns(rows), ['value']);
    assert.deepEqual(rows.map((row) => csvRow(row, ['value'], new Set(['value']))), [...LOSSY, '7']);
    const mixed = ['{"id":1}', '9007199254740993', '7'].map(parseKeepingNumbers);
    assert.deepEqual(csvColumns(mixed), ['id', '_extra']);
    assert.deepEqual(mixed.slice(1).map((row) => csvRow(row, ['id', '_extra'], new Set(['id']))), [',"{""value"":9007199254740993}"', ',"{""value"":7}"']);
  });

  void it('the panel\'s columns: a number row adds none', () => {
    assert.deepEqual(columnsOf(['{"id":1}', '1E400', '7'].map(parseKeepingNumbers)).map((c) => c.key), ['id']);
  });

  void it('a walk\'s next body: a body that is a number is refused alike, kept as its text or not', () => {
    const request = { method: 'POST', url: 'http://127.0.0.1/x', headers: {} };
    assert.equal(withBodyFields({ ...request, body: '123' }, { Offset: 2 }), undefined);
    assert.equal(withBodyFields({ ...request, body: '12345678901234567890' }, { Offset: 2 }), undefined);
    assert.equal(withBodyFields({ ...request, body: '{"CtcID":12345678901234567890}' }, { Offset: 2 })?.body, '{"CtcID":12345678901234567890,"Offset":2}');
  });

  void it('the rows rule: an array of numbers is no array of objects, kept as their text or not', () => {
    for (const ids of ['[7,8,9]', `[${LOSSY.join(',')}]`]) {
      assert.equal(rowsOfBody(parseKeepingNumbers(`{"ids":${ids},"items":[{"id":1}]}`))?.path, 'items', ids);
      assert.equal(rowsOfBody(parseKeepingNumbers(`{"page":{"ids":${ids}},"items":[{"id":1}]}`))?.path, 'items', ids);
    }
  });

  void it('compare\'s key: a key path into a number finds no key, kept as its text or not', () => {
    for (const id of ['7', ...LOSSY]) assert.match(recordKey(parseKeepingNumbers(`{"id":${id}}`), rulesOf('id.text')), /^c:/, id);
    assert.match(recordKey(parseKeepingNumbers('{"id":{"text":12345678901234567890}}'), rulesOf('id.text')), /^k:/, 'an object named so has the key');
  });

  void it('a generated loop\'s first body: a body that is a number gets no first-request field, kept as its text or not', () => {
    const loop = exportOrdinalStrategy({}, DEFAULT_RETRY_POLICY).loop!;
    const input = (body: string): LoopInput => ({ loop, request: { method: 'POST', url: 'http://127.0.0.1/x', headers: {}, body }, secrets: [], followRedirects: true });
    assert.deepEqual(firstBody(input('123')), { json: true, value: 123 });
    const kept = firstBody(input('12345678901234567890'));
    assert.ok(kept?.value instanceof NumberText);
    assert.equal(kept.value.text, '12345678901234567890');
    assert.deepEqual(Object.keys(kept.value), [], 'OFFSET is no field of a number');
    assert.equal(JSON.stringify((firstBody(input('{"CtcID":12345678901234567890}'))?.value as Record<string, unknown>)['OFFSET']), '1');
  });
});
