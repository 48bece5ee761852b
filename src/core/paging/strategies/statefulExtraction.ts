// Stateful extraction (BIDWHouse fact reads, seed 000 §4.2 rule 7): the server keeps the position, so
// the next request is the SAME call again. How the end shows is not published: the walk takes an
// empty result as the end (the product's reading, not the contract's). An error is NOT end-of-data:
// a non-2xx (but a refusal: 429, 503) is retried with the same call, up to policy.maxRetries
// times in a row, after policy.retryDelayMs (or the Retry-After the server gives). Past that bound the
// walk fails (resumable), it never ends quietly. A 2xx with broken JSON is NOT retried: the server has
// already advanced, so the walk fails and says rows may be missing rather than pretending otherwise.
import { headerValue } from '../../http/types';
import { isRefusal, retryAfterMs } from '../../http/serverWaits';
import { excerpt } from '../../text/excerpt';
import { bodyFaultWords, statusLine } from '../common';
import { rowsRule } from '../rows';
import type { Acceptance, Page, PagingStrategy, RetryPolicy, WalkState } from '../types';

function retryOrFail(page: Page, state: WalkState, policy: RetryPolicy, what: string): Acceptance {
  if (state.retriesInRow >= policy.maxRetries) {
    return { kind: 'fail', reason: `${what}, ${state.retriesInRow + 1} times in a row; gave up after ${policy.maxRetries} retries (an extraction error is not the end of data)` };
  }
  const delayMs = Math.min(policy.maxRetryDelayMs,
    retryAfterMs(headerValue(page.response.headers, 'retry-after'), page.receivedAt) ?? policy.retryDelayMs);
  return { kind: 'retry', request: page.request, delayMs, reason: `${what}: not the end of data, retrying the same call` };
}

export function statefulExtractionStrategy(options: Readonly<Record<string, string>>, policy: RetryPolicy): PagingStrategy {
  const rule = rowsRule('stateful-extraction', options);
  return {
    style: 'stateful-extraction',
    repeatsRequest: true,
    loop: {
      style: 'stateful-extraction',
      citation: 'seed 000 §4.2 rule 7',
      rule: [
        'Extraction is stateful, not page-numbered: the server keeps the position, so the next request is the same call again.',
        'An error is not end-of-data: a non-2xx is retried with the same call (a few times, then the walk fails); a 2xx with broken JSON fails (the server has moved on: rows may be missing).',
        'How the end shows is not published: an empty result is taken as the end (the product\'s reading, not the contract\'s).',
      ],
      rows: rule.place,
      advance: { kind: 'same-call' },
      facts: [],
    },
    cannotResume: 'a stateful extraction cannot resume: every call hands out the next rows and the service has already moved past the ones lost, so they cannot be fetched again; start a new extraction',
    ...(rule.streamRows ? { streamRows: rule.streamRows } : {}),
    prepare: (first) => first,
    accept(page, state) {
      const { status } = page.response;
      // A 429 / 503 that says when is waited out by the walker's wait turn; one that does not is not retried at a guess.
      if (isRefusal(status)) return { kind: 'fail', reason: `${statusLine(page)} without Retry-After: not sent again at a guess` };
      if (status < 200 || status > 299) {
        const body = page.response.bodyText ? ` (${excerpt(page.response.bodyText, 160)})` : '';
        return retryOrFail(page, state, policy, `${statusLine(page)}${body}`);
      }
      // A 2xx means the server already moved its position: retrying would silently skip these rows.
      if (!page.body.ok) {
        return { kind: 'fail', reason: `${bodyFaultWords(page.body)}; the server may already have moved past these rows, so they may be missing from the export` };
      }
      // The fact list is named per fact read; FactTransactions for the representative operation.
      return rule.accept(page.body.value);
    },
    next(page, rows) {
      if (rows.length === 0) return { kind: 'end', reason: 'empty result: taken as the end of the extraction (the contract does not say how the end shows)' };
      return { kind: 'continue', request: page.request };
    },
  };
}
