// The paging state behind what the panel shows: the exchange's cursor (plan + checkpoint, no secrets in
// it; core/run/exchange.ts), and the rows fetched so far, so "All pages" can write them first and nothing
// fetched is lost.
import type { HistoryRecord } from '../../core/history';
import type { PagingCursor } from '../../core/run/exchange';
import { pagingStateOfCursor } from '../../core/results/pagingState';
import type { PagingState } from '../../protocol/webviewMessages';

export interface PagedSession {
  readonly responseId: string;
  /** The walk's state in core, its environment included (a continuation elsewhere is refused there). */
  cursor: PagingCursor;
  readonly uri: string;
  readonly requestIndex: number;
  readonly name: string;
  /**
   * Rows of the pages shown in the panel (not of "All pages" walks, which stream to a file), redacted.
   * Read them with shownRowsOf: the first page's are redacted when first needed, not before the panel's
   * first screen is posted.
   */
  readonly shownRows: unknown[];
  /** The first page's rows as received, until shownRowsOf redacts them into shownRows. */
  firstPage?: { readonly rows: readonly unknown[]; readonly redact: (row: unknown) => unknown };
  /** The first page is on disk (a large response): its rows are read from the panel's source, never held. */
  firstPageOnDisk?: boolean;
  /** Set while a walk runs; Stop aborts it. */
  abort?: AbortController;
  /** The file an interrupted "All pages" walk was writing, so the next one resumes into it. */
  exportFile?: string;
  /** What History keeps of the first page, so a walk of this response is recorded with it and its verdict. */
  historyRecord?: HistoryRecord;
}

export function shownRowsOf(session: PagedSession): unknown[] {
  const first = session.firstPage;
  if (first) {
    session.firstPage = undefined;
    // The first page comes first; a loop, not a spread (100 000 arguments overflow the stack).
    const later = session.shownRows.splice(0);
    for (const row of first.rows) session.shownRows.push(first.redact(row));
    for (const row of later) session.shownRows.push(row);
  }
  return session.shownRows;
}

export function pagingStateOf(session: PagedSession, walking: boolean): PagingState {
  return pagingStateOfCursor(session.cursor, walking);
}
