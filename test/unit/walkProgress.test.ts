// The words of a walk's progress and end (src/core/results/walkProgress.ts), shared by the CLI's progress
// and summary lines and the panel's paging bar.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatPagesRate, walkProgressWords, walkSummaryWords } from '../../src/core/results/walkProgress';

void describe('walk progress words', () => {
  void it('pages of the total, rows, both rates and the time left when the total is known', () => {
    assert.equal(walkProgressWords({ pages: 12, rows: 6000, rowsPerSecond: 2050, pagesPerSecond: 41, totalPages: 80, timeLeftMs: 2000 }),
      'page 12 of 80 · 6\u202f000 rows · 41 pages/s · 2\u202f050 rows/s · about 2 s left');
  });

  void it('no total: a count of pages and no time left; nothing kept yet: no rates', () => {
    assert.equal(walkProgressWords({ pages: 3, rows: 30, rowsPerSecond: 15, pagesPerSecond: 1.5 }), '3 pages · 30 rows · 1.5 pages/s · 15 rows/s');
    assert.equal(walkProgressWords({ pages: 0, rows: 0, rowsPerSecond: 0, pagesPerSecond: 0, totalPages: 9, timeLeftMs: 0 }), 'page 0 of 9 · 0 rows');
  });

  void it('a wait under way is said; otherwise the waits so far', () => {
    const base = { pages: 1, rows: 10, rowsPerSecond: 0, waits: 1, waitedMs: 12_000 };
    assert.equal(walkProgressWords({ ...base, waiting: 'rate limited: waiting 12 s' }), '1 page · 10 rows · rate limited: waiting 12 s');
    assert.equal(walkProgressWords(base), '1 page · 10 rows · waited once, 12 s');
    assert.equal(walkProgressWords({ ...base, waits: 3, waitedMs: 65_000 }), '1 page · 10 rows · waited 3 times, 1 min');
  });

  void it('pages a second: whole from 10, one decimal below, two below 0.1, "1 page/s" for exactly one', () => {
    assert.equal(formatPagesRate(10), '10 pages/s');
    assert.equal(formatPagesRate(9.96), '10 pages/s');
    assert.equal(formatPagesRate(9.94), '9.9 pages/s');
    assert.equal(formatPagesRate(1), '1 page/s');
    assert.equal(formatPagesRate(0.04), '0.04 pages/s');
    assert.equal(formatPagesRate(0), '');
    assert.equal(formatPagesRate(undefined), '');
  });

  void it('the summary: pages in the duration, rates, waits', () => {
    assert.equal(walkSummaryWords({ pages: 80, rows: 40_000, elapsedMs: 2100, rowsPerSecond: 19_000, pagesPerSecond: 38, waits: 2, waitedMs: 3000 }),
      '80 pages in 2.10 s · 38 pages/s · 19\u202f000 rows/s · waited 2 times, 3 s');
    assert.equal(walkSummaryWords({ pages: 1, rows: 0, elapsedMs: 12, rowsPerSecond: 0, pagesPerSecond: 83, waits: 0, waitedMs: 0 }), '1 page in 12 ms · 83 pages/s');
  });
});
