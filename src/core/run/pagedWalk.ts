// Continuing a paged exchange: the panel's Next page and All pages, and `apiwb run --resume`. The state
// is the exchange's PagingCursor (a checkpoint without secrets); the request is prepared again so the
// credentials are current, and refused when it is no longer the one paged (another method or origin):
// its credentials must not travel with the old request. The walker and its verdicts are the exchange's.
import type { RowSink } from '../export/sink';
import type { HttpRequest } from '../http/types';
import { originOf } from '../http/url';
import type { HttpFile } from '../httpfile/model';
import type { PageEvent, WalkProgress, WalkResult } from '../paging/walker';
import { walk } from '../paging/walker';
import { DEFAULT_MAX_WAIT_MS } from '../http/serverWaits';
import { walkCredentials } from './credentialRenewal';
import { memorySink } from '../export/sink';
import { canContinue, sendOptionsOf, stoppedWords, type ExchangePorts, type PagingCursor } from './exchange';
import { prepareToSend, type PrepareContext, type Prepared } from './prepareRequest';

export interface ContinueInput {
  readonly cursor: PagingCursor;
  readonly file: HttpFile;
  readonly requestIndex: number;
  readonly prepare: PrepareContext;
  /** 'next': one more page, its rows returned; 'all': every remaining page into `sink`. */
  readonly pages: 'next' | 'all';
  readonly sink?: RowSink;
  readonly signal?: AbortSignal;
  readonly onPage?: (event: PageEvent) => void | Promise<void>;
  readonly onProgress?: (progress: WalkProgress) => void;
  /** Told the secret values of a request renewed mid-walk (a new token), before it is sent. */
  readonly onSecrets?: (values: readonly string[]) => void;
}

export type Continued =
  | { readonly ok: false; readonly problem: string; readonly prepared?: Extract<Prepared, { ok: false }> }
  | {
      readonly ok: true;
      readonly cursor: PagingCursor;
      readonly walk: WalkResult;
      /** The rows of the page fetched by 'next' (empty for 'all': they went to the sink). */
      readonly rows: readonly unknown[];
      /** Secret values handed out while preparing: the caller's Redactor must learn them. */
      readonly secretValues: readonly string[];
    };

/**
 * Why a continuation must not be sent with `fresh` (the request as it is in the file now, prepared in
 * `environment`), or undefined: another environment, method or origin than the walk's.
 */
export function continuationRefusal(cursor: PagingCursor, fresh: HttpRequest, environment = cursor.environment): string | undefined {
  if (environment !== cursor.environment) return `this response was paged in environment '${cursor.environment}'; switch back to it, or send the request again`;
  if (fresh.method.toUpperCase() !== cursor.first.method.toUpperCase() || originOf(fresh.url) !== originOf(cursor.first.url)) {
    return 'the request behind this response changed in the file (method or server); send it again to page it';
  }
  return undefined;
}

export async function continueWalk(input: ContinueInput, ports: ExchangePorts): Promise<Continued> {
  const { cursor } = input;
  if (!cursor.more) return { ok: false, problem: cursor.checkpoint.endReason ? `the walk has no next page (${cursor.checkpoint.endReason})` : 'the walk has no next page' };
  const environment = input.prepare.environment.name;
  const early = environment !== cursor.environment ? continuationRefusal(cursor, cursor.first, environment) : undefined;
  if (early) return { ok: false, problem: early };
  const prepared = await prepareToSend(input.file, input.requestIndex, input.prepare, ports.guard);
  if (!prepared.ok) return { ok: false, problem: prepared.problem, prepared };
  const refusal = continuationRefusal(cursor, prepared.request, environment);
  if (refusal) return { ok: false, problem: refusal };
  const memory = memorySink();
  // A token that would expire mid-walk: the editor asks for a sign-in and the walk waits (credentialRenewal.ts).
  const credentials = walkCredentials({ file: input.file, requestIndex: input.requestIndex, prepare: input.prepare, ...(input.onSecrets ? { onSecrets: input.onSecrets } : {}) }, ports);
  const sendOptions = sendOptionsOf(ports, prepared.resolved.directives);
  const result = await walk(prepared.request, {
    sink: input.pages === 'next' ? memory : (input.sink ?? memory),
    http: ports.http,
    sendOptions,
    resumeFrom: cursor.checkpoint,
    // The cursor is this process's own (never read from a file): held to method, server and plan.
    resumeSource: 'in-memory',
    ...(input.pages === 'next' ? { maxPages: 1 } : {}),
    ...(input.signal ? { signal: input.signal } : {}),
    ...(input.onPage ? { onPage: input.onPage } : {}),
    ...(input.onProgress ? { onProgress: input.onProgress } : {}),
    maxWaitMs: ports.maxWaitMs ?? DEFAULT_MAX_WAIT_MS,
    ...(ports.quotas ? { quotas: ports.quotas } : {}),
    ...(credentials ? { credentials } : {}),
  });
  return {
    ok: true,
    cursor: { ...withoutStop(cursor), checkpoint: result.checkpoint, more: canContinue(result), ...(stoppedWords(result) ? { stopped: stoppedWords(result) } : {}) },
    walk: result,
    rows: input.pages === 'next' ? memory.pages.flat() : [],
    secretValues: prepared.secretValues,
  };
}

function withoutStop(cursor: PagingCursor): PagingCursor {
  const { stopped: _stopped, ...rest } = cursor;
  return rest;
}
