// Drives a paging strategy over HTTP. The order of each turn is the engine's safety rule:
//   send → parse → accept (pure) → WRITE the page to the sink → compute the next step (pure)
//   → record the checkpoint → onPage/progress → send the next request.
// Nothing is sent before the previous page is written, which the export-ordinal style requires (its
// last page cannot be fetched twice) and which makes every fault resumable: the checkpoint always
// names the first request whose page is not yet safely kept, so a resumed walk has no gap and no
// duplicate. The walker never throws for a fault: it returns an outcome, a message and a checkpoint.
import { setTimeout as sleepFor } from 'node:timers/promises';
import type { RowSink } from '../export/sink';
import { sendRequest, type SendOptions } from '../http/client';
import { HttpFault, type HttpFaultKind, type HttpRequest, type HttpResponse } from '../http/types';
import { fetchBuffered, fetchStreamed, type FetchedPage, type Send } from './pageFetch';
import { SECRET_HEADERS, withSecretsFrom, withoutSecrets, type WalkCheckpoint } from './checkpoint';
import { detectStyle } from './resolve';
import { createStrategy } from './strategies';
import type { Acceptance, Page, PagingPlan, PagingStrategy, RetryPolicy } from './types';

export type { Send } from './pageFetch';

export interface WalkProgress {
  readonly pages: number;
  readonly rows: number;
  readonly bytes: number;
  readonly elapsedMs: number;
  /** Rows written by this call per second of this call. */
  readonly rowsPerSecond: number;
  /** Set while waiting to retry (429 Retry-After, a transient extraction error). */
  readonly waiting?: string;
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
  readonly progress: WalkProgress;
}

export interface WalkOptions {
  readonly sink: RowSink;
  /** The style to follow; undefined = detect from the first response (see resolve.ts). */
  readonly plan?: PagingPlan;
  readonly resumeFrom?: WalkCheckpoint;
  readonly signal?: AbortSignal;
  /** Requests this call may send (retries included), a guard against endless walks. Default 10 000. */
  readonly maxPages?: number;
  readonly retry?: Partial<RetryPolicy>;
  readonly sendOptions?: Omit<SendOptions, 'signal'>;
  /** A transport for tests; when given, pages are always read whole (no streaming). */
  readonly send?: Send;
  /**
   * Stream rows straight to the sink as NDJSON while the page arrives, when the sink takes NDJSON
   * and the style knows where its rows are (flat memory on 100 000-row pages). Default true.
   */
  readonly streamRows?: boolean;
  /** Header names kept out of checkpoints. Default: Authorization, X-API-Key, Cookie, Proxy-Authorization. */
  readonly secretHeaders?: readonly string[];
  readonly onProgress?: (progress: WalkProgress) => void;
  /** Called after a page is written, before the next request; awaited (the panel renders here). */
  readonly onPage?: (event: PageEvent) => void | Promise<void>;
  readonly sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

export type WalkOutcome = 'complete' | 'stopped' | 'max-pages' | 'failed';

export interface WalkFailure {
  /** 1-based page of the walk that could not be kept. */
  readonly page: number;
  readonly request: { readonly method: string; readonly url: string; readonly body?: string };
  readonly kind: HttpFaultKind | 'http' | 'paging' | 'sink';
  readonly message: string;
}

export interface WalkResult {
  readonly outcome: WalkOutcome;
  /** In words: why the walk ended, stopped or failed, and what is kept. */
  readonly message: string;
  readonly pages: number;
  readonly rows: number;
  readonly bytes: number;
  readonly elapsedMs: number;
  readonly rowsPerSecond: number;
  readonly checkpoint: WalkCheckpoint;
  readonly failure?: WalkFailure;
}

const defaultSleep = (ms: number, signal?: AbortSignal): Promise<void> =>
  sleepFor(ms, undefined, { signal }).then(() => undefined);

function describeRequest(request: HttpRequest): string {
  const body = request.body ? ` with body ${request.body.length > 160 ? `${request.body.slice(0, 160)}…` : request.body}` : '';
  return `${request.method.toUpperCase()} ${request.url}${body}`;
}

/** Walks every page from `request` (or from `options.resumeFrom`), writing rows to `options.sink`. */
export async function walk(request: HttpRequest, options: WalkOptions): Promise<WalkResult> {
  const send = options.send ?? sendRequest;
  const sleep = options.sleep ?? defaultSleep;
  const secretHeaders = options.secretHeaders ?? SECRET_HEADERS;
  const maxPages = options.maxPages ?? 10_000;
  const resume = options.resumeFrom;
  const started = performance.now();

  let plan: PagingPlan | undefined = resume?.plan ?? options.plan;
  let strategy: PagingStrategy | undefined = plan ? createStrategy(plan.style, plan.options, options.retry) : undefined;
  let pages = resume?.pages ?? 0;
  let rows = resume?.rows ?? 0;
  let bytes = resume?.bytes ?? 0;
  let rowsThisCall = 0;
  let sent = 0;
  let retriesInRow = 0;
  let checkpoint: WalkCheckpoint = resume ?? {
    version: 1, plan: plan ?? { style: 'none', options: {}, source: 'default' }, next: withoutSecrets(request, secretHeaders),
    pages, rows, bytes, done: false,
  };

  const progress = (waiting?: string): WalkProgress => {
    const elapsedMs = performance.now() - started;
    return { pages, rows, bytes, elapsedMs, rowsPerSecond: elapsedMs > 0 ? (rowsThisCall * 1000) / elapsedMs : 0, ...(waiting ? { waiting } : {}) };
  };
  const finish = (outcome: WalkOutcome, message: string, failure?: WalkFailure): WalkResult => {
    const p = progress();
    return { outcome, message, pages, rows, bytes, elapsedMs: p.elapsedMs, rowsPerSecond: p.rowsPerSecond, checkpoint, ...(failure ? { failure } : {}) };
  };
  const kept = (): string => `${pages} page(s), ${rows} row(s) already written are kept`;
  const fail = (current: HttpRequest, kind: WalkFailure['kind'], reason: string): WalkResult => {
    const page = pages + 1;
    const target = { method: current.method.toUpperCase(), url: current.url, ...(current.body ? { body: current.body } : {}) };
    const where = kind === 'http' || kind === 'paging' ? `page ${page} (${describeRequest(current)}): ${reason}` : `page ${page}: ${reason}`;
    const resumable = checkpoint.next ? `; resume continues with page ${page}` : '';
    return finish('failed', `${where}. ${kept()}${resumable}.`, { page, request: target, kind, message: reason });
  };

  if (resume) {
    if (resume.done || !resume.next) return finish('complete', resume.endReason ?? 'the walk was already complete');
  }
  let current: HttpRequest = resume?.next ? withSecretsFrom(resume.next, request, secretHeaders) : (strategy?.prepare(request) ?? request);

  for (;;) {
    if (options.signal?.aborted) return finish('stopped', `stopped before page ${pages + 1}. ${kept()}; resume continues from there.`);
    if (sent >= maxPages) return finish('max-pages', `stopped after ${sent} request(s) (the max-pages guard). ${kept()}; resume continues from page ${pages + 1}.`);

    let fetched: FetchedPage;
    const sendOptions: SendOptions = { ...options.sendOptions, ...(options.signal ? { signal: options.signal } : {}) };
    const streamRows = options.streamRows !== false && !options.send && options.sink.writeNdjsonPage ? strategy?.streamRows : undefined;
    try {
      sent++;
      fetched = streamRows ? await fetchStreamed(current, sendOptions, streamRows.field) : await fetchBuffered(send, current, sendOptions);
    } catch (error) {
      if (error instanceof HttpFault && error.kind === 'aborted') {
        return finish('stopped', `stopped during page ${pages + 1}. ${kept()}; resume continues from there.`);
      }
      const fault = error instanceof HttpFault ? error : undefined;
      return fail(current, fault?.kind ?? 'paging', fault?.message ?? (error instanceof Error ? error.message : String(error)));
    }

    const { response } = fetched;
    if (!strategy || !plan) {
      plan = detectStyle(response, options.plan?.options);
      strategy = createStrategy(plan.style, plan.options, options.retry);
      checkpoint = { ...checkpoint, plan };
    }
    const page: Page = { request: current, response, body: fetched.body, receivedAt: Date.now() };
    const acceptance: Acceptance = strategy.accept(page, { pagesWritten: pages, rowsWritten: rows, retriesInRow });

    if (acceptance.kind === 'retry') {
      retriesInRow++;
      options.onProgress?.(progress(acceptance.reason));
      try {
        await sleep(acceptance.delayMs, options.signal);
      } catch {
        return finish('stopped', `stopped while waiting to retry page ${pages + 1}. ${kept()}; resume continues from there.`);
      }
      current = acceptance.request;
      continue;
    }
    if (acceptance.kind === 'fail') return fail(current, response.status >= 200 && response.status < 300 ? 'paging' : 'http', acceptance.reason);
    if (acceptance.kind === 'end') {
      checkpoint = { ...checkpoint, next: undefined, done: true, endReason: acceptance.reason };
      return finish('complete', `complete: ${acceptance.reason}. ${pages} page(s), ${rows} row(s).`);
    }

    // Persist first: nothing below may run (least of all a request) before the page is kept.
    const streamed = fetched.streamed && acceptance.rows === fetched.streamed.placeholder ? fetched.streamed : undefined;
    try {
      if (streamed && options.sink.writeNdjsonPage) await options.sink.writeNdjsonPage(streamed.ndjson, streamed.rowCount);
      else await options.sink.writePage(acceptance.rows);
    } catch (error) {
      return fail(current, 'sink', `the page could not be written (${error instanceof Error ? error.message : String(error)})`);
    }
    pages++;
    rows += acceptance.rows.length;
    rowsThisCall += acceptance.rows.length;
    bytes += response.sizeBytes;
    retriesInRow = 0;

    const step = strategy.next(page, acceptance.rows, { pagesWritten: pages, rowsWritten: rows, retriesInRow: 0 });
    const sink = options.sink.checkpoint();
    const base = { version: 1 as const, plan, pages, rows, bytes, ...(sink ? { sink } : {}) };
    if (step.kind === 'continue') checkpoint = { ...base, next: withoutSecrets(step.request, secretHeaders), done: false };
    else if (step.kind === 'end') checkpoint = { ...base, done: true, endReason: step.reason };
    else checkpoint = { ...base, done: false, endReason: step.reason };

    const now = progress();
    await options.onPage?.({ page: pages, request: current, response, rows: streamed ? [] : acceptance.rows, rowCount: acceptance.rows.length, progress: now });
    options.onProgress?.(now);

    if (step.kind === 'end') return finish('complete', `complete: ${step.reason}. ${pages} page(s), ${rows} row(s).`);
    if (step.kind === 'fail') {
      return finish('failed', `after page ${pages} (${describeRequest(current)}): ${step.reason}. ${kept()}; the walk cannot continue from here.`,
        { page: pages + 1, request: { method: current.method, url: current.url }, kind: 'paging', message: step.reason });
    }
    current = step.request;
  }
}
