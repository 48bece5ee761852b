// The paging state behind what the panel shows: the exchange's cursor (plan + checkpoint, no secrets in
// it; core/run/exchange.ts), and the rows fetched so far, so "All pages" can write them first and nothing
// fetched is lost.
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
  /** Rows of the pages shown in the panel (not of "All pages" walks, which stream to a file). */
  readonly shownRows: unknown[];
  /** Set while a walk runs; Stop aborts it. */
  abort?: AbortController;
  /** The file an interrupted "All pages" walk was writing, so the next one resumes into it. */
  exportFile?: string;
}

export function pagingStateOf(session: PagedSession, walking: boolean): PagingState {
  return pagingStateOfCursor(session.cursor, walking);
}
