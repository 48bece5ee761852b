// How many pages and rows a walk has in all, when its server says so: the booking service's
// X-Pagination-Total-Pages and -Total-Results (seed 002), the engagement service's TotalOrders over the
// page size (GetOrdersByCustomer, seed 000 §4.2), or the fields the generic style's total= and totalPages=
// name (facts `total=PATH`, `totalPages=PATH`). Read from the first page's facts (strategy.facts), which
// every later page must repeat; the walker's progress divides what is left by its rate for the time left,
// and a walk that ends with fewer pages or rows than announced, or more rows, is not complete: the server's
// paging contradicted itself (missingByTotals, which every walk's end passes: walkBook.finish). The
// totals are the whole list's: a walk started at page N (its first kept page's number, the checkpoint's
// firstPage, kept across resumes as its pages and rows are) can get pages N to the last, and rows only
// where that count is exact: a fixed page size (X-Pagination-Per-Page, PageSize) with pages 1 to N-1 full.
// A walk whose start is unknown (a resume from an older checkpoint) is not judged. Other styles publish no
// total.
import type { PageFacts } from './checkpoint';

/** The fact `names` gives first, else one named `option=PATH` (the generic style's), as a count. */
function announcedAs(facts: PageFacts, names: readonly string[], option: string): { value: number; said: string } | undefined {
  const said = names.find((name) => facts[name] !== undefined) ?? Object.keys(facts).find((name) => name.startsWith(`${option}=`));
  const value = said === undefined ? undefined : facts[said];
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? { value, said: said! } : undefined;
}

export function totalPagesOf(facts: PageFacts | undefined): number | undefined {
  if (!facts) return undefined;
  const pages = announcedAs(facts, ['X-Pagination-Total-Pages'], 'totalPages');
  if (pages) return pages.value;
  const orders = facts['TotalOrders'];
  const size = facts['PageSize'];
  if (typeof orders === 'number' && typeof size === 'number' && orders >= 0 && size > 0) return Math.ceil(orders / size);
  return undefined;
}

/** The rows the server says the list has in all, and the fact that says so. */
function totalRowsOf(facts: PageFacts): { rows: number; said: string } | undefined {
  const total = announcedAs(facts, ['X-Pagination-Total-Results', 'TotalOrders'], 'total');
  return total && { rows: total.value, said: total.said };
}

/** The fixed page size the server announced, when it did. */
function pageSizeOf(facts: PageFacts): number | undefined {
  for (const name of ['X-Pagination-Per-Page', 'PageSize']) {
    const size = facts[name];
    if (typeof size === 'number' && size > 0) return size;
  }
  return undefined;
}

/** The rows of the list from page `firstPage` on, when exactly known: every row at page 1; after it, a fixed size and full pages before. */
function rowsFrom(facts: PageFacts, firstPage: number): { rows: number; said: string } | undefined {
  const total = totalRowsOf(facts);
  if (!total || firstPage === 1) return total;
  const size = pageSizeOf(facts);
  const before = size === undefined ? undefined : (firstPage - 1) * size;
  if (before === undefined || before > total.rows) return undefined;
  return { rows: total.rows - before, said: `${total.said} less the ${before} on pages 1 to ${firstPage - 1}` };
}

/**
 * Why a walk that started at page `firstPage` and ended with `pages` pages and `rows` rows kept (every
 * resumed part included) disagrees with what the server announced from there: fewer pages than from its
 * start to the last, fewer rows than the rows from its start (rowsFrom), or more. Undefined when they
 * agree or the start is unknown.
 */
export function missingByTotals(facts: PageFacts | undefined, firstPage: number | undefined, pages: number, rows: number): string | undefined {
  if (!facts || firstPage === undefined || !Number.isInteger(firstPage) || firstPage < 1) return undefined;
  const totalPages = totalPagesOf(facts);
  const from = firstPage === 1 ? '' : ` from page ${firstPage}`;
  if (totalPages !== undefined && pages < totalPages - firstPage + 1) {
    return `the server announced ${totalPages} page(s) but the walk${from} ended after ${pages}: the rows of the pages after it are missing`;
  }
  const total = rowsFrom(facts, firstPage);
  if (total && rows < total.rows) return `the server announced ${total.rows} row(s)${from} (${total.said}) but the walk kept ${rows}: ${total.rows - rows} row(s) are missing`;
  if (total && rows > total.rows) return `the server announced ${total.rows} row(s)${from} (${total.said}) but served ${rows}: ${rows - total.rows} more than it said there are`;
  return undefined;
}
