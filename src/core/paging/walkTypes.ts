// What a walk takes and gives back: its options, its progress, each page's event and its result. The
// walk itself is walker.ts; what a verdict means is verdictOf's: only 'complete' is success.
import type { RowSink } from '../export/sink';
import type { HttpPort, SendOptions } from '../http/client';
import type { HttpFaultKind, HttpRequest, HttpResponse } from '../http/types';
import type { QuotaBook } from '../http/serverWaits';
import type { Send } from './pageFetch';
import type { WalkCheckpoint } from './checkpoint';
import type { PagingPlan, RetryPolicy } from './types';

/** What a walk has done so far (totals over the whole walk; rates and waits of this call). */
interface WalkFigures {
  readonly pages: number;
  readonly rows: number;
  readonly bytes: number;
  readonly elapsedMs: number;
  /** Rows written by this call per second of this call. */
  readonly rowsPerSecond: number;
  /** Pages kept by this call per second of this call (its waits included). */
  readonly pagesPerSecond: number;
  /** Waits on the server (refusals waited out, spent quotas) of this call, and their time. */
  readonly waits: number;
  readonly waitedMs: number;
}

export interface WalkProgress extends WalkFigures {
  /** Pages of the whole walk, when the server says (X-Pagination-Total-Pages, TotalOrders / PageSize). */
  readonly totalPages?: number;
  /** Time left at this call's rate, when the total is known. */
  readonly timeLeftMs?: number;
  /** Set while waiting (rate limited, a spent quota, a sign-in, a transient extraction error). */
  readonly waiting?: string;
}

/**
 * Asked before every request of a walk: fresh credentials when those it carries would not outlive the
 * request (a password-grant token renewed), never after a credential failure.
 */
export interface WalkCredentials {
  /**
   * Undefined: the credentials hold. A request: send with its credentials instead (same origin only).
   * A string: the walk cannot go on, and why (a sign-in refused, or not made).
   */
  beforeRequest(waiting: (words: string) => void, signal?: AbortSignal): Promise<HttpRequest | string | undefined>;
  /** Words for a 401 to credentials believed valid: reported, never retried. */
  refused?(): Promise<string | undefined>;
}

export interface PageEvent {
  /** 1-based page number over the whole walk. */
  readonly page: number;
  readonly request: HttpRequest;
  /** When the page was streamed to the sink, `bodyText` is '' (the body was never held whole). */
  readonly response: HttpResponse;
  /** The page's rows; empty when they were streamed straight to the sink (see rowCount). */
  readonly rows: readonly unknown[];
  readonly rowCount: number;
  /** Where the rows rule found the page's rows in its body ('$': a top-level array; rows.ts). */
  readonly rowsPath: string;
  readonly progress: WalkProgress;
  /** The checkpoint after this page (no secret in it): persist it to resume after a crash. */
  readonly checkpoint: WalkCheckpoint;
  /** The page's body as parsed; when its rows were streamed, they are a placeholder array of the right length. */
  readonly body: unknown;
}

export interface WalkOptions {
  readonly sink: RowSink;
  /** The style to follow; undefined = detect from the first response (see resolve.ts). */
  readonly plan?: PagingPlan;
  /** Without `plan`: the options the detected style takes (`# @paging auto items=…`). */
  readonly detectOptions?: Readonly<Record<string, string>>;
  readonly resumeFrom?: WalkCheckpoint;
  /**
   * Where `resumeFrom` comes from (resumeCheck.ts): 'read-back' (the default: a file, untrusted, held to
   * the request in every part but its position) or 'in-memory' (the panel's own cursor, made by this
   * process: held to the request's method, server and plan, so that a request whose dynamic values
   * ({{$guid}}) change with each preparation can still be paged).
   */
  readonly resumeSource?: 'read-back' | 'in-memory';
  readonly signal?: AbortSignal;
  /** Requests this call may send (retries included), a guard against endless walks. Default 10 000. */
  readonly maxPages?: number;
  readonly retry?: Partial<RetryPolicy>;
  readonly sendOptions?: Omit<SendOptions, 'signal'>;
  /** The HTTP port (send and stream). Default: the product's undici client. */
  readonly http?: HttpPort;
  /** A transport that answers whole bodies only (recorded responses in tests); pages are then read whole. */
  readonly send?: Send;
  /**
   * Stream rows straight to the sink as NDJSON while the page arrives, when the sink takes NDJSON
   * and the style knows where its rows are (flat memory on 100 000-row pages). Default true.
   */
  readonly streamRows?: boolean;
  /**
   * For a walk of ONE page (a single response, however large): streamed rows go to the sink in
   * batches as they arrive and count as written at once (a walk's pages are held until accepted
   * instead: RowSink.openPage), with no body-size limit, so memory stays flat. The strategy can
   * still refuse the page afterwards (broken JSON at the end): its first rows are then in the sink
   * already, and the walk's failure says so. Ignored unless maxPages is 1.
   */
  readonly rowsAsTheyArrive?: boolean;
  /**
   * False when nothing will continue this walk from its checkpoint (a CLI run of single requests): its
   * last page then carries no hashes of its request and rows for a continuation to compare with (the
   * checks within the walk are the same). Default true.
   */
  readonly continuable?: boolean;
  readonly onProgress?: (progress: WalkProgress) => void;
  /** Called after a page is written, before the next request; awaited (the panel renders here). */
  readonly onPage?: (event: PageEvent) => void | Promise<void>;
  readonly sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** All waits on the server of this call together (ms, ../http/serverWaits.ts). Default 5 minutes. */
  readonly maxWaitMs?: number;
  /** Where each origin's announced quota stands; shared by a run's walks and sends. Default: this walk's own. */
  readonly quotas?: QuotaBook;
  /** The wall clock the quota resets are read against (Date.now). */
  readonly now?: () => number;
  readonly credentials?: WalkCredentials;
}

export type WalkOutcome = 'complete' | 'stopped' | 'max-pages' | 'inconsistent' | 'failed';

/**
 * What a walk's result is worth. Only 'complete' means every row the server has was written;
 * 'cut-short' (max pages, stopped by the user) and 'failed' keep what was written and can usually
 * resume; 'inconsistent' means the server's paging contradicted itself and the rows cannot be trusted
 * to be all of them, nor to be free of duplicates past the point it stopped.
 */
export type WalkVerdict = 'complete' | 'cut-short' | 'inconsistent' | 'failed';

export function verdictOf(outcome: WalkOutcome): WalkVerdict {
  return outcome === 'stopped' || outcome === 'max-pages' ? 'cut-short' : outcome;
}

export interface WalkFailure {
  /** 1-based page of the walk that could not be kept. */
  readonly page: number;
  readonly request: { readonly method: string; readonly url: string; readonly body?: string };
  /**
   * 'resume': the checkpoint was refused (resumeCheck.ts); nothing was sent. 'auth': a token could not be
   * renewed. 'rows': a body that is JSON whose rows could not be taken as given (RowsRefusedError), never "shown as it came".
   */
  readonly kind: HttpFaultKind | 'http' | 'paging' | 'rows' | 'sink' | 'inconsistent' | 'resume' | 'auth';
  readonly message: string;
}

export interface WalkResult extends WalkFigures {
  readonly outcome: WalkOutcome;
  readonly verdict: WalkVerdict;
  /** In words: the verdict, why, and what is kept. Says nothing of how to resume: the caller knows its own command. */
  readonly message: string;
  readonly checkpoint: WalkCheckpoint;
  readonly failure?: WalkFailure;
  /** The page a resume starts with, when the walk can be resumed. */
  readonly resumeAt?: number;
  /** Why this walk cannot be resumed, when it is not complete and cannot. */
  readonly cannotResume?: string;
  /** Rows of a page not kept that are in the sink all the same: written as they arrived (rowsAsTheyArrive), fully received before the page failed. */
  readonly arrivedRows?: number;
  /** Things done on the user's behalf: credentials dropped for another origin, a page size the server cut. */
  readonly notices: readonly string[];
}
