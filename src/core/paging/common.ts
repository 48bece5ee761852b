// What every style does with a page before its own rules: 429 waits for Retry-After (bounded), any
// other non-2xx fails the walk (a 400 is an error, never an end), malformed JSON fails the walk.
import { headerValue } from '../http/types';
import type { Acceptance, Page, RetryPolicy, WalkState } from './types';

/** Retry-After as ms: delta-seconds or an HTTP date (read against the time the page arrived). */
export function retryAfterMs(value: string | undefined, receivedAt: number): number | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - receivedAt);
}

export function statusLine(page: Page): string {
  const text = page.response.statusText ? ` ${page.response.statusText}` : '';
  return `HTTP ${page.response.status}${text}`;
}

/** A short, single-line excerpt of a body for error messages. */
export function excerpt(text: string, max = 200): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

export function rateLimitRetry(page: Page, state: WalkState, policy: RetryPolicy): Acceptance {
  const waitMs = retryAfterMs(headerValue(page.response.headers, 'retry-after'), page.receivedAt) ?? policy.retryDelayMs;
  if (state.retriesInRow >= policy.maxRetries) {
    return { kind: 'fail', reason: `HTTP 429 Too Many Requests ${state.retriesInRow + 1} times in a row; gave up after ${policy.maxRetries} retries` };
  }
  if (waitMs > policy.maxRetryDelayMs) {
    return { kind: 'fail', reason: `HTTP 429 Too Many Requests asks to wait ${Math.ceil(waitMs / 1000)} s, longer than the ${Math.ceil(policy.maxRetryDelayMs / 1000)} s this walk allows; resume later` };
  }
  return { kind: 'retry', request: page.request, delayMs: waitMs, reason: `HTTP 429: waiting ${Math.ceil(waitMs / 1000)} s as Retry-After asks` };
}

/**
 * The checks shared by all styles. Returns undefined when the page is a 2xx with a JSON body, so the
 * style's own rules apply; otherwise the verdict.
 */
export function commonAcceptance(page: Page, state: WalkState, policy: RetryPolicy): Acceptance | undefined {
  const { status } = page.response;
  if (status === 429) return rateLimitRetry(page, state, policy);
  if (status < 200 || status > 299) {
    const body = page.response.bodyText ? `: ${excerpt(page.response.bodyText)}` : '';
    return { kind: 'fail', reason: `${statusLine(page)}${body}` };
  }
  if (!page.body.ok) return { kind: 'fail', reason: `the body is not valid JSON (${page.body.error})` };
  return undefined;
}
