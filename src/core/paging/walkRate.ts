// How many pages a walk has in all, when its server says so: the booking service's X-Pagination-Total-Pages
// (seed 002), or the engagement service's TotalOrders over the page size (GetOrdersByCustomer, seed 000
// §4.2). Read from the first page's facts (strategy.facts), which every later page must repeat; the
// walker's progress divides what is left by its rate for the time left. Other styles publish no total.
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
