// A walk's books: what it has kept (pages, rows, bytes, over the whole walk and this call), the checkpoint
// so far, its notices, and how it ends. An end is always a verdict with its words and what is kept
// (finish): only 'complete' is success, and only when what was kept agrees with the totals the server
// announced; a cut (page limit, Stop) and a failure say whether and where the walk can resume, and an
// inconsistent walk cannot (resuming would ask the server the same question).
import type { HttpRequest } from '../http/types';
import { originOf } from '../http/url';
import type { WaitBudget } from '../http/serverWaits';
import type { Mutable } from '../mutable';
import type { WalkCheckpoint } from './checkpoint';
import { describeRequest } from './pageChecks';
import type { PagingPlan, PagingStrategy } from './types';
import { missingByTotals, totalPagesOf } from './walkRate';
import { verdictOf, type WalkFailure, type WalkOutcome, type WalkProgress, type WalkResult } from './walkTypes';

export class WalkBook {
  pages: number;
  rows: number;
  bytes: number;
  rowsThisCall = 0;
  pagesThisCall = 0;
  /** Requests this call has sent (a refusal waited out does not count). */
  sent = 0;
  retriesInRow = 0;
  /** The plan is the request's own (a checkpoint's is only compared with it: checkResume). */
  plan: PagingPlan | undefined;
  strategy: PagingStrategy | undefined;
  /**
   * The checkpoint of the walk so far. Until a page is kept, the one the walk starts from, made when first
   * asked for (soFar): a walk whose first page is kept never needs it. Pages, rows and bytes change only
   * where a page is kept, which sets it, so it says the same whenever it is made.
   */
  checkpoint: WalkCheckpoint | undefined;
  /** Kept in checkpoints for those who read them; the cross-origin rule compares each hop's own origins. */
  readonly origin: string;
  readonly notices: string[] = [];
  /** Rows of the page being read written to the sink for good as they arrived (a one-page walk's), its page not kept. */
  arrivedRows: () => number = () => 0;
  private readonly started = performance.now();

  constructor(
    private readonly first: HttpRequest,
    resume: WalkCheckpoint | undefined,
    private readonly budget: WaitBudget,
    /** The request without its secrets, as a checkpoint holds it. */
    private readonly bare: (r: HttpRequest) => HttpRequest,
  ) {
    this.pages = resume?.pages ?? 0;
    this.rows = resume?.rows ?? 0;
    this.bytes = resume?.bytes ?? 0;
    this.origin = resume?.origin ?? originOf(first.url);
    this.checkpoint = resume;
  }

  soFar(): WalkCheckpoint {
    return (this.checkpoint ??= {
      version: 1, plan: this.plan ?? { style: 'none', options: {}, source: 'default' }, next: this.bare(this.first),
      pages: this.pages, rows: this.rows, bytes: this.bytes, done: false, origin: this.origin,
    });
  }

  /** Counts a kept page of `rowCount` rows and `sizeBytes` bytes. */
  keep(rowCount: number, sizeBytes: number): void {
    this.pages++;
    this.pagesThisCall++;
    this.rows += rowCount;
    this.rowsThisCall += rowCount;
    this.bytes += sizeBytes;
    this.retriesInRow = 0;
  }

  progress(waiting?: string): WalkProgress {
    const elapsedMs = performance.now() - this.started;
    const pagesPerSecond = elapsedMs > 0 ? (this.pagesThisCall * 1000) / elapsedMs : 0;
    const rowsPerSecond = elapsedMs > 0 ? (this.rowsThisCall * 1000) / elapsedMs : 0;
    const now: Mutable<WalkProgress> = { pages: this.pages, rows: this.rows, bytes: this.bytes, elapsedMs, rowsPerSecond, pagesPerSecond, waits: this.budget.waits, waitedMs: this.budget.waitedMs };
    const totalPages = totalPagesOf(this.checkpoint?.facts);
    if (totalPages !== undefined) {
      now.totalPages = totalPages;
      const before = (this.checkpoint?.firstPage ?? 1) - 1;
      if (pagesPerSecond > 0) now.timeLeftMs = (Math.max(0, totalPages - before - this.pages) * 1000) / pagesPerSecond;
    }
    if (waiting) now.waiting = waiting;
    return now;
  }

  kept(): string {
    const arrived = this.arrivedRows();
    const more = arrived > 0 ? `, and ${arrived} row(s) of page ${this.pages + 1} fully received, written as they arrived` : '';
    return `${this.pages} page(s), ${this.rows} row(s) written are kept${more}`;
  }

  finish(outcome: WalkOutcome, message: string, failure?: WalkFailure): WalkResult {
    // Complete only when what was kept agrees with the totals the server announced (walkRate.ts).
    const missing = outcome === 'complete' ? missingByTotals(this.checkpoint?.facts, this.checkpoint?.firstPage, this.pages, this.rows) : undefined;
    if (missing) return this.finish('inconsistent', `inconsistent: the walk ended, but ${missing}. ${this.kept()}.`, { page: this.pages + 1, request: { method: this.first.method.toUpperCase(), url: this.bare(this.first).url }, kind: 'inconsistent', message: missing });
    const p = this.progress();
    const checkpoint = this.soFar();
    // Set one by one, not spread from conditional literals (every walk of a run ends here).
    const result: Mutable<WalkResult> = {
      outcome, verdict: verdictOf(outcome), message, pages: this.pages, rows: this.rows, bytes: this.bytes, elapsedMs: p.elapsedMs,
      rowsPerSecond: p.rowsPerSecond, pagesPerSecond: p.pagesPerSecond, waits: p.waits, waitedMs: p.waitedMs, checkpoint, notices: this.notices,
    };
    if (failure) result.failure = failure;
    const arrived = this.arrivedRows();
    if (arrived > 0) result.arrivedRows = arrived;
    const whyNot = this.whyNotResumable(outcome, checkpoint);
    if (whyNot === undefined) {
      if (outcome !== 'complete') result.resumeAt = this.pages + 1;
    } else {
      result.cannotResume = whyNot;
    }
    return result;
  }

  /** Why a walk ending so cannot resume; undefined when it can (or is complete). */
  private whyNotResumable(outcome: WalkOutcome, checkpoint: WalkCheckpoint): string | undefined {
    if (outcome === 'complete') return undefined;
    if (outcome === 'inconsistent') return "the server's paging contradicted itself; resuming would ask it the same question again";
    // A style whose lost page cannot be fetched again cannot resume after a fault; a cut (page limit, Stop) can go on.
    const lost = outcome === 'failed' ? this.strategy?.cannotResume : undefined;
    return lost ?? (checkpoint.next ? undefined : 'the walk has no next request to send');
  }

  /** A walk that failed (or found the paging inconsistent) at the page `current` asks for. */
  fail(current: HttpRequest, kind: WalkFailure['kind'], reason: string): WalkResult {
    const page = this.pages + 1;
    const target = { method: current.method.toUpperCase(), url: current.url, ...(current.body ? { body: current.body } : {}) };
    const named = kind === 'http' || kind === 'paging' || kind === 'rows' || kind === 'inconsistent';
    const where = named ? `page ${page} (${describeRequest(current)}): ${reason}` : `page ${page}: ${reason}`;
    const outcome = kind === 'inconsistent' ? 'inconsistent' : 'failed';
    const verdict = outcome === 'inconsistent' ? 'inconsistent: the walk stopped at' : 'failed at';
    return this.finish(outcome, `${verdict} ${where}. ${this.kept()}.`, { page, request: target, kind, message: reason });
  }
}
