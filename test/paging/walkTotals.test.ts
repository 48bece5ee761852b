// A walk is complete only when what it kept agrees with the totals its server announced (walkRate.ts).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { missingByTotals } from '../../src/core/paging/walkRate';

void describe('missingByTotals', () => {
  const headers = { 'X-Pagination-Total-Pages': 5, 'X-Pagination-Total-Results': 10 };
  void it('says nothing when no total was announced', () => {
    assert.equal(missingByTotals(undefined, 1, 1, 0), undefined);
    assert.equal(missingByTotals({ 'X-Pagination-Per-Page': 2 }, 1, 1, 0), undefined);
  });
  void it('agrees at the totals exactly; one row more than announced is a contradiction', () => {
    assert.equal(missingByTotals(headers, 1, 5, 10), undefined);
    assert.match(missingByTotals(headers, 1, 6, 11) ?? '', /announced 10 row\(s\) \(X-Pagination-Total-Results\) but served 11: 1 more than it said there are/);
    assert.match(missingByTotals({ TotalOrders: 0, PageSize: 3 }, 1, 1, 3) ?? '', /announced 0 row\(s\) \(TotalOrders\) but served 3/);
    assert.equal(missingByTotals({ TotalOrders: 0, PageSize: 3 }, 1, 1, 0), undefined, 'an empty list: one empty page');
  });
  void it("reads the generic style's total= and totalPages= facts, named as the directive writes them", () => {
    assert.match(missingByTotals({ 'total=meta.count': 9 }, 1, 3, 6) ?? '', /announced 9 row\(s\) \(total=meta\.count\) but the walk kept 6/);
    assert.match(missingByTotals({ 'totalPages=pages': 3 }, 1, 2, 3) ?? '', /announced 3 page\(s\) but the walk ended after 2/);
    assert.equal(missingByTotals({ 'total=meta.count': 9, 'totalPages=pages': 3 }, 1, 3, 9), undefined);
  });
  void it('names the pages missing one page short', () => {
    assert.match(missingByTotals(headers, 1, 4, 10) ?? '', /announced 5 page\(s\) but the walk ended after 4/);
  });
  void it('names the rows missing one row short', () => {
    assert.match(missingByTotals(headers, 1, 5, 9) ?? '', /announced 10 row\(s\) \(X-Pagination-Total-Results\) but the walk kept 9: 1 row\(s\) are missing/);
  });
  void it('reads TotalOrders over PageSize as the engagement service says them', () => {
    const facts = { TotalOrders: 7, PageSize: 3 };
    assert.equal(missingByTotals(facts, 1, 3, 7), undefined);
    assert.match(missingByTotals(facts, 1, 2, 6) ?? '', /announced 3 page/);
    assert.match(missingByTotals(facts, 1, 3, 6) ?? '', /announced 7 row\(s\) \(TotalOrders\)/);
  });
  void it('judges a walk started past page 1 from its start: pages to the last, rows past full pages', () => {
    // From page 3 of 5 (2 rows a page): pages 3 to 5, rows 10 less the 4 on pages 1 and 2.
    const sized = { ...headers, 'X-Pagination-Per-Page': 2 };
    assert.equal(missingByTotals(sized, 3, 3, 6), undefined);
    assert.match(missingByTotals(sized, 3, 2, 4) ?? '', /announced 5 page\(s\) but the walk from page 3 ended after 2/);
    assert.match(missingByTotals(sized, 3, 3, 5) ?? '', /announced 6 row\(s\) from page 3 \(X-Pagination-Total-Results less the 4 on pages 1 to 2\).*1 row\(s\) are missing/);
    assert.match(missingByTotals({ TotalOrders: 7, PageSize: 3 }, 2, 2, 3) ?? '', /announced 4 row\(s\) from page 2/);
    assert.equal(missingByTotals({ TotalOrders: 7, PageSize: 3 }, 2, 2, 4), undefined);
  });
  void it('does not judge rows from a later page without a page size, nor a walk whose start is unknown', () => {
    assert.equal(missingByTotals(headers, 3, 3, 0), undefined);
    assert.equal(missingByTotals(headers, undefined, 1, 0), undefined);
    assert.equal(missingByTotals({ ...headers, 'X-Pagination-Per-Page': 2 }, 7, 0, 0), undefined);
  });
});
