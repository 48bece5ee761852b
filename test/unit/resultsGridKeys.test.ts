// The results grid's keys as positions: where each key moves focus, at the edges too.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { gridKeyAction, HEADER, type GridCell } from '../../src/webview/gridKeys';

const size = { rows: 100, columns: 5, page: 20 };
const to = (key: string, at: GridCell, ctrl = false) => {
  const action = gridKeyAction(key, ctrl, at, size);
  return action?.kind === 'move' ? action.to : action;
};

void test('arrows move one cell and stop at the edges; Up from the first row reaches the header row', () => {
  assert.deepEqual(to('ArrowDown', { position: 0, column: 2 }), { position: 1, column: 2 });
  assert.deepEqual(to('ArrowDown', { position: 99, column: 2 }), { position: 99, column: 2 });
  assert.deepEqual(to('ArrowUp', { position: 0, column: 2 }), { position: HEADER, column: 2 });
  assert.deepEqual(to('ArrowUp', { position: HEADER, column: 2 }), { position: HEADER, column: 2 });
  assert.deepEqual(to('ArrowDown', { position: HEADER, column: 2 }), { position: 0, column: 2 });
  assert.deepEqual(to('ArrowRight', { position: 3, column: 4 }), { position: 3, column: 4 });
  assert.deepEqual(to('ArrowLeft', { position: 3, column: 0 }), { position: 3, column: 0 });
  assert.deepEqual(to('ArrowRight', { position: 3, column: 1 }), { position: 3, column: 2 });
});

void test('Home / End go along the row, with Ctrl to the first / last row in the same column', () => {
  assert.deepEqual(to('Home', { position: 7, column: 3 }), { position: 7, column: 0 });
  assert.deepEqual(to('End', { position: 7, column: 1 }), { position: 7, column: 4 });
  assert.deepEqual(to('Home', { position: 7, column: 3 }, true), { position: 0, column: 3 });
  assert.deepEqual(to('End', { position: 7, column: 3 }, true), { position: 99, column: 3 });
});

void test('Page Down / Page Up move a page and clamp; from the header, Page Down lands in the rows', () => {
  assert.deepEqual(to('PageDown', { position: 10, column: 1 }), { position: 30, column: 1 });
  assert.deepEqual(to('PageDown', { position: 90, column: 1 }), { position: 99, column: 1 });
  assert.deepEqual(to('PageUp', { position: 10, column: 1 }), { position: 0, column: 1 });
  assert.deepEqual(to('PageDown', { position: HEADER, column: 1 }), { position: 20, column: 1 });
});

void test('Enter and Space act on the cell; other keys and an empty grid do nothing', () => {
  assert.deepEqual(gridKeyAction('Enter', false, { position: 0, column: 0 }, size), { kind: 'activate', enter: true });
  assert.deepEqual(gridKeyAction(' ', false, { position: 0, column: 0 }, size), { kind: 'activate', enter: false });
  assert.equal(gridKeyAction('a', false, { position: 0, column: 0 }, size), undefined);
  assert.equal(gridKeyAction('ArrowDown', false, { position: 0, column: 0 }, { rows: 0, columns: 3, page: 10 }), undefined);
});
