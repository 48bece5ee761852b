// THE rule for waiting on a server that asks for it, asked by the walker's turn (every page) and so by a
// single Send (a walk of one page):
//   - a refusal (429 Too Many Requests, 503 Service Unavailable) that says when to come back
//     (Retry-After: delta-seconds or an HTTP date; or a quota header whose remaining is 0 and says when it
//     resets) is waited out, then the SAME request is sent again: a refusal never moves the position;
//   - a refusal that does not say when is not retried: sending again at a guess is what a rate limit is
//     there to stop;
//   - a response announcing its quota spent (RateLimit-Remaining / X-RateLimit-Remaining: 0, or the
//     structured RateLimit header's remaining) holds the next request to that origin until the reset;
//   - all waits of one walk together stay within a bound (--max-wait, apiWorkbench.maxWaitSeconds): a wait
//     beyond what is left of it is not begun, and the walk fails there, resumable.
// The fundraising contract states rate limiting as a convention of its list endpoints without its values
// or how a limited request is answered (seed 001 §1, §8); these are the headers servers commonly send.
import { headerValue, type HttpResponse } from './types';
import { originOf } from './url';

/** How long a walk (or a send) may wait in all, when nothing else is said: 5 minutes. */
export const DEFAULT_MAX_WAIT_MS = 300_000;

/** Refusals of one request in a row that are waited out before the walk gives up (a server that never lets it through). */
export const MAX_REFUSALS_IN_A_ROW = 10;

/** Retry-After as ms: delta-seconds or an HTTP date (read against the time the response arrived). */
export function retryAfterMs(value: string | undefined, receivedAt: number): number | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  // An HTTP date names a day of the week and a month: a bare number or other text is not one.
  if (!/[a-z]{3}/i.test(trimmed)) return undefined;
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - receivedAt);
}

/** The statuses that refuse a request for now rather than for good. */
export function isRefusal(status: number): boolean {
  return status === 429 || status === 503;
}

function refusalName(response: Pick<HttpResponse, 'status' | 'statusText'>): string {
  const text = response.statusText || (response.status === 429 ? 'Too Many Requests' : 'Service Unavailable');
  return `HTTP ${response.status} ${text}`;
}

/**
 * When the quota a response announces is spent (its remaining is 0): the epoch ms it resets at, else
 * undefined. A reset is delta-seconds (RateLimit-Reset, the IETF drafts), or epoch seconds when it is
 * larger than a year of seconds (X-RateLimit-Reset as GitHub and others send it). When several headers
 * say it, the earliest counts: a wait too short costs one refusal, which says how long to wait.
 */
export function quotaResetAt(response: Pick<HttpResponse, 'headers'>, receivedAt: number): number | undefined {
  const at: number[] = [];
  for (const prefix of ['ratelimit-', 'x-ratelimit-']) {
    const remaining = headerValue(response.headers, `${prefix}remaining`);
    if (remaining === undefined || Number(remaining.trim()) !== 0) continue;
    const reset = resetAt(headerValue(response.headers, `${prefix}reset`), receivedAt);
    if (reset !== undefined) at.push(reset);
  }
  // The structured field of the later drafts: `RateLimit: limit=100, remaining=0, reset=7` or `"default";r=0;t=7`.
  const structured = headerValue(response.headers, 'ratelimit');
  if (structured) {
    const remaining = /(?:^|[;,\s])(?:remaining|r)=(\d+)/.exec(structured)?.[1];
    const reset = /(?:^|[;,\s])(?:reset|t)=(\d+)/.exec(structured)?.[1];
    if (remaining !== undefined && Number(remaining) === 0 && reset !== undefined) at.push(receivedAt + Number(reset) * 1000);
  }
  return at.length > 0 ? Math.min(...at) : undefined;
}

const A_YEAR_OF_SECONDS = 365 * 24 * 3600;

function resetAt(value: string | undefined, receivedAt: number): number | undefined {
  const text = value?.trim();
  if (!text || !/^\d+(\.\d+)?$/.test(text)) return undefined;
  const n = Number(text);
  return n > A_YEAR_OF_SECONDS ? n * 1000 : receivedAt + n * 1000;
}

/** What a refusal asks: a wait (ms) and its words, or that it cannot be retried (it says not when). */
export type Refusal =
  | { readonly kind: 'wait'; readonly ms: number; readonly words: string }
  | { readonly kind: 'final'; readonly reason: string };

/** A 429 / 503 read: undefined when the response is not a refusal. */
export function refusalOf(response: Pick<HttpResponse, 'status' | 'statusText' | 'headers'>, receivedAt: number): Refusal | undefined {
  if (!isRefusal(response.status)) return undefined;
  const name = refusalName(response);
  const after = retryAfterMs(headerValue(response.headers, 'retry-after'), receivedAt);
  if (after !== undefined) return { kind: 'wait', ms: after, words: `${name}, Retry-After` };
  const reset = quotaResetAt(response, receivedAt);
  if (reset !== undefined) return { kind: 'wait', ms: Math.max(0, reset - receivedAt), words: `${name}, quota resets` };
  return { kind: 'final', reason: `${name} without Retry-After: not sent again at a guess (the server did not say when)` };
}

/** "rate limited: waiting 12 s" — the words every surface shows while a walk waits on the server. */
export function waitingWords(ms: number, why: 'refused' | 'quota'): string {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  return why === 'refused' ? `rate limited: waiting ${seconds} s` : `quota used up: waiting ${seconds} s`;
}

/**
 * Where each origin's announced quota stands: a response with remaining 0 holds the next request to its
 * origin until the reset. Shared by every walk and send of a run (or of an editor session), so the next
 * request waits even when it is another exchange's.
 */
export class QuotaBook {
  private readonly resets = new Map<string, number>();

  /** Reads a response's quota headers (any status). */
  note(url: string, response: Pick<HttpResponse, 'headers'>, receivedAt: number): void {
    const reset = quotaResetAt(response, receivedAt);
    if (reset === undefined) return;
    const origin = originOf(url);
    this.resets.set(origin, Math.max(reset, this.resets.get(origin) ?? 0));
  }

  /** How long a request to `url` must wait first (0: it may go); the caller waits it out, so it is said once. */
  pauseBefore(url: string, now: number): number {
    if (this.resets.size === 0) return 0;
    const origin = originOf(url);
    const reset = this.resets.get(origin);
    if (reset === undefined) return 0;
    this.resets.delete(origin);
    return Math.max(0, reset - now);
  }
}

/** The bound on one walk's waits: what is left of it, how often and how long it waited. */
export class WaitBudget {
  private spent = 0;
  private times = 0;

  constructor(readonly maxMs: number = DEFAULT_MAX_WAIT_MS) {}

  /** True when a wait of `ms` fits in what is left; counts it. */
  take(ms: number): boolean {
    if (this.spent + ms > this.maxMs) return false;
    this.spent += ms;
    this.times++;
    return true;
  }

  get waitedMs(): number {
    return this.spent;
  }

  get waits(): number {
    return this.times;
  }

  /** Why a wait of `ms` is not begun, in words. */
  beyond(ms: number, what: string): string {
    const left = Math.max(0, this.maxMs - this.spent);
    return `${what} asks to wait ${Math.ceil(ms / 1000)} s, beyond the ${Math.floor(left / 1000)} s left of the ${Math.floor(this.maxMs / 1000)} s of waiting allowed`;
  }
}
