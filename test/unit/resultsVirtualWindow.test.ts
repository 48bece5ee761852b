// Virtualisation math without a DOM: which rows are rendered for a scroll offset.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_SPACER_HEIGHT, scrollTopToReveal, visibleWindow } from '../../src/webview/virtualWindow';

const base = { viewportHeight: 220, rowHeight: 22, rowCount: 100_000, overscan: 5 };

void test('at the top: the visible rows plus overscan below, none above', () => {
  assert.deepEqual(visibleWindow({ ...base, scrollTop: 0 }), { first: 0, end: 15, offsetTop: 0, totalHeight: 2_200_000 });
});

void test('in the middle: the window follows the scroll offset and sits where its first row belongs', () => {
  const win = visibleWindow({ ...base, scrollTop: 50_000 * 22 + 11 });
  assert.equal(win.first, 50_000 - 5);
  assert.equal(win.end, 50_000 + 11 + 5);
  assert.equal(win.offsetTop, win.first * 22);
});

void test('at the end and past it (a stale offset after a shorter page): clamped, never beyond the last row', () => {
  const end = visibleWindow({ ...base, scrollTop: 2_200_000 - 220 });
  assert.equal(end.end, 100_000);
  assert.equal(end.first, 100_000 - 10 - 5);
  assert.deepEqual(visibleWindow({ ...base, scrollTop: 99_999_999 }), end);
  const shorter = visibleWindow({ ...base, rowCount: 3, scrollTop: 50_000 });
  assert.deepEqual([shorter.first, shorter.end], [0, 3]);
});

void test('rendered rows stay bounded whatever the row count', () => {
  for (const rowCount of [10, 1000, 100_000, 1_000_000]) {
    const win = visibleWindow({ ...base, rowCount, scrollTop: (rowCount / 2) * 22 });
    assert.ok(win.end - win.first <= 10 + 1 + 2 * 5, `rowCount ${rowCount}: ${win.end - win.first} rows`);
  }
});

void test('degenerate inputs: no rows, zero row height, negative offset, zero viewport', () => {
  assert.deepEqual(visibleWindow({ ...base, rowCount: 0, scrollTop: 0 }), { first: 0, end: 0, offsetTop: 0, totalHeight: 0 });
  assert.deepEqual(visibleWindow({ ...base, rowHeight: 0, scrollTop: 0 }), { first: 0, end: 0, offsetTop: 0, totalHeight: 0 });
  assert.equal(visibleWindow({ ...base, scrollTop: -500 }).first, 0);
  const zero = visibleWindow({ ...base, viewportHeight: 0, scrollTop: 0, overscan: 0 });
  assert.deepEqual([zero.first, zero.end], [0, 1]);
});

void test('scrollTopToReveal moves the least needed to show a row', () => {
  assert.equal(scrollTopToReveal(5, 22, 220, 0), 0);
  assert.equal(scrollTopToReveal(20, 22, 220, 0), 21 * 22 - 220);
  assert.equal(scrollTopToReveal(2, 22, 220, 440), 44);
});

void test('past the browser height cap the spacer stops growing and the scroll range still reaches every row', () => {
  const rowCount = 3_000_000;
  const atTop = visibleWindow({ ...base, rowCount, scrollTop: 0 });
  assert.equal(atTop.totalHeight, MAX_SPACER_HEIGHT);
  assert.deepEqual([atTop.first, atTop.offsetTop], [0, 0]);
  const bottom = visibleWindow({ ...base, rowCount, scrollTop: MAX_SPACER_HEIGHT - 220 });
  assert.equal(bottom.end, rowCount);
  // The last row's bottom edge lands exactly on the viewport's bottom edge.
  const lastRowBottom = bottom.offsetTop + (rowCount - bottom.first) * 22;
  assert.equal(Math.round(lastRowBottom), MAX_SPACER_HEIGHT);
  const middle = visibleWindow({ ...base, rowCount, overscan: 0, scrollTop: (MAX_SPACER_HEIGHT - 220) / 2 });
  assert.ok(Math.abs(middle.first - (rowCount - 10) / 2) <= 1, `middle row ${middle.first}`);
  // The first visible row starts at or above the viewport's top edge, within one row.
  const viewportTop = (MAX_SPACER_HEIGHT - 220) / 2;
  assert.ok(middle.offsetTop <= viewportTop && middle.offsetTop > viewportTop - 22);
});

void test('scrollTopToReveal past the height cap maps a row back onto the compressed scroll range', () => {
  const rowCount = 3_000_000;
  const top = scrollTopToReveal(rowCount - 1, 22, 220, 0, rowCount);
  assert.ok(Math.abs(top - (MAX_SPACER_HEIGHT - 220)) < 1, `${top}`);
  const win = visibleWindow({ ...base, rowCount, scrollTop: top, overscan: 0 });
  assert.equal(win.end, rowCount);
  const middle = scrollTopToReveal(1_500_000, 22, 220, 0, rowCount);
  const shown = visibleWindow({ ...base, rowCount, scrollTop: middle, overscan: 0 });
  assert.ok(shown.first <= 1_500_000 && 1_500_000 < shown.end, `${shown.first}..${shown.end}`);
});
