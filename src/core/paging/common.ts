// What every style does with a page before its own rules: any non-2xx fails the walk (a 400 is an
// error, never an end), malformed JSON fails the walk. A refusal that says when to come back (429 / 503
// with Retry-After, a spent quota) never reaches a strategy: the walker's wait turn waits it out and sends
// the same request again (../http/serverWaits.ts).
import { excerpt } from '../text/excerpt';
import type { Acceptance, Page, RetryPolicy, WalkState } from './types';

export function statusLine(page: Page): string {
  const text = page.response.statusText ? ` ${page.response.statusText}` : '';
  return `HTTP ${page.response.status}${text}`;
}

/**
 * The checks shared by all styles. Returns undefined when the page is a 2xx with a JSON body, so the
 * style's own rules apply; otherwise the verdict.
 */
export function commonAcceptance(page: Page, _state: WalkState, _policy: RetryPolicy): Acceptance | undefined {
  const { status } = page.response;
  if (status < 200 || status > 299) {
    const body = page.response.bodyText ? `: ${excerpt(page.response.bodyText, 200)}` : '';
    return { kind: 'fail', reason: `${statusLine(page)}${body}` };
  }
  if (!page.body.ok) return page.body.json ? { kind: 'fail', reason: page.body.error, rowsRefused: true } : { kind: 'fail', reason: bodyFaultWords(page.body) };
  return undefined;
}

/** Why a body was not taken, in words: not JSON, or JSON whose rows cannot be told (its own words). */
export function bodyFaultWords(body: { readonly error: string; readonly json?: true }): string {
  return body.json ? body.error : `the body is not valid JSON (${body.error})`;
}
