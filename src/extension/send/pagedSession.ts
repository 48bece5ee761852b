// The paging state behind what the panel shows: the plan, the walker's checkpoint (no secrets in it),
// and the rows fetched so far, so "All pages" can write them first and nothing fetched is lost.
import type { HttpRequest } from '../../core/http/types';
import type { WalkCheckpoint } from '../../core/paging';
import { pagingState } from '../../core/results/pagingState';
import type { PagingState } from '../../protocol/webviewMessages';

export interface PagedSession {
  readonly responseId: string;
  /** The first request without its credentials; a continuation must match its method and origin. */
  readonly first: HttpRequest;
  /** The environment it was sent in: a continuation in another environment is refused. */
  readonly environment: string;
  readonly uri: string;
  readonly requestIndex: number;
  readonly name: string;
  checkpoint: WalkCheckpoint;
  /** Rows of the pages shown in the panel (not of "All pages" walks, which stream to a file). */
  readonly shownRows: unknown[];
  /** Set while a walk runs; Stop aborts it. */
  abort?: AbortController;
  /** The file an interrupted "All pages" walk was writing, so the next one resumes into it. */
  exportFile?: string;
}

export function pagingStateOf(session: PagedSession, walking: boolean): PagingState {
  const { plan, pages, rows, done, next, endReason } = session.checkpoint;
  return pagingState({ style: plan.style, pages, rows, canContinue: !done && next !== undefined, walking, ...(endReason ? { endReason } : {}) });
}
