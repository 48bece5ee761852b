// Drives a paging strategy over HTTP. The order of each turn is the engine's safety rule:
//   send → parse → accept (pure) → WRITE the page to the sink → compute the next step (pure)
//   → record the checkpoint → onPage/progress → send the next request.
// Nothing is sent before the previous page is written, which the export-ordinal style requires (its
// last page cannot be fetched twice) and which makes every fault resumable: the checkpoint always
// names the first request whose page is not yet safely kept, so a resumed walk has no gap and no
// duplicate. The walker never throws for a fault: it returns an outcome, a message and a checkpoint.
// It also never claims more than it got: every walk ends with a verdict (complete, cut short,
// inconsistent, failed), and a server whose paging contradicts itself (totals that change, paging
// headers that vanish, a page or cursor served again, rows of the previous page repeated) stops the walk
// at once, before the doubtful page is kept. A next link or a resume to another origin is the one
// cross-origin rule's (src/core/secrets/crossOrigin.ts): it goes without anything that carries a
// credential, and says what it dropped; one from https to http, or other than a GET, is refused.
// Around each send, the wait turn (waitTurn.ts): a server's refusal that says when is waited out and the
// same request sent again (the position never moves on a refusal), a spent quota holds the next request,
// within one bound for the walk's waits; and the credentials hook renews a token before a request that
// would outlive it (never after a credential failure: a 401 is reported, not retried).
// "Written" and "kept": a page streamed to a sink that can hold pages (RowSink.openPage: the NDJSON
// file) is written in parts WHILE it arrives, as a plain client writes what it downloads, but past the
// bytes kept: only once the page is accepted and its last part written does it count (checkpoint, file
// length), and only then is the next request sent. A page that is not kept (refused, inconsistent, a
// fault, a stop) is cut off the file again before the walk returns. So the rule holds as it did: before
// a request is sent, every byte of the previous page has been handed to the operating system and any
// error of that write has failed that page; a crash mid-page leaves bytes past the checkpoint, which a
// resume cuts off (as it cuts a torn write). Each part passes the redacting sink first (its rows are
// redacted row by row), so a secret never reaches the file, not even in a page later refused.
import { createHash } from 'node:crypto';
import { setTimeout as sleepFor } from 'node:timers/promises';
import { recycleBlocks } from '../export/byteBlocks';
import type { HeldPage, RowSink } from '../export/sink';
import { httpClient, type HttpPort, type SendOptions } from '../http/client';
import { HttpFault, type HttpFaultKind, type HttpRequest, type HttpResponse } from '../http/types';
import { originOf } from '../http/url';
import { DEFAULT_MAX_WAIT_MS, QuotaBook, WaitBudget } from '../http/serverWaits';
import { fetchBuffered, fetchStreamed, type FetchedPage, type Send } from './pageFetch';
import { totalPagesOf } from './walkRate';
import { WaitTurn } from './waitTurn';
import { resumeHop, SECRET_HEADERS, withSecretsFrom, withoutSecrets, type PageFacts, type WalkCheckpoint } from './checkpoint';
import { droppedWords, hopTo } from '../secrets/crossOrigin';
import { checkResume } from './resumeCheck';
import { detectStyle, streamRowsOf } from './resolve';
import { createStrategy } from './strategies';
import type { Acceptance, Page, PagingPlan, PagingStrategy, RetryPolicy } from './types';
import type { Mutable } from '../mutable';

export type { Send } from './pageFetch';

export interface WalkProgress {
  readonly pages: number;
  readonly rows: number;
  readonly bytes: number;
  readonly elapsedMs: number;
  /** Rows written by this call per second of this call. */
  readonly rowsPerSecond: number;
  /** Pages kept by this call per second of this call (its waits included). */
  readonly pagesPerSecond: number;
  /** Pages of the whole walk, when the server says (X-Pagination-Total-Pages, TotalOrders / PageSize). */
  readonly totalPages?: number;
  /** Time left at this call's rate, when the total is known. */
  readonly timeLeftMs?: number;
  /** Waits on the server so far (refusals waited out, spent quotas) and their time. */
  readonly waits: number;
  readonly waitedMs: number;
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
  /** Header names kept out of checkpoints. Default: Authorization, X-API-Key, Cookie, Proxy-Authorization. */
  readonly secretHeaders?: readonly string[];
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
  /** 'resume': the checkpoint was refused (resumeCheck.ts); nothing was sent. 'auth': a token could not be renewed. */
  readonly kind: HttpFaultKind | 'http' | 'paging' | 'sink' | 'inconsistent' | 'resume' | 'auth';
  readonly message: string;
}

export interface WalkResult {
  readonly outcome: WalkOutcome;
  readonly verdict: WalkVerdict;
  /** In words: the verdict, why, and what is kept. Says nothing of how to resume: the caller knows its own command. */
  readonly message: string;
  readonly pages: number;
  readonly rows: number;
  readonly bytes: number;
  readonly elapsedMs: number;
  readonly rowsPerSecond: number;
  readonly pagesPerSecond: number;
  /** Waits on the server (refusals, spent quotas) of this call, and their time. */
  readonly waits: number;
  readonly waitedMs: number;
  readonly checkpoint: WalkCheckpoint;
  readonly failure?: WalkFailure;
  /** The page a resume starts with, when the walk can be resumed. */
  readonly resumeAt?: number;
  /** Why this walk cannot be resumed, when it is not complete and cannot. */
  readonly cannotResume?: string;
  /** Things done on the user's behalf: credentials dropped for another origin, a page size the server cut. */
  readonly notices: readonly string[];
}

const defaultSleep = (ms: number, signal?: AbortSignal): Promise<void> =>
  sleepFor(ms, undefined, { signal }).then(() => undefined);

function describeRequest(request: HttpRequest): string {
  const body = request.body ? ` with body ${request.body.length > 160 ? `${request.body.slice(0, 160)}…` : request.body}` : '';
  return `${request.method.toUpperCase()} ${request.url}${body}`;
}

/** What identifies a request's page: its method, URL and body. */
function requestIdentity(request: HttpRequest): string {
  return `${request.method.toUpperCase()} ${request.url}\n${request.body ?? ''}`;
}

/** A hash of a request's identity: kept in checkpoints, so never the request itself. */
function requestKey(request: HttpRequest): string {
  return createHash('sha256').update(requestIdentity(request)).digest('base64');
}

/** A sink that failed while rows were handed to it during the download. */
class SinkFault extends Error {
  constructor(cause: unknown) {
    super(cause instanceof Error ? cause.message : String(cause));
  }
}

/**
 * A page's rows as comparable text, for the overlap check between consecutive pages. A page of up to
 * WHOLE_PAGE_ROWS rows read whole compares every row; a larger one, or one streamed to the file, compares
 * its first and last BOUNDARY rows (a shifted offset repeats rows at the seam), so a 100 000-row page is
 * not held twice.
 */
interface PageRows {
  readonly all?: ReadonlySet<string>;
  readonly head: readonly string[];
  readonly tail: ReadonlySet<string>;
}

const BOUNDARY = 64;

/** Pages up to this many rows are compared row by row; larger ones by their boundary rows only (memory). */
const WHOLE_PAGE_ROWS = 10_000;

function wholeRows(rows: readonly unknown[]): PageRows {
  const text = (r: unknown): string | undefined => (r !== null && typeof r === 'object' ? JSON.stringify(r) : undefined);
  if (rows.length > WHOLE_PAGE_ROWS) {
    const edge = (part: readonly unknown[]): string[] => part.map(text).filter((t): t is string => t !== undefined);
    return { head: edge(rows.slice(0, BOUNDARY)), tail: new Set(edge(rows.slice(-BOUNDARY))) };
  }
  const texts = rows.map(text).filter((t): t is string => t !== undefined);
  return { all: new Set(texts), head: texts.slice(0, BOUNDARY), tail: new Set(texts.slice(-BOUNDARY)) };
}

/**
 * The first and last BOUNDARY rows of a streamed page, as its NDJSON goes by in order (in parts while
 * it is written as it arrives, then the rest): only those lines are copied, so the parts can be
 * written and reused at once. Lines are whole: every part ends with a line break.
 */
class PageEdges {
  private readonly head: Buffer[] = [];
  private headLines = 0;
  private tail: Buffer = Buffer.alloc(0);

  see(pieces: readonly Buffer[]): this {
    for (let i = 0; i < pieces.length && this.headLines < BOUNDARY; i++) {
      const piece = pieces[i]!;
      let end = piece.length;
      for (let at = piece.indexOf(10); at >= 0; at = piece.indexOf(10, at + 1)) {
        if (++this.headLines === BOUNDARY) {
          end = at + 1;
          break;
        }
      }
      this.head.push(Buffer.from(piece.subarray(0, end)));
    }
    if (pieces.length > 0) this.tail = lastLines([this.tail, ...pieces], BOUNDARY);
    return this;
  }

  rows(): PageRows {
    return { head: lines(Buffer.concat(this.head)).slice(0, BOUNDARY), tail: new Set(lines(this.tail).slice(-BOUNDARY)) };
  }
}

/** A copy of the last `count` lines of `pieces` (all of them when there are fewer). */
function lastLines(pieces: readonly Buffer[], count: number): Buffer {
  const taken: Buffer[] = [];
  let seen = 0;
  for (let i = pieces.length - 1; i >= 0 && seen <= count; i--) {
    const piece = pieces[i]!;
    let start = 0;
    // The line break that ends the line before the last `count` lines: the copy starts after it.
    for (let at = piece.lastIndexOf(10); at >= 0; at = at > 0 ? piece.lastIndexOf(10, at - 1) : -1) {
      if (++seen > count) {
        start = at + 1;
        break;
      }
    }
    taken.push(piece.subarray(start));
  }
  return Buffer.concat(taken.reverse());
}

/** Whole lines of a slice. */
function lines(bytes: Buffer): string[] {
  return bytes.toString('utf8').split('\n').filter(Boolean);
}

/** A page's fingerprint: its row count and boundary rows (two pages with the same one are the same page). */
function fingerprint(rowCount: number, rows: PageRows): string {
  return createHash('sha256').update(`${rowCount}\n${rows.head.join('\n')}\n${[...rows.tail].join('\n')}`).digest('base64');
}

/** How many rows of `now` were already on the page before. */
function overlap(before: PageRows, now: PageRows): number {
  if (before.all && now.all) {
    let repeated = 0;
    for (const key of now.all) if (before.all.has(key)) repeated++;
    return repeated;
  }
  return now.head.filter((key) => before.tail.has(key)).length;
}

/** Facts that must hold over the whole walk: one that vanished or changed, in words. */
function factsProblem(before: PageFacts | undefined, now: PageFacts, page: number): string | undefined {
  if (!before) return undefined;
  for (const [name, was] of Object.entries(before)) {
    const is = now[name];
    if (is === undefined) return `${name} was ${was} on the first page but is missing on page ${page}, so the end of the walk is no longer known`;
    if (is !== was) return `${name} changed from ${was} to ${is} on page ${page}`;
  }
  return undefined;
}

/** Walks every page from `request` (or from `options.resumeFrom`), writing rows to `options.sink`. */
export async function walk(request: HttpRequest, options: WalkOptions): Promise<WalkResult> {
  const http = options.http ?? httpClient;
  const send: Send = options.send ?? ((r, o) => http.send(r, o));
  const sleep = options.sleep ?? defaultSleep;
  const secretHeaders = options.secretHeaders ?? SECRET_HEADERS;
  // The secrets held and where each may go: checkpoints leave out what carries one, hops drop it.
  const guard = options.sendOptions?.guard;
  const bare = (r: HttpRequest): HttpRequest => withoutSecrets(r, secretHeaders, guard);
  const maxPages = options.maxPages ?? 10_000;
  const resume = options.resumeFrom;
  const started = performance.now();
  const notices: string[] = [];

  // The plan is the request's own (a checkpoint's is only compared with it: checkResume).
  let plan: PagingPlan | undefined = options.plan ?? resume?.plan;
  let strategy: PagingStrategy | undefined = plan ? createStrategy(plan.style, plan.options, options.retry) : undefined;
  let pages = resume?.pages ?? 0;
  let rows = resume?.rows ?? 0;
  let bytes = resume?.bytes ?? 0;
  let rowsThisCall = 0;
  let pagesThisCall = 0;
  let sent = 0;
  const budget = new WaitBudget(options.maxWaitMs ?? DEFAULT_MAX_WAIT_MS);
  let retriesInRow = 0;
  // Kept in checkpoints for those who read them; the cross-origin rule compares each hop's own origins.
  const origin = resume?.origin ?? originOf(request.url);
  // The checkpoint of the walk so far. Until a page is kept, the one the walk starts from, made when first
  // asked for (checkpointSoFar): a walk whose first page is kept never needs it. Pages, rows and bytes change
  // only where a page is kept, which sets `checkpoint`, so it says the same whenever it is made.
  let checkpoint: WalkCheckpoint | undefined = resume;
  const checkpointSoFar = (): WalkCheckpoint => (checkpoint ??= {
    version: 1, plan: plan ?? { style: 'none', options: {}, source: 'default' }, next: bare(request),
    pages, rows, bytes, done: false, origin,
  });
  // What the server's paging has said so far: requests whose page was kept, the last page's content.
  // (Made with its first key: a walk nothing continues keeps none.)
  let served: Set<string> | undefined = resume?.lastRequest ? new Set([resume.lastRequest]) : undefined;
  let lastHash = resume?.lastPageHash;
  let lastRows: PageRows | undefined;

  const progress = (waiting?: string): WalkProgress => {
    const elapsedMs = performance.now() - started;
    const pagesPerSecond = elapsedMs > 0 ? (pagesThisCall * 1000) / elapsedMs : 0;
    const now: Mutable<WalkProgress> = { pages, rows, bytes, elapsedMs, rowsPerSecond: elapsedMs > 0 ? (rowsThisCall * 1000) / elapsedMs : 0, pagesPerSecond, waits: budget.waits, waitedMs: budget.waitedMs };
    const totalPages = totalPagesOf(checkpoint?.facts);
    if (totalPages !== undefined) {
      now.totalPages = totalPages;
      if (pagesPerSecond > 0) now.timeLeftMs = (Math.max(0, totalPages - pages) * 1000) / pagesPerSecond;
    }
    if (waiting) now.waiting = waiting;
    return now;
  };
  const clock = options.now ?? Date.now;
  const turn = new WaitTurn({
    budget, quotas: options.quotas ?? new QuotaBook(), sleep, now: clock,
    waiting: (words) => options.onProgress?.(progress(words)),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const finish = (outcome: WalkOutcome, message: string, failure?: WalkFailure): WalkResult => {
    const p = progress();
    // A style whose lost page cannot be fetched again cannot resume after a fault; a cut (page limit, Stop) can go on.
    const lost = outcome === 'failed' ? strategy?.cannotResume : undefined;
    const checkpointNow = checkpointSoFar();
    const canResume = outcome !== 'complete' && outcome !== 'inconsistent' && checkpointNow.next !== undefined && !lost;
    const whyNot = outcome === 'complete' ? undefined
      : outcome === 'inconsistent' ? "the server's paging contradicted itself; resuming would ask it the same question again"
        : lost ?? (checkpointNow.next ? undefined : 'the walk has no next request to send');
    // Set one by one, not spread from conditional literals (every walk of a run ends here).
    const result: Mutable<WalkResult> = { outcome, verdict: verdictOf(outcome), message, pages, rows, bytes, elapsedMs: p.elapsedMs, rowsPerSecond: p.rowsPerSecond, pagesPerSecond: p.pagesPerSecond, waits: p.waits, waitedMs: p.waitedMs, checkpoint: checkpointNow, notices };
    if (failure) result.failure = failure;
    if (canResume) result.resumeAt = pages + 1;
    else if (whyNot) result.cannotResume = whyNot;
    return result;
  };
  const kept = (): string => `${pages} page(s), ${rows} row(s) written are kept`;
  const fail = (current: HttpRequest, kind: WalkFailure['kind'], reason: string): WalkResult => {
    const page = pages + 1;
    const target = { method: current.method.toUpperCase(), url: current.url, ...(current.body ? { body: current.body } : {}) };
    const where = kind === 'http' || kind === 'paging' || kind === 'inconsistent' ? `page ${page} (${describeRequest(current)}): ${reason}` : `page ${page}: ${reason}`;
    const outcome = kind === 'inconsistent' ? 'inconsistent' : 'failed';
    const verdict = outcome === 'inconsistent' ? 'inconsistent: the walk stopped at' : 'failed at';
    return finish(outcome, `${verdict} ${where}. ${kept()}.`, { page, request: target, kind, message: reason });
  };

  // A checkpoint may decide only where the walk stands (checkResume): refused before anything is sent.
  const resumed = resume ? checkResume(resume, request, options.plan, secretHeaders, options.resumeSource, guard) : undefined;
  if (resumed && !resumed.ok) {
    const words = `not resumed: the checkpoint ${resumed.reason}. Nothing was sent; the rows kept are as they were`;
    const { resumeAt: _never, cannotResume: _none, ...refused } = finish('failed', `${words}.`, { page: pages + 1, request: { method: request.method.toUpperCase(), url: request.url }, kind: 'resume', message: words });
    return refused;
  }
  // Credentials are put back from the fresh request, and go only where the cross-origin rule lets them.
  let current: HttpRequest = strategy?.prepare(request) ?? request;
  if (resumed?.ok) {
    const hop = resumeHop(resumed.request, request, secretHeaders, guard);
    if (!hop.ok) {
      // Resuming again would meet the same rule: not resumable.
      const { resumeAt: _again, ...refused } = fail(resumed.request, 'paging', hop.reason);
      return { ...refused, cannotResume: `its next request is refused: ${hop.reason}` };
    }
    if (hop.crossOrigin) notices.push(`the walk resumes on another origin (${originOf(hop.request.url)}) than the request's (${originOf(request.url)}): ${droppedWords(hop.dropped)}`);
    current = hop.request;
  }
  // A streamed page is written while it arrives, held past the bytes kept until it is accepted below.
  let held: HeldPage | undefined;

  // Every way out of the loop returns (a page that was not kept is cut off the file first); the
  // `finally` is for a throw (a strategy's bug, a caller's onPage) with a page still held: it goes too,
  // so the file stays the checkpoint's length and a resume goes on from there. Every return in the loop
  // awaits what it returns, so nothing of it is still running when the `finally` does.
  try {
    for (;;) {
      if (options.signal?.aborted) return finish('stopped', `cut short: stopped by the user before page ${pages + 1}. ${kept()}.`);
      if (sent >= maxPages) {
        return finish('max-pages', `cut short: stopped after ${sent} request(s) (the page limit of ${maxPages}), not at the end of the data. ${kept()}.`);
      }

      // The wait turn and the credentials hook, before anything of this request is sent or held.
      const before = await turn.beforeSend(current.url);
      if (before.kind === 'stopped') return finish('stopped', `cut short: stopped by the user while waiting before page ${pages + 1}. ${kept()}.`);
      if (before.kind === 'fail') return fail(current, 'http', before.reason);
      if (options.credentials) {
        const renewed = await options.credentials.beforeRequest((words) => options.onProgress?.(progress(words)), options.signal);
        if (options.signal?.aborted) return finish('stopped', `cut short: stopped by the user before page ${pages + 1}. ${kept()}.`);
        if (typeof renewed === 'string') return fail(current, 'auth', renewed);
        if (renewed) current = withSecretsFrom(current, renewed, secretHeaders, guard);
      }

      let fetched: FetchedPage;
      const sendOptions: Mutable<SendOptions> = { ...options.sendOptions };
      if (options.signal) sendOptions.signal = options.signal;
      const streamRows = options.streamRows !== false && !options.send && options.sink.writeNdjsonPage ? streamRowsOf(strategy, options.plan?.options) : undefined;
      const sink = options.sink;
      const asTheyArrive = options.rowsAsTheyArrive === true && maxPages === 1;
      held = streamRows && !asTheyArrive ? sink.openPage?.() : undefined;
      // The edge rows of a streamed page (made only for one).
      let edges: PageEdges | undefined;
      /** A page that is not kept: what it wrote while it arrived is cut off the file; why that failed, if it did. */
      const cutOff = async (): Promise<string | undefined> => {
        const page = held;
        held = undefined;
        try {
          await page?.drop();
          return undefined;
        } catch (error) {
          return `the rows of a page that was not kept could not be cut off the file (${error instanceof Error ? error.message : String(error)})`;
        }
      };
      /** `result`, once the page's rows are cut off; a walk whose file could not be cut back fails with that. */
      const unwrite = async (result: WalkResult): Promise<WalkResult> => {
        const problem = await cutOff();
        return problem ? fail(current, 'sink', `${problem}; ${result.message}`) : result;
      };
      // The last page of a walk nothing continues (see rowKeys below).
      let final = false;
      try {
        sent++;
        final = options.continuable === false && !resume && sent >= maxPages;
        // Nothing reads the rows' bytes of such a page (its only page) going to a sink that only counts them.
        const rowBytes = !(final && pages === 0 && sink.countsOnly === true && !held);
        const writeEarly = asTheyArrive && sink.writeNdjsonPage
          ? (ndjson: readonly Buffer[], n: number, keys: ReadonlySet<string>) => sink.writeNdjsonPage!(ndjson, n, keys)
          : held ? (ndjson: readonly Buffer[], n: number, keys: ReadonlySet<string>) => {
            // Its edge rows are copied before the parts are written and reused.
            (edges ??= new PageEdges()).see(ndjson);
            return held!.writeNdjson(ndjson, n, keys);
          } : undefined;
        const early = writeEarly
          ? (ndjson: readonly Buffer[], n: number, keys: ReadonlySet<string>) => writeEarly(ndjson, n, keys).catch((error: unknown) => { throw new SinkFault(error); })
          : undefined;
        // Rows handed over as they arrive are never held: the body-size limit (a memory guard) then does
        // not apply; the splitter still refuses a single value too large to hold.
        fetched = streamRows
          ? await fetchStreamed(http, current, asTheyArrive && early ? { ...sendOptions, maxBodyBytes: Number.POSITIVE_INFINITY } : sendOptions, streamRows, early, rowBytes)
          : await fetchBuffered(send, current, sendOptions);
      } catch (error) {
        if (error instanceof HttpFault && error.kind === 'aborted') {
          return await unwrite(finish('stopped', `cut short: stopped by the user during page ${pages + 1}. ${kept()}.`));
        }
        if (error instanceof SinkFault) return await unwrite(fail(current, 'sink', `the page could not be written (${error.message})`));
        const fault = error instanceof HttpFault ? error : undefined;
        return await unwrite(fail(current, fault?.kind ?? 'paging', fault?.message ?? (error instanceof Error ? error.message : String(error))));
      }

      const { response } = fetched;
      const receivedAt = clock();
      const waited = await turn.afterResponse(current.url, response, receivedAt);
      if (waited.kind !== 'go') {
        // A refusal is no page: what it wrote while it arrived goes, and it counts toward no page limit.
        const problem = await cutOff();
        if (problem) return fail(current, 'sink', problem);
        if (waited.kind === 'again') {
          sent--;
          continue;
        }
        if (waited.kind === 'stopped') return finish('stopped', `cut short: stopped by the user while waiting to send page ${pages + 1} again. ${kept()}.`);
        return fail(current, 'http', waited.reason);
      }
      if (response.status === 401 && options.credentials?.refused) {
        const words = await options.credentials.refused();
        if (words) return await unwrite(fail(current, 'http', `HTTP 401 Unauthorized: ${words}`));
      }
      if (!strategy || !plan) {
        plan = detectStyle(response, options.plan?.options, fetched.body.ok ? { body: fetched.body.value } : undefined);
        strategy = createStrategy(plan.style, plan.options, options.retry);
        checkpoint = { ...checkpointSoFar(), plan };
      }
      const page: Page = { request: current, response, body: fetched.body, receivedAt };
      const state = { pagesWritten: pages, rowsWritten: rows, retriesInRow };
      const acceptance: Acceptance = strategy.accept(page, state);

      if (acceptance.kind === 'retry') {
        const problem = await cutOff();
        if (problem) return fail(current, 'sink', problem);
        retriesInRow++;
        options.onProgress?.(progress(acceptance.reason));
        try {
          await sleep(acceptance.delayMs, options.signal);
        } catch {
          return finish('stopped', `cut short: stopped by the user while waiting to retry page ${pages + 1}. ${kept()}.`);
        }
        current = acceptance.request;
        continue;
      }
      if (acceptance.kind === 'fail') return await unwrite(fail(current, response.status >= 200 && response.status < 300 ? 'paging' : 'http', acceptance.reason));
      if (acceptance.kind === 'inconsistent') return await unwrite(fail(current, 'inconsistent', acceptance.reason));
      if (acceptance.kind === 'end') {
        // The end is known without this page's rows: anything it wrote while it arrived goes first.
        const problem = await cutOff();
        if (problem) return fail(current, 'sink', problem);
        checkpoint = { ...checkpointSoFar(), next: undefined, done: true, endReason: acceptance.reason };
        return finish('complete', `complete: ${acceptance.reason}. ${pages} page(s), ${rows} row(s).`);
      }

      // The server's paging must agree with itself before the page is kept.
      const streamed = fetched.streamed && acceptance.rows === fetched.streamed.placeholder ? fetched.streamed : undefined;
      const facts = strategy.facts?.(page);
      const changed = facts ? factsProblem(checkpoint?.facts, facts, pages + 1) : undefined;
      if (changed) return await unwrite(fail(current, 'inconsistent', changed));
      // The last page of a walk nothing continues is compared with what came before it, and needs no
      // hashes for what comes after: its own identity stands for the one request it has answered.
      const rowKeys = final && pages === 0 ? undefined : streamed ? (edges ??= new PageEdges()).see(streamed.ndjson).rows() : wholeRows(acceptance.rows);
      const hash = rowKeys && acceptance.rows.length > 0 ? fingerprint(acceptance.rows.length, rowKeys) : undefined;
      if (hash !== undefined && hash === lastHash) {
        return await unwrite(fail(current, 'inconsistent', `page ${pages + 1} holds exactly the rows of page ${pages}: the server ignored the page it was asked for`));
      }
      const repeated = lastRows && rowKeys ? overlap(lastRows, rowKeys) : 0;
      if (repeated > 0) return await unwrite(fail(current, 'inconsistent', `${repeated} row(s) of page ${pages + 1} were already on page ${pages}: the pages overlap`));

      // Persist first: nothing below may run (least of all a request) before the page is kept.
      try {
        if (streamed && held) {
          // The rest of the page after what it wrote while it arrived; then all of it counts as written.
          await held.writeNdjson(streamed.ndjson, streamed.rowCount - streamed.earlyRows, streamed.secretKeyCandidates);
          await held.keep();
          held = undefined;
          recycleBlocks(streamed.ndjson);
        } else if (streamed && sink.writeNdjsonPage) {
          await sink.writeNdjsonPage(streamed.ndjson, streamed.rowCount - streamed.earlyRows, streamed.secretKeyCandidates);
          // Written: the next page's rows go into the same memory.
          recycleBlocks(streamed.ndjson);
        } else {
          // Rows the strategy took from elsewhere than the streamed bytes: those bytes are not the page.
          const problem = await cutOff();
          if (problem) return fail(current, 'sink', problem);
          await sink.writePage(acceptance.rows);
        }
      } catch (error) {
        return await unwrite(fail(current, 'sink', `the page could not be written (${error instanceof Error ? error.message : String(error)})`));
      }
      pages++;
      pagesThisCall++;
      rows += acceptance.rows.length;
      rowsThisCall += acceptance.rows.length;
      bytes += response.sizeBytes;
      retriesInRow = 0;
      const currentKey = final ? undefined : requestKey(current);
      if (currentKey) (served ??= new Set()).add(currentKey);
      lastHash = hash;
      lastRows = rowKeys;

      let step = strategy.next(page, acceptance.rows, { pagesWritten: pages, rowsWritten: rows, retriesInRow: 0 });
      // (An empty set holds no key: the last page of a one-page walk hashes nothing.)
      const answered = (next: HttpRequest): boolean => (currentKey ? served!.has(requestKey(next)) : requestIdentity(next) === requestIdentity(current) || (served !== undefined && served.has(requestKey(next))));
      if (step.kind === 'continue' && !strategy.repeatsRequest && answered(step.request)) {
        step = { kind: 'inconsistent', reason: `the server's paging points back to a request already answered (${describeRequest(bare(step.request))}): a repeated cursor, page or offset` };
      }
      if (step.kind === 'continue') {
        const hop = hopTo(current, step.request, 'next link', guard);
        if (!hop.ok) {
          step = { kind: 'fail', reason: hop.reason };
        } else {
          if (hop.crossOrigin) notices.push(`page ${pages + 1} is on another origin (${originOf(hop.request.url)}) than page ${pages} (${originOf(current.url)}): ${droppedWords(hop.dropped)}`);
          step = { kind: 'continue', request: hop.request };
        }
      }
      const sinkState = sink.checkpoint();
      // Its fields set one by one in the order a resume file shows them (next and done last), not
      // spread from conditional literals: this runs for every page of every walk.
      const after = { version: 1, plan, pages, rows, bytes, origin } as Mutable<WalkCheckpoint>;
      if (currentKey) after.lastRequest = currentKey;
      if (hash) after.lastPageHash = hash;
      const firstFacts = checkpoint?.facts ?? facts;
      if (firstFacts) after.facts = firstFacts;
      if (sinkState) after.sink = sinkState;
      if (step.kind === 'continue') after.next = bare(step.request);
      after.done = step.kind === 'end';
      if (step.kind !== 'continue') after.endReason = step.reason;
      checkpoint = after;

      const now = progress();
      const told = options.onPage?.({ page: pages, request: current, response, rows: streamed ? [] : acceptance.rows, rowCount: acceptance.rows.length, rowsPath: acceptance.path, progress: now, checkpoint, body: fetched.body.ok ? fetched.body.value : undefined });
      if (told) await told;
      options.onProgress?.(now);

      if (step.kind === 'end') return finish('complete', `complete: ${step.reason}. ${pages} page(s), ${rows} row(s).`);
      if (step.kind === 'fail' || step.kind === 'inconsistent') {
        const outcome = step.kind === 'inconsistent' ? 'inconsistent' : 'failed';
        return finish(outcome, `${outcome}: after page ${pages} (${describeRequest(bare(current))}): ${step.reason}. ${kept()}.`,
          { page: pages + 1, request: { method: current.method, url: current.url }, kind: step.kind === 'inconsistent' ? 'inconsistent' : 'paging', message: step.reason });
      }
      current = step.request;
    }
  } finally {
    const page = held;
    held = undefined;
    if (page) await page.drop().catch(() => undefined);
  }
}
