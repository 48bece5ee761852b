// The walker's wait turn: the server's requests to wait (../http/serverWaits.ts, the one rule) applied
// around each send. Before a request: the origin's spent quota is waited out. After a response: a refusal
// that says when is waited out and the SAME request goes again (the walk's position does not move, and
// the refusal is no page: it counts toward no page limit); one that does not say when fails the walk.
// Every wait is within the walk's budget, said while it lasts ("rate limited: waiting 12 s"), and ends
// early on Stop.
import { MAX_REFUSALS_IN_A_ROW, QuotaBook, refusalOf, waitingWords, WaitBudget } from '../http/serverWaits';
import type { HttpResponse } from '../http/types';

export type WaitOutcome =
  /** Go on: send (before), or judge the response (after). */
  | { readonly kind: 'go' }
  /** The response was a refusal, waited out: send the same request again. */
  | { readonly kind: 'again' }
  | { readonly kind: 'stopped' }
  | { readonly kind: 'fail'; readonly reason: string };

export interface WaitTurnOptions {
  readonly budget: WaitBudget;
  readonly quotas: QuotaBook;
  readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  readonly now: () => number;
  readonly signal?: AbortSignal;
  /** Told the words while a wait lasts. */
  readonly waiting: (words: string) => void;
}

const GO: WaitOutcome = { kind: 'go' };

export class WaitTurn {
  private refusalsInRow = 0;

  constructor(private readonly options: WaitTurnOptions) {}

  /** Before a request to `url`: its origin's quota, if spent, is waited out first. */
  async beforeSend(url: string): Promise<WaitOutcome> {
    const pause = this.options.quotas.pauseBefore(url, this.options.now());
    if (pause <= 0) return GO;
    const { budget } = this.options;
    if (!budget.take(pause)) return { kind: 'fail', reason: budget.beyond(pause, 'the server\'s announced quota (remaining 0)') };
    return this.wait(pause, waitingWords(pause, 'quota'));
  }

  /** After a response to `url`: notes its quota; a refusal is waited out ('again') or ends the walk ('fail'). */
  async afterResponse(url: string, response: HttpResponse, receivedAt: number): Promise<WaitOutcome> {
    const refusal = refusalOf(response, receivedAt);
    if (!refusal) {
      // A refusal's own wait covers its quota headers; an answer's hold the next request.
      this.options.quotas.note(url, response, receivedAt);
      this.refusalsInRow = 0;
      return GO;
    }
    if (refusal.kind === 'final') return { kind: 'fail', reason: refusal.reason };
    if (++this.refusalsInRow > MAX_REFUSALS_IN_A_ROW) {
      return { kind: 'fail', reason: `${refusal.words}: refused ${this.refusalsInRow} times in a row; gave up after waiting ${MAX_REFUSALS_IN_A_ROW} times` };
    }
    const { budget } = this.options;
    if (!budget.take(refusal.ms)) return { kind: 'fail', reason: budget.beyond(refusal.ms, refusal.words) };
    const waited = await this.wait(refusal.ms, waitingWords(refusal.ms, 'refused'));
    return waited.kind === 'go' ? { kind: 'again' } : waited;
  }

  private async wait(ms: number, words: string): Promise<WaitOutcome> {
    this.options.waiting(words);
    try {
      await this.options.sleep(ms, this.options.signal);
    } catch {
      return { kind: 'stopped' };
    }
    return this.options.signal?.aborted ? { kind: 'stopped' } : GO;
  }
}
