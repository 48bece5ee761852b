// How many pages and rows a walk has in all, when its server says so: the booking service's
// X-Pagination-Total-Pages and -Total-Results (seed 002), or the engagement service's TotalOrders over the
// page size (GetOrdersByCustomer, seed 000 §4.2). Read from the first page's facts (strategy.facts), which
// every later page must repeat; the walker's progress divides what is left by its rate for the time left,
// and a walk that ends with fewer pages or rows than announced is not complete (missingByTotals). Other
// styles publish no total.
import type { PageFacts } from './checkpoint';

export function totalPagesOf(facts: PageFacts | undefined): number | undefined {
  if (!facts) return undefined;
  const headerTotal = facts['X-Pagination-Total-Pages'];
  if (typeof headerTotal === 'number' && headerTotal >= 0) return headerTotal;
  const orders = facts['TotalOrders'];
  const size = facts['PageSize'];
  if (typeof orders === 'number' && typeof size === 'number' && orders >= 0 && size > 0) return Math.ceil(orders / size);
  return undefined;
}

/** The rows the server says the walk has in all, and the fact that says so. */
function totalRowsOf(facts: PageFacts): { rows: number; said: string } | undefined {
  for (const name of ['X-Pagination-Total-Results', 'TotalOrders']) {
    const total = facts[name];
    if (typeof total === 'number' && total >= 0) return { rows: total, said: name };
  }
  return undefined;
}

/**
 * Why a walk that ended with `pages` pages and `rows` rows kept misses some the server announced
 * (fewer pages than its total of pages, fewer rows than its total of rows), or undefined.
 */
export function missingByTotals(facts: PageFacts | undefined, pages: number, rows: number): string | undefined {
  if (!facts) return undefined;
  const totalPages = totalPagesOf(facts);
  if (totalPages !== undefined && pages < totalPages) {
    return `the server announced ${totalPages} page(s) but the walk ended after ${pages}: the rows of the pages after it are missing`;
  }
  const total = totalRowsOf(facts);
  if (total && rows < total.rows) return `the server announced ${total.rows} row(s) (${total.said}) but the walk kept ${rows}: ${total.rows - rows} row(s) are missing`;
  return undefined;
}
