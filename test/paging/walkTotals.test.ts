// A walk is complete only when what it kept agrees with the totals its server announced (walkRate.ts).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { missingByTotals } from '../../src/core/paging/walkRate';

void describe('missingByTotals', () => {
  const headers = { 'X-Pagination-Total-Pages': 5, 'X-Pagination-Total-Results': 10 };
  void it('says nothing when no total was announced', () => {
    assert.equal(missingByTotals(undefined, 1, 0), undefined);
    assert.equal(missingByTotals({ 'X-Pagination-Per-Page': 2 }, 1, 0), undefined);
  });
  void it('agrees at the totals exactly, and past them', () => {
    assert.equal(missingByTotals(headers, 5, 10), undefined);
    assert.equal(missingByTotals(headers, 6, 11), undefined);
  });
  void it('names the pages missing one page short', () => {
    assert.match(missingByTotals(headers, 4, 10) ?? '', /announced 5 page\(s\) but the walk ended after 4/);
  });
  void it('names the rows missing one row short', () => {
    assert.match(missingByTotals(headers, 5, 9) ?? '', /announced 10 row\(s\) \(X-Pagination-Total-Results\) but the walk kept 9: 1 row\(s\) are missing/);
  });
  void it('reads TotalOrders over PageSize as the engagement service says them', () => {
    const facts = { TotalOrders: 7, PageSize: 3 };
    assert.equal(missingByTotals(facts, 3, 7), undefined);
    assert.match(missingByTotals(facts, 2, 6) ?? '', /announced 3 page/);
    assert.match(missingByTotals(facts, 3, 6) ?? '', /announced 7 row\(s\) \(TotalOrders\)/);
  });
});
