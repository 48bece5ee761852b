// What the results panel says in words: the sentence its live region announces when a response or a page
// arrives ("200 OK, 100 rows, more pages"), and the paging bar's tail ("more pages", or why paging ended).
// One home, so the bar, the announcement and their tests agree. DOM-free.
import { formatRows } from './format';

/** The structural part of PagingState these sentences need. */
export interface PagingWords {
  readonly canContinue: boolean;
  readonly walking?: boolean;
  readonly endReason?: string;
}

/** "more pages", the reason paging ended ("last page reached"), or '' when neither is known. */
export function pagingTail(paging: PagingWords): string {
  return paging.endReason ?? (paging.canContinue ? 'more pages' : '');
}

export interface ResponseFacts {
  readonly status: number;
  readonly statusText: string;
  /** Rows of the table; undefined when the body has no table. */
  readonly rowCount?: number;
  readonly paging?: PagingWords;
  /** The body reports a failure although the HTTP status may be a success. */
  readonly businessFailure?: boolean;
  /** The auth explanation's title (a 401 or 403 explained). */
  readonly authProblem?: string;
}

/** The live region's sentence for a response that has just arrived. */
export function responseAnnouncement(facts: ResponseFacts): string {
  const parts = [`${facts.status} ${facts.statusText}`.trim()];
  if (facts.businessFailure) parts.push('business failure reported in the body');
  if (facts.authProblem) parts.push(facts.authProblem);
  if (facts.rowCount !== undefined) parts.push(formatRows(facts.rowCount));
  const tail = facts.paging ? pagingTail(facts.paging) : '';
  if (tail) parts.push(tail);
  return parts.join(', ');
}

/** The live region's sentence for a page appended by Next page. */
export function pageAnnouncement(pages: number, added: number, total: number, paging: PagingWords): string {
  const tail = pagingTail(paging);
  return [`Page ${pages}: ${formatRows(added)} added`, `${formatRows(total)} in all`, ...(tail ? [tail] : [])].join(', ');
}
