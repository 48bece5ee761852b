// The vocabulary of the paging engine. A strategy is a set of PURE functions over one page: it never
// sends, sleeps or writes; the walker does those, in an order that keeps every fetched page safe.
import type { PagingStyleId } from '../catalog/model';
import type { HttpRequest, HttpResponse } from '../http/types';
import type { PagingLoop } from './loop';
import type { StreamRows } from './rows';

/** A style plus its `key=value` options (from a `# @paging` directive or from detection). */
export interface PagingPlan {
  readonly style: PagingStyleId;
  readonly options: Readonly<Record<string, string>>;
  /** Where the plan came from, for the UI: 'directive', 'catalog', 'detected' or 'default'. */
  readonly source: 'directive' | 'catalog' | 'detected' | 'default';
}

/** The parsed body of a page; a 200 can still carry malformed JSON (a fault the sandbox injects). */
/** A body not taken: not JSON, or (`json`) JSON whose rows cannot be told (a rows field given twice). */
export type ParsedBody = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly error: string; readonly json?: true };

/** One exchange as the strategy sees it. */
export interface Page {
  readonly request: HttpRequest;
  readonly response: HttpResponse;
  readonly body: ParsedBody;
  /** Epoch ms when the response was complete; lets Retry-After dates be read without a clock. */
  readonly receivedAt: number;
}

/** Counts before the page being judged. */
export interface WalkState {
  readonly pagesWritten: number;
  readonly rowsWritten: number;
  /** Retries already made for the request that produced this page (0 on a first attempt). */
  readonly retriesInRow: number;
}

/** What a page is worth, decided BEFORE anything is written. */
export type Acceptance =
  /** The page's rows and where the rows rule (rows.ts) found them ('$' for a top-level array). */
  | { readonly kind: 'rows'; readonly rows: readonly unknown[]; readonly path: string }
  /** A valid page that ends the walk and carries no rows (e.g. 200 + Response=false out of range). */
  | { readonly kind: 'end'; readonly reason: string }
  /** Send `request` again after `delayMs` (429 + Retry-After, a transient extraction error). */
  | { readonly kind: 'retry'; readonly request: HttpRequest; readonly delayMs: number; readonly reason: string }
  /** `rowsRefused`: the body is JSON, but its rows cannot be taken as given (said in `reason`). */
  | { readonly kind: 'fail'; readonly reason: string; readonly rowsRefused?: true }
  /** The server's paging contradicts itself (it served another page than the one asked for). */
  | { readonly kind: 'inconsistent'; readonly reason: string };

/** What to do AFTER the page's rows are safely written. */
export type Step =
  | { readonly kind: 'continue'; readonly request: HttpRequest }
  | { readonly kind: 'end'; readonly reason: string }
  | { readonly kind: 'fail'; readonly reason: string }
  | { readonly kind: 'inconsistent'; readonly reason: string };

export interface PagingStrategy {
  readonly style: PagingStyleId;
  /**
   * Where the rows are, when that is known before the body arrives: a top-level field, or the
   * top-level array itself (`field` undefined). Lets the walker stream rows straight to an NDJSON sink.
   */
  readonly streamRows?: StreamRows;
  /** True when the next request is deliberately the same call again (stateful extraction). */
  readonly repeatsRequest?: boolean;
  /**
   * Where this style keeps its place in a request (query parameters, top-level body fields, or the whole
   * URL for a next link): the only parts of a request a checkpoint read back may decide (resumeCheck.ts).
   * Absent: the style keeps no place in the request (the server does, or there is one page).
   */
  position?(request: HttpRequest): RequestPosition;
  /** Why a walk of this style cannot be resumed after a fault, when it cannot. */
  readonly cannotResume?: string;
  /** The style as data, for the generated paging loops (src/core/codegen/paging/); absent for generic and none. */
  readonly loop?: PagingLoop;
  /**
   * Facts of a page that must hold over the whole walk (totals, the page size): the walker compares
   * every page's with the first page's, and one that vanishes or changes stops the walk as inconsistent.
   */
  facts?(page: Page): Readonly<Record<string, string | number>>;
  /** The number of the page `page` is, for styles that number pages (the server's word, else the request's, else 1). */
  pageNumber?(page: Page): number | undefined;
  /** Fills defaults the contract states for the first call (e.g. OFFSET 1); pure. */
  prepare(first: HttpRequest): HttpRequest;
  accept(page: Page, state: WalkState): Acceptance;
  next(page: Page, rows: readonly unknown[], state: WalkState): Step;
}

/** The parts of a request where a paging style keeps its place. */
export interface RequestPosition {
  readonly query?: readonly string[];
  readonly body?: readonly string[];
  /** A next link: the URL itself (on the walk's own origin) is the place. */
  readonly url?: boolean;
  /**
   * A place that follows from the walk's counts: `field` (one of the above) is its value in the first
   * request (else `start`) plus the rows kept (an offset) or the pages kept (a page number, an ordinal).
   * A checkpoint read back must ask for that value and no other (resumeCheck.ts).
   */
  readonly counted?: { readonly field: string; readonly by: 'rows' | 'pages'; readonly start: number };
}

/** Bounds on the retries a strategy may ask for. */
export interface RetryPolicy {
  /** Consecutive retries of one request before the walk fails. Default 3. */
  readonly maxRetries: number;
  /** Longest Retry-After honoured (ms); a longer one fails the walk with the wait in the message. */
  readonly maxRetryDelayMs: number;
  /** Pause before retrying a transient extraction error (ms). */
  readonly retryDelayMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxRetries: 3, maxRetryDelayMs: 60_000, retryDelayMs: 250 };
