// One turn of a walk, in the engine's order, which is its safety rule:
//   wait turn and credentials → send → parse → accept (pure) → the consistency checks → WRITE the page
//   to the sink → compute the next step (pure) → the origin rule for it → record the checkpoint
//   → onPage/progress.
// A turn returns what happened: the walk's result when it ends, undefined when the next turn may send.
// Nothing is sent before the previous page is written (pageWrite.ts), which the export-ordinal style
// requires (its last page cannot be fetched twice) and which makes every fault resumable: the checkpoint
// always names the first request whose page is not yet safely kept. A page that is not kept is cut off
// the file before the turn returns; every return awaits what it returns, so nothing of a turn still runs
// after it. A refusal the wait turn waits out (waitTurn.ts) is sent again and counts toward no limit.
import { HttpFault, type HttpRequest, type HttpResponse } from '../http/types';
import type { HttpPort, SendOptions } from '../http/client';
import type { SecretBindings } from '../secrets/bindings';
import type { Mutable } from '../mutable';
import { withSecretsFrom, type PageFacts, type WalkCheckpoint } from './checkpoint';
import { fetchBuffered, fetchStreamed, type FetchedPage, type Send } from './pageFetch';
import { describeRequest, factsProblem, pageSeen, PagingMemory, type PageSeen } from './pageChecks';
import { markHeldHead } from './notHeld';
import { PageWriting, SinkFault } from './pageWrite';
import { detectStyle, streamRowsOf } from './resolve';
import { createStrategy } from './strategies';
import type { Acceptance, Page, PagingStrategy, Step } from './types';
import type { StreamRows } from './rows';
import type { WaitTurn } from './waitTurn';
import type { WalkBook } from './walkBook';
import { nextLink } from './walkOrigins';
import type { WalkOptions, WalkResult } from './walkTypes';
import { faultText } from '../text/faultText';

/** What a walk's turns share, fixed for the walk. */
export interface WalkSetting {
  readonly options: WalkOptions;
  readonly http: HttpPort;
  readonly send: Send;
  readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** The secrets held and where each may go: checkpoints leave out what carries one, hops drop it. */
  readonly guard: SecretBindings | undefined;
  readonly bare: (r: HttpRequest) => HttpRequest;
  readonly maxPages: number;
  readonly resuming: boolean;
  readonly waits: WaitTurn;
  readonly clock: () => number;
}

type Accepted = Extract<Acceptance, { kind: 'rows' }>;

export class WalkTurns {
  private readonly writing: PageWriting;
  private readonly memory: PagingMemory;
  /** The last page of a walk nothing continues: it needs no hashes for what comes after. */
  private final = false;

  constructor(private readonly s: WalkSetting, private readonly book: WalkBook, private current: HttpRequest, resume: WalkCheckpoint | undefined) {
    this.writing = new PageWriting(s.options.sink);
    book.arrivedRows = () => this.writing.arrived;
    this.memory = new PagingMemory(resume);
  }

  /** One request and its page; the walk's result when it ends. */
  async take(): Promise<WalkResult | undefined> {
    const barred = this.stopBefore() ?? await this.beforeSend();
    if (barred) return barred;
    const fetched = await this.fetch();
    if ('outcome' in fetched) return fetched;
    const { response } = fetched;
    const receivedAt = this.s.clock();
    const waited = await this.afterResponse(response, receivedAt);
    if (waited !== 'go') return waited;
    const strategy = this.strategyFor(fetched);
    const page: Page = { request: this.current, response, body: fetched.body, receivedAt };
    const { book } = this;
    const acceptance = strategy.accept(page, { pagesWritten: book.pages, rowsWritten: book.rows, retriesInRow: book.retriesInRow });
    if (acceptance.kind !== 'rows') return this.notRows(acceptance, response);
    // The server's paging must agree with itself before the page is kept.
    const streamed = fetched.streamed && acceptance.rows === fetched.streamed.placeholder ? fetched.streamed : undefined;
    const facts = strategy.facts?.(page);
    const edges = streamed && !(this.final && book.pages === 0) ? this.writing.seeRest(streamed.ndjson) : undefined;
    const seen = this.final && book.pages === 0 ? {} : pageSeen(acceptance.rows, edges?.edges);
    const problem = this.contradiction(facts, seen);
    if (problem) return await this.unwrite(book.fail(this.current, 'inconsistent', problem));
    // Persist first: nothing below may run (least of all a request) before the page is kept.
    const unkept = await this.keep(acceptance.rows, streamed);
    if (unkept) return unkept;
    book.keep(acceptance.rows.length, response.sizeBytes);
    // The rows streamed past are not held; the first of them, seen as they passed, stand for what steps
    // compare (contract drift), marked as the only rows held (notHeld.ts).
    const head = edges?.whole ? edges.edges.headRows() : undefined;
    if (head) markHeldHead(acceptance.rows, head);
    const currentKey = this.memory.kept(this.final ? undefined : this.current, seen);
    const step = this.nextStep(strategy, page, acceptance.rows, currentKey);
    // A resumed walk keeps its first part's start (an older checkpoint has none: the walk is not judged by totals).
    const first = !this.s.resuming && book.pagesThisCall === 1 ? strategy.pageNumber?.(page) : undefined;
    this.record(step, currentKey, seen.hash, facts, first);
    await this.tell(fetched, acceptance, streamed !== undefined);
    return this.ending(step);
  }

  /** After a throw: a page still held is cut off the file. */
  dropAfterThrow(): Promise<void> {
    return this.writing.dropAfterThrow();
  }

  private stopBefore(): WalkResult | undefined {
    const { book, s } = this;
    if (s.options.signal?.aborted) return book.finish('stopped', `cut short: stopped by the user before page ${book.pages + 1}. ${book.kept()}.`);
    if (book.sent >= s.maxPages) {
      return book.finish('max-pages', `cut short: stopped after ${book.sent} request(s) (the page limit of ${s.maxPages}), not at the end of the data. ${book.kept()}.`);
    }
    return undefined;
  }

  /** The wait turn and the credentials hook, before anything of this request is sent or held. */
  private async beforeSend(): Promise<WalkResult | undefined> {
    const { book, s } = this;
    const before = await s.waits.beforeSend(this.current.url);
    if (before.kind === 'stopped') return book.finish('stopped', `cut short: stopped by the user while waiting before page ${book.pages + 1}. ${book.kept()}.`);
    if (before.kind === 'fail') return book.fail(this.current, 'http', before.reason);
    const credentials = s.options.credentials;
    if (!credentials) return undefined;
    const renewed = await credentials.beforeRequest((words) => s.options.onProgress?.(book.progress(words)), s.options.signal);
    if (s.options.signal?.aborted) return book.finish('stopped', `cut short: stopped by the user before page ${book.pages + 1}. ${book.kept()}.`);
    if (typeof renewed === 'string') return book.fail(this.current, 'auth', renewed);
    if (renewed) this.current = withSecretsFrom(this.current, renewed, s.guard);
    return undefined;
  }

  /** Sends the request and reads its page: streamed (and written while it arrives) where it can be, else whole. */
  private async fetch(): Promise<FetchedPage | WalkResult> {
    const { book, s } = this;
    const { options } = s;
    const sendOptions: Mutable<SendOptions> = { ...options.sendOptions };
    if (options.signal) sendOptions.signal = options.signal;
    const streamRows = this.streamRows();
    const asTheyArrive = options.rowsAsTheyArrive === true && s.maxPages === 1;
    this.writing.begin(streamRows !== undefined && !asTheyArrive);
    try {
      book.sent++;
      this.final = options.continuable === false && !s.resuming && book.sent >= s.maxPages;
      if (!streamRows) return await fetchBuffered(s.send, this.current, sendOptions);
      // Nothing reads the rows' bytes of such a page (its only page) going to a sink that only counts them.
      const rowBytes = !(this.final && book.pages === 0 && options.sink.countsOnly === true && !this.writing.holding);
      const early = this.writing.early(asTheyArrive);
      // Rows handed over as they arrive are never held: the body-size limit (a memory guard) then does
      // not apply; the splitter still refuses a single value too large to hold.
      const limits = asTheyArrive && early ? { ...sendOptions, maxBodyBytes: Number.POSITIVE_INFINITY } : sendOptions;
      return await fetchStreamed(s.http, this.current, limits, streamRows, early, rowBytes, this.writing.tentative(asTheyArrive), this.writing.longRow(asTheyArrive));
    } catch (error) {
      return await this.unwrite(this.fetchFault(error));
    }
  }

  /** Where the rows are, when they stream to the sink as NDJSON while the page arrives (flat memory on large pages). */
  private streamRows(): StreamRows | undefined {
    const { options } = this.s;
    return options.streamRows !== false && !options.send && options.sink.writeNdjsonPage ? streamRowsOf(this.book.strategy, options.plan?.options ?? options.detectOptions) : undefined;
  }

  private fetchFault(error: unknown): WalkResult {
    const { book } = this;
    if (error instanceof HttpFault && error.kind === 'aborted') return book.finish('stopped', `cut short: stopped by the user during page ${book.pages + 1}. ${book.kept()}.`);
    if (error instanceof SinkFault) return book.fail(this.current, 'sink', `the page could not be written (${error.message})`);
    const fault = error instanceof HttpFault ? error : undefined;
    return book.fail(this.current, fault?.kind ?? 'paging', fault?.message ?? (faultText(error)));
  }

  /** The wait turn after a response, and a 401 to credentials believed valid: 'go' when the response is a page. */
  private async afterResponse(response: HttpResponse, receivedAt: number): Promise<WalkResult | undefined | 'go'> {
    const { book, s } = this;
    const waited = await s.waits.afterResponse(this.current.url, response, receivedAt);
    if (waited.kind !== 'go') {
      // A refusal is no page: what it wrote while it arrived goes, and it counts toward no page limit.
      const problem = await this.writing.cutOff();
      if (problem) return book.fail(this.current, 'sink', problem);
      if (waited.kind === 'again') {
        book.sent--;
        return undefined;
      }
      if (waited.kind === 'stopped') return book.finish('stopped', `cut short: stopped by the user while waiting to send page ${book.pages + 1} again. ${book.kept()}.`);
      return book.fail(this.current, 'http', waited.reason);
    }
    if (response.status === 401 && s.options.credentials?.refused) {
      const words = await s.options.credentials.refused();
      if (words) return await this.unwrite(book.fail(this.current, 'http', `HTTP 401 Unauthorized: ${words}`));
    }
    return 'go';
  }

  /** The walk's strategy: its plan's, or the style detected from the first response. */
  private strategyFor(fetched: FetchedPage): PagingStrategy {
    const { book, s } = this;
    if (book.strategy && book.plan) return book.strategy;
    const plan = detectStyle(fetched.response, s.options.plan?.options ?? s.options.detectOptions, fetched.body.ok ? { body: fetched.body.value } : undefined);
    book.plan = plan;
    book.strategy = createStrategy(plan.style, plan.options, s.options.retry);
    book.checkpoint = { ...book.soFar(), plan };
    return book.strategy;
  }

  /** A response the strategy did not take as a page of rows: retried (after its delay), refused, or the end. */
  private async notRows(acceptance: Exclude<Acceptance, Accepted>, response: HttpResponse): Promise<WalkResult | undefined> {
    const { book, s } = this;
    switch (acceptance.kind) {
      case 'retry': {
        const problem = await this.writing.cutOff();
        if (problem) return book.fail(this.current, 'sink', problem);
        book.retriesInRow++;
        s.options.onProgress?.(book.progress(acceptance.reason));
        try {
          await s.sleep(acceptance.delayMs, s.options.signal);
        } catch {
          return book.finish('stopped', `cut short: stopped by the user while waiting to retry page ${book.pages + 1}. ${book.kept()}.`);
        }
        this.current = acceptance.request;
        return undefined;
      }
      case 'fail': return await this.unwrite(book.fail(this.current, response.status < 200 || response.status > 299 ? 'http' : acceptance.rowsRefused ? 'rows' : 'paging', acceptance.reason));
      case 'inconsistent': return await this.unwrite(book.fail(this.current, 'inconsistent', acceptance.reason));
      case 'end': {
        // The end is known without this page's rows: anything it wrote while it arrived goes first.
        const problem = await this.writing.cutOff();
        if (problem) return book.fail(this.current, 'sink', problem);
        book.checkpoint = { ...book.soFar(), next: undefined, done: true, endReason: acceptance.reason };
        return book.finish('complete', `complete: ${acceptance.reason}. ${book.pages} page(s), ${book.rows} row(s).`);
      }
    }
  }

  /** Where the page about to be kept contradicts the pages before it. */
  private contradiction(facts: PageFacts | undefined, seen: PageSeen): string | undefined {
    const page = this.book.pages + 1;
    return (facts ? factsProblem(this.book.checkpoint?.facts, facts, page) : undefined) ?? this.memory.repeats(page, seen);
  }

  private async keep(rows: readonly unknown[], streamed: FetchedPage['streamed']): Promise<WalkResult | undefined> {
    try {
      const problem = await this.writing.keep(rows, streamed);
      return problem ? this.book.fail(this.current, 'sink', problem) : undefined;
    } catch (error) {
      return await this.unwrite(this.book.fail(this.current, 'sink', `the page could not be written (${faultText(error)})`));
    }
  }

  /** The strategy's next step, refused when it asks again what was answered, and past the origin rule. */
  private nextStep(strategy: PagingStrategy, page: Page, rows: readonly unknown[], currentKey: string | undefined): Step {
    const { book } = this;
    const step = strategy.next(page, rows, { pagesWritten: book.pages, rowsWritten: book.rows, retriesInRow: 0 });
    if (step.kind !== 'continue') return step;
    if (!strategy.repeatsRequest && this.memory.answered(step.request, this.current, currentKey)) {
      return { kind: 'inconsistent', reason: `the server's paging points back to a request already answered (${describeRequest(this.s.bare(step.request))}): a repeated cursor, page or offset` };
    }
    const hop = nextLink(this.current, step.request, book.pages, this.s.guard);
    if (!hop.ok) return { kind: 'fail', reason: hop.reason };
    if (hop.notice) book.notices.push(hop.notice);
    return { kind: 'continue', request: hop.request };
  }

  /** The checkpoint after the page just kept. */
  private record(step: Step, currentKey: string | undefined, hash: string | undefined, facts: PageFacts | undefined, first: number | undefined): void {
    const { book } = this;
    const sinkState = this.s.options.sink.checkpoint();
    // Its fields set one by one in the order a resume file shows them (next and done last), not
    // spread from conditional literals: this runs for every page of every walk.
    const after = { version: 1, plan: book.plan, pages: book.pages, rows: book.rows, bytes: book.bytes, origin: book.origin } as Mutable<WalkCheckpoint>;
    if (currentKey) after.lastRequest = currentKey;
    if (hash) after.lastPageHash = hash;
    const firstFacts = book.checkpoint?.facts ?? facts;
    if (firstFacts) after.facts = firstFacts;
    const firstPage = book.checkpoint?.firstPage ?? first;
    if (firstPage !== undefined) after.firstPage = firstPage;
    if (sinkState) after.sink = sinkState;
    if (step.kind === 'continue') after.next = this.s.bare(step.request);
    after.done = step.kind === 'end';
    if (step.kind !== 'continue') after.endReason = step.reason;
    book.checkpoint = after;
  }

  /** Called after a page is written, before the next request; onPage is awaited (the panel renders there). */
  private async tell(fetched: FetchedPage, acceptance: Accepted, streamed: boolean): Promise<void> {
    const { book } = this;
    const { options } = this.s;
    const now = book.progress();
    const body = fetched.body.ok ? fetched.body.value : undefined;
    const told = options.onPage?.({
      page: book.pages, request: this.current, response: fetched.response, rows: streamed ? [] : acceptance.rows, rowCount: acceptance.rows.length,
      rowsPath: acceptance.path, progress: now, checkpoint: book.checkpoint!, body,
    });
    if (told) await told;
    options.onProgress?.(now);
  }

  /** The walk's end after a kept page, or undefined with the next request in place. */
  private ending(step: Step): WalkResult | undefined {
    const { book } = this;
    if (step.kind === 'end') return book.finish('complete', `complete: ${step.reason}. ${book.pages} page(s), ${book.rows} row(s).`);
    if (step.kind === 'continue') {
      this.current = step.request;
      return undefined;
    }
    const inconsistent = step.kind === 'inconsistent';
    const outcome = inconsistent ? 'inconsistent' : 'failed';
    return book.finish(outcome, `${outcome}: after page ${book.pages} (${describeRequest(this.s.bare(this.current))}): ${step.reason}. ${book.kept()}.`,
      { page: book.pages + 1, request: { method: this.current.method, url: this.current.url }, kind: inconsistent ? 'inconsistent' : 'paging', message: step.reason });
  }

  /** `result`, once the page's rows are cut off; a walk whose file could not be cut back fails with that. */
  private async unwrite(result: WalkResult): Promise<WalkResult> {
    const problem = await this.writing.cutOff();
    return problem ? this.book.fail(this.current, 'sink', `${problem}; ${result.message}`) : result;
  }
}
