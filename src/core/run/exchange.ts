// THE exchange: the one way a request of a .http file is sent, by the CLI (`apiwb run`) and by the
// extension (Send, Send and follow pages, the panel's Next page / All pages). Steps, in order:
//   prepare (variables, $auth, `< file` bodies)
//   → contract caps (a page size above the documented maximum is clamped, with a notice)
//   → send: the first page of a walk (every request is one; an unpaged one is a walk of one page)
//     or every page into a sink
//   → rows (the one rows rule, paging/rows.ts: where the walk found them, or the rule asked of a page it refused)
//   → business errors (the catalog passed in, imported operations included)
//   → auth failures in words
//   → the caller's steps (assertions, contract drift, …: see README.md), each adding findings
//   → one ExchangeResult.
// Ports, never singletons: the HTTP port, the catalog (contracts + overlays) and the deadline come in.
import { jsonTextTooDeep, tooDeepText } from '../json/depth';
import type { AuthExplanation } from '../auth/explain';
import { explainAuthFailure } from '../auth/explain';
import { detectBusinessErrors, type BusinessErrorReport, type BusinessFailure, type Catalog, type Operation } from '../catalog';
import { memorySink, type RowSink } from '../export/sink';
import type { HttpPort, SendOptions, StreamingResponse } from '../http/client';
import { DEFAULT_MAX_WAIT_MS, isRefusal, type QuotaBook } from '../http/serverWaits';
import type { HttpRequest, HttpResponse } from '../http/types';
import type { HttpFile } from '../httpfile/model';
import type { NamedResponse } from '../httpfile/resolve';
import { withoutSecrets, type WalkCheckpoint } from '../paging/checkpoint';
import { rowsRule } from '../paging/rows';
import type { PagingPlan } from '../paging/types';
import { walk, type PageEvent, type WalkOptions, type WalkProgress, type WalkResult } from '../paging/walker';
import { clampToContract } from './caps';
import { pathOf } from '../http/url';
import { walkCredentials, type SignInAgain } from './credentialRenewal';
import { pagingPlanFor } from './pagingPlan';
import { prepareRequest, type PrepareContext, type Prepared } from './prepareRequest';
import type { Mutable } from '../mutable';
import type { SecretBindings } from '../secrets/bindings';
import { droppedWords } from '../secrets/crossOrigin';

/** What the exchange needs from its host. One value of `timeoutMs` for a send, a sign-in and every page. */
export interface ExchangePorts {
  readonly http: HttpPort;
  /** The contracts plus any imported OpenAPI overlay: operations, paging, error catalogues. */
  readonly catalog: Catalog;
  /** Time allowed for one whole response, headers and body (ms). */
  readonly timeoutMs: number;
  /** TLS verification; only `false` turns it off. */
  readonly rejectUnauthorized?: boolean;
  /**
   * Every secret the run or the editor holds and the origins each may go to: the send boundary checks every
   * page, redirect hop, next link and resume against it (src/core/secrets/bindings.ts). Required: a host
   * that sends has secrets to guard, or an empty set that says so.
   */
  readonly guard: SecretBindings;
  /** All waits on the server of one walk or send together (ms; ../http/serverWaits.ts). Default 5 minutes. */
  readonly maxWaitMs?: number;
  /** Each origin's announced quota, shared by every exchange of a run or an editor session. */
  readonly quotas?: QuotaBook;
  /** The editor's sign-in prompt when a token would expire mid-walk (the CLI signs in by itself). */
  readonly signInAgain?: SignInAgain;
}

/** The options every request of an exchange (or a continuation of it) is sent with. */
export function sendOptionsOf(ports: Pick<ExchangePorts, 'timeoutMs' | 'rejectUnauthorized' | 'guard'>): SendOptions {
  const options: Mutable<SendOptions> = { timeoutMs: ports.timeoutMs, guard: ports.guard };
  if (ports.rejectUnauthorized === false) options.rejectUnauthorized = false;
  return options;
}

/** A finding of one step (assertions, contract drift, …). A 'failure' makes the exchange not ok. */
export interface Finding {
  /** The step that found it ('assertions', 'contract', …). */
  readonly step: string;
  readonly severity: 'failure' | 'warning' | 'note';
  /** In words, for the CLI line and the panel. */
  readonly message: string;
  /** Structured detail for a reporter (junit, json) or a panel section; never a secret. */
  readonly detail?: unknown;
}

/** What a step sees: the exchange so far. Values are as received; redact before showing anything. */
export interface StepView {
  readonly request: HttpRequest;
  readonly response: HttpResponse;
  /** The parsed body; undefined when empty or not JSON. */
  readonly body: unknown;
  readonly rows: RowsOfExchange | undefined;
  readonly operation: Operation | undefined;
  readonly catalog: Catalog;
  readonly prepared: Extract<Prepared, { ok: true }>;
}

/** A step added after the built-in ones (see README.md): it returns findings and never throws for a finding. */
export interface ExchangeStep {
  readonly name: string;
  run(view: StepView): readonly Finding[] | Promise<readonly Finding[]>;
}

export interface RowsOfExchange {
  /** Where the rows are in the body ('$', 'Orders', 'value'); the panel builds its table from the same path. */
  readonly path: string;
  /** The rows of the response shown (the first page); empty when they were streamed to a sink. */
  readonly items: readonly unknown[];
  /** Rows of the whole exchange: this page, or every page of an all-pages walk. */
  readonly count: number;
}

/** A walk that can go on: the paging state the panel's Next page / All pages and `--resume` continue. */
export interface PagingCursor {
  readonly plan: PagingPlan;
  readonly checkpoint: WalkCheckpoint;
  /** The first request without its credentials: a continuation must keep its method and origin. */
  readonly first: HttpRequest;
  /** True while the strategy sees more pages. */
  readonly more: boolean;
  /** The environment it was sent in: a continuation in another one is refused (its credentials differ). */
  readonly environment: string;
  /** Why the walk cannot go on, in the bar's words, when it stopped on something else than its end. */
  readonly stopped?: string;
}

export interface ExchangeInput {
  readonly file: HttpFile;
  readonly requestIndex: number;
  readonly prepare: PrepareContext;
  /**
   * Told the secret values this request was handed (a token signed in for it) before anything is sent:
   * whatever redacts its rows on the way to a file or a panel must know them before the rows arrive.
   */
  readonly onSecrets?: (values: readonly string[]) => void;
  /** Named responses ({{name.response…}}): this request's response is recorded under its # @name. */
  readonly remember?: Map<string, NamedResponse>;
  readonly signal?: AbortSignal;
  /** 'first': one response (a paged request: its first page, with a cursor to continue). 'all': every page into `walk.sink`. */
  readonly pages: 'first' | 'all';
  readonly walk?: AllPagesOptions;
  /**
   * 'first' only: where the response's rows go, written as they arrive (the CLI's --out, or a counting
   * sink), when the paging plan says where they are: a response of any size then costs flat memory,
   * its rows are not kept (rows.items is empty) and neither is its body text (response.bodyText is ''
   * when the rows were streamed). Otherwise, and without it, the rows are kept in rows.items.
   */
  readonly rowsTo?: RowSink;
  readonly steps?: readonly ExchangeStep[];
  /** False when the caller never continues this exchange (no Next page, no resume): no paging cursor then. */
  readonly continuable?: boolean;
  /**
   * 'first' only: called once, as soon as the response's body has been received whole (the server is
   * done with the request), with its size in bytes, before the exchange examines it; never when
   * no whole body came (a read that failed, a body discarded unread). The examination waits for what it
   * returns: a run sends its next request from here and examines this response while it is answered.
   * When it returns a promise, the response's time leaves out this call and that wait.
   */
  readonly onReceived?: (bytes: number) => Promise<void> | undefined;
  /** Called once, when the exchange's request has been handed to the HTTP client (after any sign-in). */
  readonly onSent?: () => void;
  /**
   * readyExchange of this input (with the same ports), started earlier by the caller: a run makes its next
   * request ready while the server answers this one. Without it the exchange readies the request itself.
   */
  readonly ready?: Promise<ReadyExchange>;
}

export interface AllPagesOptions {
  /** Where every page's rows go; without one they are counted and dropped. */
  readonly sink?: RowSink;
  readonly maxPages?: number;
  /** Continue a walk from its checkpoint (the sink must be reopened at the checkpoint's length). */
  readonly resumeFrom?: WalkCheckpoint;
  readonly onPage?: (event: PageEvent) => void | Promise<void>;
  /** Every progress of the walk, waits included ("rate limited: waiting 12 s"). */
  readonly onProgress?: (progress: WalkProgress) => void;
}

export interface ExchangeResult {
  /** Everything succeeded: a response < 400, no business failure, a complete walk, no failure finding. */
  readonly ok: boolean;
  readonly prepared: Prepared;
  /** The request as sent (after caps); holds credentials: redact before showing. */
  readonly request?: HttpRequest;
  /** The response shown: the single response, the first page, or an all-pages walk's last page. */
  readonly response?: HttpResponse;
  readonly operation?: Operation;
  readonly rows?: RowsOfExchange;
  /** The response's body as parsed once (by the walk or here), for the panel; undefined when empty or not JSON. As received: redact before showing. */
  readonly body?: unknown;
  /** Pages of an all-pages walk (all of them, resumed parts included). */
  readonly pages?: number;
  /** Present when the request is paged: what the walk knows and how to continue it. */
  readonly paging?: PagingCursor;
  /** The walk behind the exchange: its verdict, message and checkpoint. */
  readonly walk?: WalkResult;
  readonly business?: BusinessErrorReport;
  /** Business failures in words ("code 1 Missing mandatory fields (SurveyApi: …)"). */
  readonly businessFailures: readonly string[];
  readonly auth?: AuthExplanation;
  /** Things the user should know that are not failures: a clamped page size, a redirect followed. */
  readonly notices: readonly string[];
  /** Findings of the caller's steps (assertions, contract drift), in step order. */
  readonly findings: readonly Finding[];
  /** Why the exchange failed, in words (no response, a walk cut short, a 4xx/5xx said in words). */
  readonly problem?: string;
  /** Why the body could not be read (nested deeper than the product reads): always a failure. */
  readonly unreadable?: string;
  /**
   * Why the rows are not all there (the walk's words): an all-pages walk that is not complete, or a paged
   * first page the paging engine refused (a 200 with broken JSON, no rows where the style expects them,
   * paging that contradicts itself). Always a failure; see walkProblemOf.
   */
  readonly incomplete?: string;
  /**
   * When the exchange failed only on what a request can say it expects — its status (>= 400), a business
   * failure, or both — which of them; absent when it passed or when anything else failed too.
   */
  readonly failedOnlyOn?: readonly ExpectableFailure[];
}

export type ExpectableFailure = 'status' | 'business';

/**
 * A request made ready to send: prepared (variables, $auth values, `< file` body), its secret values told
 * to the caller, matched to its contract operation, capped, its paging plan chosen. Nothing is sent yet;
 * or, when it cannot be sent, the exchange's result already.
 */
export type ReadyExchange =
  | {
      readonly ok: true;
      readonly prepared: Extract<Prepared, { ok: true }>;
      readonly operation: Operation | undefined;
      /** The request as it will go (after the caps). */
      readonly request: HttpRequest;
      readonly notices: readonly string[];
      /** Undefined: none is known before the response (the walk detects the style from it). */
      readonly plan: PagingPlan | undefined;
    }
  | { readonly ok: false; readonly result: ExchangeResult };

/** The steps of an exchange before anything is sent (see ReadyExchange); runExchange does the rest. */
export async function readyExchange(input: Pick<ExchangeInput, 'file' | 'requestIndex' | 'prepare' | 'onSecrets' | 'pages'>, ports: Pick<ExchangePorts, 'catalog'>): Promise<ReadyExchange> {
  const prepared = await prepareRequest(input.file, input.requestIndex, input.prepare);
  if (!prepared.ok) return { ok: false, result: { ok: false, prepared, businessFailures: [], notices: [], findings: [], problem: prepared.problem } };
  input.onSecrets?.(prepared.secretValues);

  const operation = ports.catalog.match(prepared.request.method, pathOf(prepared.request.url));
  const capped = clampToContract(prepared.request, operation);
  const request = capped.request;
  const notices = [...capped.notices];
  // The operation matched above: the caps change a query parameter, never the method or the path.
  const lookup = pagingPlanFor(request, prepared.resolved.directives, ports.catalog, operation);
  if (!lookup.ok) {
    if (input.pages === 'all') return { ok: false, result: { ok: false, prepared, request, ...(operation ? { operation } : {}), businessFailures: [], notices, findings: [], problem: lookup.error } };
    notices.push(`${lookup.error}; sent as a single request`);
  }
  const plan = lookup.ok ? lookup.plan : { style: 'none' as const, options: {}, source: 'default' as const };
  return { ok: true, prepared, operation, request, notices, plan };
}

/** Runs one request through every step. Never throws for a fault of the network or the server. */
export async function runExchange(input: ExchangeInput, ports: ExchangePorts): Promise<ExchangeResult> {
  const ready = await (input.ready ?? readyExchange(input, ports));
  if (!ready.ok) return ready.result;
  const { prepared, operation, request, plan } = ready;
  const notices = [...ready.notices];

  // The response as received, whatever the walker makes of it (a 401 is a failed walk but a response to show).
  let response: HttpResponse | undefined;
  const first = input.pages === 'first';
  const received = first ? once(input.onReceived) : undefined;
  // A streamed response's time is taken after its read, which waits on onReceived: that wait is not its time.
  let waitedMs = 0;
  const receivedWhileTimed = received && (async (bytes: number): Promise<void> => {
    // From before the call: what it does at once (a run starts its next request) is not this response's time.
    const from = performance.now();
    const waiting = received(bytes);
    if (!waiting) return;
    await waiting;
    waitedMs += performance.now() - from;
  });
  const handedOver = once(input.onSent);
  const http: HttpPort = {
    send: async (r, o) => {
      const sending = ports.http.send(r, o);
      handedOver?.();
      response = await sending;
      // A refusal to be waited out is not the answer: the run's next request must not go meanwhile.
      if (!isRefusal(response.status)) await received?.(response.sizeBytes);
      return response;
    },
    stream: async (r, o) => {
      const streaming = ports.http.stream(r, o);
      handedOver?.();
      const s = await streaming;
      response = { status: s.status, statusText: s.statusText, headers: s.headers, bodyText: '', timing: { startedAt: s.startedAt, firstByteMs: s.firstByteMs, totalMs: s.firstByteMs }, sizeBytes: 0 };
      return receivedWhileTimed && !isRefusal(s.status) ? toldWhenRead(s, receivedWhileTimed) : s;
    },
  };
  const sendOptions = sendOptionsOf(ports);
  const memory = memorySink();
  const started = performance.now();
  let lastPage: HttpResponse | undefined;
  let lastBody: unknown;
  let lastRowsPath: string | undefined;
  // Rows stream to rowsTo only where the plan says where they are before the body arrives (a paged
  // operation, `# @paging`, items=); elsewhere the one rows rule needs the whole body.
  const rowsTo = first && plan?.style !== undefined && plan.style !== 'none' ? input.rowsTo : undefined;
  // Options set one by one, not spread from conditional literals: each property after a spread in a
  // literal is defined through the runtime, and this runs for every request of a run.
  const walkOptions: Mutable<WalkOptions> = { sink: first ? (rowsTo ?? memory) : (input.walk?.sink ?? DISCARD), http, sendOptions };
  if (rowsTo) walkOptions.rowsAsTheyArrive = true;
  if (plan) walkOptions.plan = plan;
  // A send is never retried for a transient error (shown as it came); a refusal that says when to come
  // back is waited out, as every page of a walk (the wait turn, one rule).
  walkOptions.maxWaitMs = ports.maxWaitMs ?? DEFAULT_MAX_WAIT_MS;
  if (ports.quotas) walkOptions.quotas = ports.quotas;
  if (first) {
    walkOptions.maxPages = 1;
    walkOptions.retry = { maxRetries: 0 };
  } else if (input.walk?.maxPages) {
    walkOptions.maxPages = input.walk.maxPages;
  }
  if (!first && input.walk?.resumeFrom) walkOptions.resumeFrom = input.walk.resumeFrom;
  if (input.signal) walkOptions.signal = input.signal;
  if (input.continuable === false) walkOptions.continuable = false;
  // A token that would expire mid-walk is renewed before the page it would fail (credentialRenewal.ts).
  const renewal = first ? undefined : walkCredentials(input, ports.signInAgain);
  if (renewal) walkOptions.credentials = renewal;
  if (!first && input.walk?.onProgress) walkOptions.onProgress = input.walk.onProgress;
  walkOptions.onPage = (event) => {
    lastPage = event.response.bodyText || !lastPage ? event.response : { ...event.response, bodyText: lastPage.bodyText };
    lastBody = event.body;
    lastRowsPath = event.rowsPath;
    return input.walk?.onPage?.(event);
  };
  const walked = await walk(request, walkOptions);
  notices.push(...walked.notices);
  // A refused send not sent again says why (no Retry-After, or a wait beyond the bound).
  if (first && walked.failure?.kind === 'http' && response && isRefusal(response.status)) notices.push(walked.failure.message);
  // The page a walk kept is the one shown; a page it refused (401, broken JSON) is shown as received.
  response = lastPage ?? response;
  if (!response && walked.verdict === 'complete') {
    // A resumed walk whose checkpoint was already at its end: nothing to send, nothing missing.
    return { ok: true, prepared, request, ...(operation ? { operation } : {}), walk: walked, pages: walked.pages, rows: { path: rowsRule(walked.checkpoint.plan.style, walked.checkpoint.plan.options).declared, items: [], count: walked.rows }, businessFailures: [], notices: [...notices, walked.message], findings: [] };
  }
  if (!response) {
    return { ok: false, prepared, request, ...(operation ? { operation } : {}), walk: walked, businessFailures: [], notices, findings: [], problem: walked.failure?.message ?? walked.message };
  }
  if (!first) response = { ...response, timing: { ...response.timing, totalMs: performance.now() - started } };
  else if (waitedMs > 0) response = { ...response, timing: { ...response.timing, totalMs: Math.max(response.timing.firstByteMs, response.timing.totalMs - waitedMs) } };
  if (response.redirects) for (const hop of response.redirects) {
    notices.push(`redirected (${hop.status}) to ${hop.to}${hop.crossOrigin ? `, another origin: ${droppedWords(hop.dropped)}` : ''}`);
  }
  if (prepared.resolved.name && response.bodyText) input.remember?.set(prepared.resolved.name, { status: response.status, headers: response.headers, bodyText: response.bodyText });

  const usedPlan = walked.checkpoint.plan;
  const rule = rowsRule(usedPlan.style, usedPlan.options);
  const rowsPath = lastRowsPath ?? rule.declared;
  // Rows nested that deep would overflow everything after the parse: the request fails, named, and a run goes on.
  // The body as the walk parsed it (once; its parse already measured the depth); a page it refused was
  // not parsed into rows: read it here, measured first.
  const parsedByWalk = lastPage !== undefined && response === lastPage && (lastBody !== undefined || !response.bodyText);
  const tooDeep = !parsedByWalk && response.bodyText ? jsonTextTooDeep(response.bodyText) : undefined;
  const body = parsedByWalk ? lastBody : tooDeep ? undefined : parseJson(response.bodyText);
  const paged = usedPlan.style !== 'none';
  let rows: RowsOfExchange | undefined;
  // The rows the walk kept, at the path the rule found them; else (an unpaged page, a page refused) the
  // same rule asked of the body shown: no rows where it finds none.
  if (!first) rows = { path: rowsPath, items: [], count: walked.rows };
  else if (rowsTo && walked.pages > 0) rows = { path: rowsPath, items: [], count: walked.rows };
  else if (paged && walked.pages > 0) rows = { path: rowsPath, items: memory.pages.flat(), count: walked.rows };
  else {
    const found = rule.find(body);
    if (found.ok) rows = { path: found.path, items: found.rows, count: found.rows.length };
  }

  const business = body !== undefined ? detectBusinessErrors(body, operation?.errorCatalogue) : undefined;
  const businessFailures = business?.failed ? business.failures.map((f) => businessFailureWords(f, business.catalogue)) : [];
  const auth = explainAuthFailure({ status: response.status, bodyText: response.bodyText, scheme: prepared.scheme, service: operation?.service, family: operation?.family });

  const findings: Finding[] = [];
  for (const step of input.steps ?? []) {
    findings.push(...(await step.run({ request, response, body, rows, operation, catalog: ports.catalog, prepared })));
  }

  const paging: PagingCursor | undefined = paged && (walked.pages > 0 || !first) && input.continuable !== false
    ? { plan: usedPlan, checkpoint: walked.checkpoint, first: withoutSecrets(request, undefined, ports.guard), more: canContinue(walked), environment: input.prepare.environment.name, ...(stoppedWords(walked) ? { stopped: stoppedWords(walked) } : {}) }
    : undefined;
  const status = response.status;
  const httpProblem = status >= 400
    ? auth?.summary ?? ([response.statusText, businessFailures.join('; ')].filter(Boolean).join(': ') || `HTTP ${status}`)
    : undefined;
  const walkProblem = walkProblemOf(walked, input.pages);
  const bodyProblem = tooDeep ? `the response body ${tooDeepText(tooDeep.limit)}; its rows were not read` : undefined;
  const problem = httpProblem ?? walkProblem ?? bodyProblem;
  const hardFailure = walkProblem !== undefined || bodyProblem !== undefined || findings.some((f) => f.severity === 'failure');
  const expectable: ExpectableFailure[] = [];
  if (status >= 400) expectable.push('status');
  if (businessFailures.length > 0) expectable.push('business');
  const ok = !hardFailure && expectable.length === 0;
  // Set in this order one by one (see walkOptions above).
  const result: Mutable<ExchangeResult> = { ok, prepared, request, response, businessFailures, notices, findings };
  if (operation) result.operation = operation;
  if (rows) result.rows = rows;
  if (body !== undefined) result.body = body;
  if (!first) result.pages = walked.pages;
  if (paging) result.paging = paging;
  result.walk = walked;
  if (business) result.business = business;
  if (auth) result.auth = auth;
  if (problem) result.problem = problem;
  if (bodyProblem) result.unreadable = bodyProblem;
  if (walkProblem) result.incomplete = walkProblem;
  if (!ok && !hardFailure) result.failedOnlyOn = expectable;
  return result;
}

/**
 * THE rule for when a walk fails its exchange: every page asked for ('all') must be complete; a first page
 * ('first') fails when the request is paged and the walk ended otherwise than at its end or at its one
 * page. Not for a first page: an unpaged response (shown as it came, whatever its body), nor a refused
 * status (a 4xx/5xx is the response's own failure, which `?? status == N` may expect).
 */
export function walkProblemOf(walked: WalkResult, pages: 'first' | 'all'): string | undefined {
  if (walked.verdict === 'complete') return undefined;
  if (pages === 'all') return walked.message;
  const paged = walked.checkpoint.plan.style !== 'none';
  return paged && walked.outcome !== 'max-pages' && walked.failure?.kind !== 'http' ? walked.message : undefined;
}

/** The bar's words for a walk that cannot go on although it did not reach its end (inconsistent, or a lost page). */
export function stoppedWords(walked: WalkResult): string | undefined {
  if (walked.verdict === 'inconsistent') return `inconsistent: ${walked.failure?.message ?? walked.checkpoint.endReason ?? 'the server\'s paging contradicted itself'}`;
  if (walked.verdict === 'failed' && walked.cannotResume) return `failed: ${walked.failure?.message ?? ''}; cannot resume`;
  return undefined;
}

/** The walk can go on: not at its end, a next request known, and the server's paging not self-contradicting. */
export function canContinue(walked: WalkResult): boolean {
  return !walked.checkpoint.done && walked.checkpoint.next !== undefined && walked.verdict !== 'inconsistent' && walked.cannotResume === undefined;
}

/** "code 1 Missing mandatory fields (SurveyApi: Missing mandatory fields)". */
export function businessFailureWords(failure: BusinessFailure, catalogue: string | undefined): string {
  const code = failure.code === undefined ? '' : `code ${failure.code} `;
  const meanings = failure.meanings.length
    ? ` (${catalogue ?? 'catalogue'}: ${failure.meanings.join(' | ')}${failure.ambiguous ? ', ambiguous as published' : ''})`
    : failure.unknownCode ? ` (not in the ${catalogue ?? ''} catalogue)` : '';
  return `${code}${failure.message}${meanings}`.trim();
}

/** `told` at most once (later calls answer undefined); undefined when there is nothing to tell. */
function once<A extends unknown[], R>(told: ((...args: A) => R) | undefined): ((...args: A) => R | undefined) | undefined {
  if (!told) return undefined;
  let done = false;
  return (...args) => {
    if (done) return undefined;
    done = true;
    return told(...args);
  };
}

/**
 * The same response, `told` its size once its body has been read to its end; not when reading it
 * failed, nor when it is discarded (a discard may cut the connection instead of reading the rest).
 */
function toldWhenRead(response: StreamingResponse, told: (bytes: number) => Promise<void> | undefined): StreamingResponse {
  return {
    status: response.status, statusText: response.statusText, headers: response.headers, startedAt: response.startedAt, firstByteMs: response.firstByteMs, redirects: response.redirects,
    read: async (each) => {
      let bytes = 0;
      await response.read((chunk) => {
        bytes += chunk.length;
        return each(chunk);
      });
      await told(bytes);
    },
    discard: () => response.discard(),
  };
}

function parseJson(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** No sink given: the rows are counted by the walk and dropped; streamed pages stay streamed (flat memory). */
export const DISCARD: RowSink = {
  format: 'memory', countsOnly: true, writePage: () => Promise.resolve(), writeNdjsonPage: () => Promise.resolve(), checkpoint: () => undefined, close: () => Promise.resolve(),
};
