// `--all-pages` for apiwb run: follows a request's pages with the shared paging engine (the same walker
// the panel uses) and hands each page's rows to the --out sink before the next page is asked for.
// Also counts the rows of a single response.
import type { HttpRequest, HttpResponse } from '../../core/http/types';
import type { PagingPlan } from '../../core/paging/types';
import { walk } from '../../core/paging/walker';
import type { RowSink } from '../../core/export/sink';

export interface WalkOptions {
  /** Where the rows go (the run's --out sink); without one, rows are counted and dropped. */
  readonly sink: RowSink | undefined;
  readonly maxPages?: number;
  readonly timeoutMs: number;
  readonly rejectUnauthorized: boolean;
  readonly onPage: (pages: number, rows: number) => void;
}

export interface WalkSummary {
  readonly pages: number;
  readonly rows: number;
  /** The whole walk's time, every page and retry included. */
  readonly elapsedMs: number;
  readonly lastResponse?: HttpResponse;
  /** Why the walk stopped before the end, in words; undefined when it reached the end. */
  readonly problem?: string;
}

/** Walks every page of `first` with `plan` (from pagingPlanFor; none = detect from the first response). */
export async function walkAllPages(first: HttpRequest, plan: PagingPlan | undefined, options: WalkOptions): Promise<WalkSummary> {
  let lastResponse: HttpResponse | undefined;
  const started = performance.now();
  const result = await walk(first, {
    // The walker never closes its sink: the --out file stays open for the next request of the run.
    sink: options.sink ?? DISCARD,
    ...(plan ? { plan } : {}),
    ...(options.maxPages ? { maxPages: options.maxPages } : {}),
    sendOptions: { timeoutMs: options.timeoutMs, rejectUnauthorized: options.rejectUnauthorized },
    onPage: (event) => {
      lastResponse = event.response;
      options.onPage(event.progress.pages, event.progress.rows);
    },
  });
  const ended = result.outcome === 'complete' || (result.outcome === 'max-pages' && options.maxPages !== undefined);
  return {
    pages: result.pages,
    rows: result.rows,
    elapsedMs: performance.now() - started,
    ...(lastResponse ? { lastResponse } : {}),
    ...(ended ? {} : { problem: result.message }),
  };
}

/** No --out: the rows are counted by the walk and dropped. */
const DISCARD: RowSink = { format: 'memory', writePage: () => Promise.resolve(), checkpoint: () => undefined, close: () => Promise.resolve() };

/** Business-error lists (seed 000 §7.2) are not result rows. */
const ERROR_LISTS = new Set(['Errors', 'errors', 'Error']);

/** Rows of one response: a top-level array, else the first array property (Orders, value, _Leads, ...). */
export function rowsOf(bodyText: string): readonly unknown[] {
  try {
    const body: unknown = JSON.parse(bodyText);
    if (Array.isArray(body)) return body;
    if (body !== null && typeof body === 'object') {
      for (const [key, value] of Object.entries(body)) if (Array.isArray(value) && !ERROR_LISTS.has(key)) return value;
    }
  } catch {
    // not JSON: no rows
  }
  return [];
}

/** Rows of a response that has a collection; undefined for a body without one (e.g. a PostOutput). */
export function countRows(bodyText: string): number | undefined {
  let body: unknown;
  try {
    body = JSON.parse(bodyText);
  } catch {
    return undefined;
  }
  if (Array.isArray(body)) return body.length;
  if (body === null || typeof body !== 'object') return undefined;
  const hasCollection = Object.entries(body).some(([key, value]) => Array.isArray(value) && !ERROR_LISTS.has(key));
  return hasCollection ? rowsOf(bodyText).length : undefined;
}
