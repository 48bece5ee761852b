// Drives a paging strategy over HTTP, one turn at a time (walkTurn.ts: one request and its page, in the
// engine's safety order), until a turn says how the walk ended. Nothing is sent before the previous page
// is written and kept (pageWrite.ts), so the checkpoint always names the first request whose page is not
// yet safely kept, and a resumed walk has no gap and no duplicate. The walker never throws for a fault:
// it returns an outcome, a message and a checkpoint, and never claims more than it got: every walk ends
// with a verdict (walkBook.ts: complete, cut short, inconsistent, failed), and a server whose paging
// contradicts itself stops the walk before the doubtful page is kept (pageChecks.ts). A next link or a
// resume to another origin follows the one cross-origin rule (walkOrigins.ts). Around each send, the
// wait turn (waitTurn.ts: a refusal that says when is waited out, a spent quota holds the next request)
// and the credentials hook (a token renewed before a request it would not outlive, never after a 401).
import { setTimeout as sleepFor } from 'node:timers/promises';
import { httpClient } from '../http/client';
import type { HttpRequest } from '../http/types';
import { DEFAULT_MAX_WAIT_MS, QuotaBook, WaitBudget } from '../http/serverWaits';
import { withoutSecrets } from './checkpoint';
import { checkResume } from './resumeCheck';
import { createStrategy } from './strategies';
import { WaitTurn } from './waitTurn';
import { WalkBook } from './walkBook';
import { resumeFrom } from './walkOrigins';
import { WalkTurns, type WalkSetting } from './walkTurn';
import type { WalkOptions, WalkResult } from './walkTypes';

export type { PageEvent, WalkCredentials, WalkOptions, WalkProgress, WalkResult } from './walkTypes';

const defaultSleep = (ms: number, signal?: AbortSignal): Promise<void> =>
  sleepFor(ms, undefined, { signal }).then(() => undefined);

/** Walks every page from `request` (or from `options.resumeFrom`), writing rows to `options.sink`. */
export async function walk(request: HttpRequest, options: WalkOptions): Promise<WalkResult> {
  const setting = settingOf(options);
  const resume = options.resumeFrom;
  const book = new WalkBook(request, resume, setting.budget, setting.bare);
  book.plan = options.plan ?? resume?.plan;
  book.strategy = book.plan ? createStrategy(book.plan.style, book.plan.options, options.retry) : undefined;
  const waits = new WaitTurn({
    budget: setting.budget, quotas: options.quotas ?? new QuotaBook(), sleep: setting.sleep, now: setting.clock,
    waiting: (words) => options.onProgress?.(book.progress(words)),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const first = firstRequest(request, options, setting, book);
  if ('outcome' in first) return first;
  const turns = new WalkTurns({ ...setting, waits }, book, first, resume);
  // Every way out of a turn returns (a page that was not kept is cut off the file first); the `finally`
  // is for a throw (a strategy's bug, a caller's onPage) with a page still held: it goes too, so the file
  // stays the checkpoint's length and a resume goes on from there.
  try {
    for (;;) {
      const ended = await turns.take();
      if (ended) return ended;
    }
  } finally {
    await turns.dropAfterThrow();
  }
}

function settingOf(options: WalkOptions): Omit<WalkSetting, 'waits'> & { readonly budget: WaitBudget } {
  const http = options.http ?? httpClient;
  const guard = options.sendOptions?.guard;
  return {
    options, http, guard,
    send: options.send ?? ((r, o) => http.send(r, o)),
    sleep: options.sleep ?? defaultSleep,
    bare: (r) => withoutSecrets(r, guard),
    maxPages: options.maxPages ?? 10_000,
    resuming: options.resumeFrom !== undefined,
    clock: options.now ?? Date.now,
    budget: new WaitBudget(options.maxWaitMs ?? DEFAULT_MAX_WAIT_MS),
  };
}

/**
 * The walk's first request: `request` itself (as its strategy prepares it), or a resume's, which a
 * checkpoint decides only the position of (checkResume: refused before anything is sent) and whose
 * credentials are put back from `request`, where the cross-origin rule lets them go.
 */
function firstRequest(request: HttpRequest, options: WalkOptions, setting: Omit<WalkSetting, 'waits'>, book: WalkBook): HttpRequest | WalkResult {
  const resume = options.resumeFrom;
  const resumed = resume ? checkResume(resume, request, options.plan, options.resumeSource, setting.guard) : undefined;
  if (resumed && !resumed.ok) {
    const words = `not resumed: the checkpoint ${resumed.reason}. Nothing was sent; the rows kept are as they were`;
    const failure = { page: book.pages + 1, request: { method: request.method.toUpperCase(), url: request.url }, kind: 'resume' as const, message: words };
    const { resumeAt: _never, cannotResume: _none, ...refused } = book.finish('failed', `${words}.`, failure);
    return refused;
  }
  if (!resumed?.ok) return book.strategy?.prepare(request) ?? request;
  const hop = resumeFrom(resumed.request, request, setting.guard);
  if (!hop.ok) {
    // Resuming again would meet the same rule: not resumable.
    const { resumeAt: _again, ...refused } = book.fail(resumed.request, 'paging', hop.reason);
    return { ...refused, cannotResume: `its next request is refused: ${hop.reason}` };
  }
  if (hop.notice) book.notices.push(hop.notice);
  return hop.request;
}
