// THE exchange: the one way a request of a .http file is sent, by the CLI (`apiwb run`) and by the
// extension (Send, Send and follow pages, the panel's Next page / All pages). Named steps, in order:
//   readyExchange: prepare (variables, $auth, `< file` bodies) → contract caps → the paging plan
//   sendReady:     send (walkOf: the first page of a walk, or every page into a sink)
//                  → rows (rowsOf: the one rows rule, paging/rows.ts)
//                  → business errors (the catalog passed in, imported operations included)
//                  → auth failures in words → the caller's steps (assertions, contract drift, …)
//                  → one ExchangeResult (resultOf), its time covering all of it.
// Ports, never singletons: the HTTP port, the catalog (contracts + overlays) and the deadline come in.
// What a host does around the send (the CLI's overlap of requests) wraps the HTTP port it passes.
import { jsonTextTooDeep, tooDeepText } from '../json/depth';
import { explainAuthFailure, type AuthExplanation } from '../auth/explain';
import { detectBusinessErrors, type BusinessErrorReport, type BusinessFailure } from '../catalog';
import { memorySink, type RowSink } from '../export/sink';
import type { SendOptions } from '../http/client';
import { DEFAULT_MAX_WAIT_MS, isRefusal } from '../http/serverWaits';
import type { HttpRequest, HttpResponse } from '../http/types';
import type { NamedResponse } from '../httpfile/resolve';
import { withoutSecrets } from '../paging/checkpoint';
import { KeptBody } from './keptBody';
import { rowsRule } from '../paging/rows';
import type { PagingPlan } from '../paging/types';
import { walk, type WalkOptions, type WalkResult } from '../paging/walker';
import { clampToContract } from './caps';
import { originOf, pathOf } from '../http/url';
import { walkCredentials } from './credentialRenewal';
import { pagingPlanFor } from './pagingPlan';
import { prepareToSend } from './prepareRequest';
import { followsRedirects } from '../httpfile/directives';
import type { Mutable } from '../mutable';
import { droppedWords } from '../secrets/crossOrigin';
import { canContinue, stoppedWords, walkProblemOf, DISCARD } from './exchangeWalk';
import type { ExchangeInput, ExchangePorts, ExchangeResult, ExpectableFailure, Finding, PagingCursor, ReadyExchange, RowsOfExchange } from './exchangeModel';

export type { ExchangeInput, ExchangePorts, ExchangeResult, ExchangeStep, Finding, PagingCursor, ReadyExchange } from './exchangeModel';
export { canContinue, DISCARD, stoppedWords } from './exchangeWalk';

/**
 * The options every request of an exchange (or a continuation of it) is sent with; `directives`, the
 * request's (`# @no-redirect`: its redirects are not followed, the 3xx is the response).
 */
export function sendOptionsOf(ports: Pick<ExchangePorts, 'timeoutMs' | 'rejectUnauthorized' | 'guard'>, directives?: Readonly<Record<string, string>>): SendOptions {
  const options: Mutable<SendOptions> = { timeoutMs: ports.timeoutMs, guard: ports.guard };
  if (ports.rejectUnauthorized === false) options.rejectUnauthorized = false;
  if (directives && !followsRedirects(directives)) options.maxRedirects = 0;
  return options;
}

/** The steps of an exchange before anything is sent (see ReadyExchange); sendReady does the rest. */
export async function readyExchange(input: Pick<ExchangeInput, 'file' | 'requestIndex' | 'prepare' | 'onSecrets' | 'pages'>, ports: Pick<ExchangePorts, 'catalog' | 'guard'>): Promise<ReadyExchange> {
  const prepared = await prepareToSend(input.file, input.requestIndex, input.prepare, ports.guard);
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
  const detectOptions = lookup.ok ? lookup.detectOptions : undefined;
  return { ok: true, prepared, operation, request, notices, plan, ...(detectOptions ? { detectOptions } : {}) };
}

/** Runs one request through every step. Never throws for a fault of the network or the server. */
export async function runExchange(input: ExchangeInput, ports: ExchangePorts): Promise<ExchangeResult> {
  const ready = await readyExchange(input, ports);
  return ready.ok ? sendReady(ready, input, ports) : ready.result;
}

type Ready = Extract<ReadyExchange, { ok: true }>;

/** What the send step brings back: the walk, and the page shown with its body as the walk parsed it. */
interface Sent {
  readonly walked: WalkResult;
  /** The page the walk kept, else the response as received (a refused page); undefined when none came. */
  readonly response: HttpResponse | undefined;
  /** True when `response` is the page the walk kept (its body parsed by the walk: `body`). */
  readonly kept: boolean;
  readonly body: unknown;
  readonly rowsPath: string | undefined;
  /** The first page's rows when they were kept in memory (not streamed to rowsTo). */
  readonly kept_rows: readonly unknown[];
  /** The rows went to input.rowsTo as they arrived. */
  readonly streamedTo: boolean;
  /** The body of a response streamed to rowsTo, kept in a spill file for the steps and later requests that read it whole. */
  readonly keptBody: KeptBody | undefined;
}

/**
 * A body streamed to rowsTo and kept for the steps (KeptBody): read back whole, within the body limit,
 * and parsed as a buffered one; over the limit, a failure says why the steps did not read it.
 */
async function wholeBody(sent: Sent, findings: Finding[]): Promise<{ sent: Sent; response: HttpResponse }> {
  const response = sent.response!;
  const kept = sent.keptBody;
  if (!kept || response.bodyText !== '' || kept.size === 0) {
    await kept?.remove();
    return { sent, response };
  }
  const read = await kept.text();
  if (!read.ok) {
    findings.push({ step: 'body', severity: 'failure', message: read.reason });
    return { sent, response };
  }
  return { sent: { ...sent, body: undefined }, response: { ...response, bodyText: read.text } };
}

/** The steps after readyExchange: send, rows, business errors, auth, the caller's steps, the result. */
export async function sendReady(ready: Ready, input: ExchangeInput, ports: ExchangePorts): Promise<ExchangeResult> {
  const { prepared, operation, request } = ready;
  const started = performance.now();
  const sent = await walkOf(ready, input, ports);
  const { walked } = sent;
  const notices = [...ready.notices, ...walked.notices];
  if (!sent.response) return unanswered(ready, walked, notices);
  const findings: Finding[] = [];
  const whole = await wholeBody(sent, findings);
  const response = receivedStep(whole.response, sent, ready, input, notices);

  const examined = examine(whole.sent, response, ready, input.pages === 'first');
  for (const step of input.steps ?? []) {
    findings.push(...(await step.run({ request, response, body: examined.body, rows: examined.rows, operation, catalog: ports.catalog, prepared })));
  }
  const paging = cursorOf(walked, ready, input, ports.guard);
  const verdict = verdictOf(response, walkProblemOf(walked, input.pages, response.headers['content-type']), examined.bodyProblem, examined.auth?.summary, examined.businessFailures, findings);
  // The time of the request covers everything until its result is known: the send, the whole body, its
  // rows, its checks (the server's part is timing.firstByteMs).
  const timed: HttpResponse = { ...response, timing: { ...response.timing, totalMs: performance.now() - started } };
  // Set in this order one by one (see walkOptionsOf).
  const result: Mutable<ExchangeResult> = { ok: verdict.ok, prepared, request, response: timed, businessFailures: examined.businessFailures, notices, findings };
  if (operation) result.operation = operation;
  if (examined.rows) result.rows = examined.rows;
  if (examined.body !== undefined) result.body = examined.body;
  if (input.pages === 'all') result.pages = walked.pages;
  if (paging) result.paging = paging;
  result.walk = walked;
  if (examined.business) result.business = examined.business;
  if (examined.auth) result.auth = examined.auth;
  return withVerdict(result, verdict, examined.bodyProblem);
}

/** No response to show: a resumed walk already at its end, or a request that got no answer. */
function unanswered(ready: Ready, walked: WalkResult, notices: string[]): ExchangeResult {
  const { prepared, operation, request } = ready;
  if (walked.verdict === 'complete') {
    // A resumed walk whose checkpoint was already at its end: nothing to send, nothing missing.
    return { ok: true, prepared, request, ...(operation ? { operation } : {}), walk: walked, pages: walked.pages, rows: { path: rowsRule(walked.checkpoint.plan.style, walked.checkpoint.plan.options).declared, items: [], count: walked.rows }, businessFailures: [], notices: [...notices, walked.message], findings: [] };
  }
  return { ok: false, prepared, request, ...(operation ? { operation } : {}), walk: walked, businessFailures: [], notices, findings: [], problem: walked.failure?.message ?? walked.message };
}

/** The response received: what it says of itself in notices (a refusal not waited out, redirects), kept by name. */
function receivedStep(response: HttpResponse, sent: Sent, ready: Ready, input: ExchangeInput, notices: string[]): HttpResponse {
  const { walked } = sent;
  // A refused send not sent again says why (no Retry-After, or a wait beyond the bound).
  if (input.pages === 'first' && walked.failure?.kind === 'http' && isRefusal(response.status)) notices.push(walked.failure.message);
  if (response.redirects) for (const hop of response.redirects) {
    notices.push(`redirected (${hop.status}) to ${hop.to}${hop.crossOrigin ? `, another origin: ${droppedWords(hop.dropped)}` : ''}`);
  }
  const name = ready.prepared.resolved.name;
  if (name && response.bodyText) input.remember?.set(name, namedResponse(ready.request, response, response.bodyText));
  return response;
}

/** A response kept under its request's name, with the origin it came from (its last redirect's, else the request's). */
export function namedResponse(request: HttpRequest, response: HttpResponse, bodyText: string): NamedResponse {
  const from = response.redirects?.[response.redirects.length - 1]?.to ?? request.url;
  return { status: response.status, headers: response.headers, bodyText, origin: originOf(from) };
}

/** The body, its rows, business errors and auth failures in words. */
function examine(sent: Sent, response: HttpResponse, ready: Ready, first: boolean): {
  body: unknown; rows: RowsOfExchange | undefined; business: BusinessErrorReport | undefined; businessFailures: string[]; auth: AuthExplanation | undefined; bodyProblem: string | undefined;
} {
  const { prepared, operation } = ready;
  // The body as the walk parsed it (once; its parse already measured the depth); a page it refused was
  // not parsed into rows: read it here, measured first. Rows nested that deep would overflow everything
  // after the parse: the request fails, named, and a run goes on.
  const parsedByWalk = sent.kept && (sent.body !== undefined || !response.bodyText);
  const tooDeep = !parsedByWalk && response.bodyText ? jsonTextTooDeep(response.bodyText) : undefined;
  const body = parsedByWalk ? sent.body : tooDeep ? undefined : parseJson(response.bodyText);
  const business = body !== undefined ? detectBusinessErrors(body, operation?.errorCatalogue) : undefined;
  return {
    body,
    rows: rowsOf(sent, body, first),
    business,
    businessFailures: business?.failed ? business.failures.map((f) => businessFailureWords(f, business.catalogue)) : [],
    auth: explainAuthFailure({ status: response.status, bodyText: response.bodyText, scheme: prepared.scheme, service: operation?.service, family: operation?.family }),
    bodyProblem: tooDeep ? `the response body ${tooDeepText(tooDeep.limit)}; its rows were not read` : undefined,
  };
}

interface Verdict {
  readonly ok: boolean;
  readonly problem: string | undefined;
  readonly walkProblem: string | undefined;
  readonly hardFailure: boolean;
  readonly expectable: readonly ExpectableFailure[];
}

/** The verdict step: ok, and why not (an HTTP status in words, the walk, the body, a step's failure). */
function verdictOf(response: HttpResponse, walkProblem: string | undefined, bodyProblem: string | undefined, authSummary: string | undefined, businessFailures: readonly string[], findings: readonly Finding[]): Verdict {
  const status = response.status;
  const httpProblem = status >= 400
    ? authSummary ?? ([response.statusText, businessFailures.join('; ')].filter(Boolean).join(': ') || `HTTP ${status}`)
    : undefined;
  const hardFailure = walkProblem !== undefined || bodyProblem !== undefined || findings.some((f) => f.severity === 'failure');
  const expectable: ExpectableFailure[] = [];
  if (status >= 400) expectable.push('status');
  if (businessFailures.length > 0) expectable.push('business');
  return { ok: !hardFailure && expectable.length === 0, problem: httpProblem ?? bodyProblem ?? walkProblem, walkProblem, hardFailure, expectable };
}

function withVerdict(result: Mutable<ExchangeResult>, verdict: Verdict, bodyProblem: string | undefined): ExchangeResult {
  if (verdict.problem) result.problem = verdict.problem;
  if (bodyProblem) result.unreadable = bodyProblem;
  if (verdict.walkProblem) result.incomplete = verdict.walkProblem;
  if (!verdict.ok && !verdict.hardFailure) result.failedOnlyOn = verdict.expectable;
  return result;
}

/** The paging cursor of a paged exchange that can be continued. */
function cursorOf(walked: WalkResult, ready: Ready, input: ExchangeInput, guard: ExchangePorts['guard']): PagingCursor | undefined {
  const plan = walked.checkpoint.plan;
  if (plan.style === 'none' || (walked.pages === 0 && input.pages === 'first') || input.continuable === false) return undefined;
  const stopped = stoppedWords(walked);
  return { plan, checkpoint: walked.checkpoint, first: withoutSecrets(ready.request, guard), more: canContinue(walked), environment: input.prepare.environment.name, ...(stopped ? { stopped } : {}) };
}

/** The send step: the walk of one page ('first') or of every page ('all'), and the response shown. */
async function walkOf(ready: Ready, input: ExchangeInput, ports: ExchangePorts): Promise<Sent> {
  const first = input.pages === 'first';
  // Steps and later requests read the body whole: one streamed to rowsTo is kept in a spill file for them.
  const keep = first && input.rowsTo && ((input.steps?.length ?? 0) > 0 || input.remember !== undefined);
  const receiving = receivingPort(ports.http, keep === true, input.keepBodyWithin);
  const memory = memorySink();
  // Rows stream to rowsTo as they arrive, wherever the rule finds them (paging/anywhereFetch.ts without a style).
  const rowsTo = first ? input.rowsTo : undefined;
  const walkOptions = walkOptionsOf(ready, input, ports, first ? (rowsTo ?? memory) : (input.walk?.sink ?? DISCARD));
  walkOptions.http = receiving.http;
  if (rowsTo) walkOptions.rowsAsTheyArrive = true;
  let lastPage: HttpResponse | undefined;
  let lastBody: unknown;
  let lastRowsPath: string | undefined;
  walkOptions.onPage = (event) => {
    lastPage = event.response.bodyText || !lastPage ? event.response : { ...event.response, bodyText: lastPage.bodyText };
    lastBody = event.body;
    lastRowsPath = event.rowsPath;
    return input.walk?.onPage?.(event);
  };
  const walked = await walk(ready.request, walkOptions);
  // The page a walk kept is the one shown; a page it refused (401, broken JSON) is shown as received.
  const response = lastPage ?? receiving.received();
  return { walked, response, kept: lastPage !== undefined && response === lastPage, body: lastBody, rowsPath: lastRowsPath, kept_rows: memory.pages.flat(), streamedTo: rowsTo !== undefined, keptBody: receiving.kept };
}

/** A refused streamed page's text is shown when its body is within this size. */
const SHOWN_BODY_BYTES = 256 * 1024;

/**
 * The HTTP port around the host's: the response as received, whatever the walker makes of it (a 401 is
 * a failed walk but a response to show); of a streamed one, its body's text when it is small.
 */
function receivingPort(port: ExchangePorts['http'], keep: boolean, keepWithin?: number): { http: ExchangePorts['http']; received(): HttpResponse | undefined; readonly kept: KeptBody | undefined } {
  let received: HttpResponse | undefined;
  let parts: Buffer[] | undefined;
  let kept: KeptBody | undefined;
  const http = {
    send: async (r: Parameters<ExchangePorts['http']['send']>[0], o?: SendOptions) => (received = await port.send(r, o)),
    stream: async (r: Parameters<ExchangePorts['http']['stream']>[0], o?: SendOptions) => {
      const s = await port.stream(r, o);
      received = { status: s.status, statusText: s.statusText, headers: s.headers, bodyText: '', timing: { startedAt: s.startedAt, firstByteMs: s.firstByteMs, totalMs: s.firstByteMs }, sizeBytes: 0 };
      const held: Buffer[] = [];
      parts = held;
      let size = 0;
      // A response sent again (a refusal waited out) starts its kept body anew.
      await kept?.remove();
      const body = keep ? new KeptBody(keepWithin) : undefined;
      kept = body;
      return { ...s, read: (each: (chunk: Buffer) => void | Promise<void>) => s.read((chunk) => {
        size += chunk.length;
        if (size <= SHOWN_BODY_BYTES) held.push(chunk);
        else if (parts === held) parts = undefined;
        if (!body) return each(chunk);
        const taken = each(chunk);
        return Promise.all([body.write(chunk), taken]).then(() => undefined);
      }), discard: () => s.discard() };
    },
  };
  return {
    http,
    get kept() {
      return kept;
    },
    received() {
      // A page refused is shown with its body's text, when it was small enough to keep.
      if (!received || received.bodyText || !parts?.length) return received;
      const bytes = Buffer.concat(parts);
      return { ...received, bodyText: bytes.toString('utf8'), sizeBytes: bytes.length };
    },
  };
}

/** What the walk of an exchange is given. */
function walkOptionsOf(ready: Ready, input: ExchangeInput, ports: ExchangePorts, sink: RowSink): Mutable<WalkOptions> {
  const first = input.pages === 'first';
  // Options set one by one, not spread from conditional literals: each property after a spread in a
  // literal is defined through the runtime, and this runs for every request of a run.
  const walkOptions: Mutable<WalkOptions> = { sink, sendOptions: sendOptionsOf(ports, ready.prepared.resolved.directives) };
  if (ready.plan) walkOptions.plan = ready.plan;
  else if (ready.detectOptions) walkOptions.detectOptions = ready.detectOptions;
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
  const renewal = first ? undefined : walkCredentials(input, ports);
  if (renewal) walkOptions.credentials = renewal;
  if (!first && input.walk?.onProgress) walkOptions.onProgress = input.walk.onProgress;
  return walkOptions;
}

/** The rows step: where the walk found them, or the one rows rule asked of the body shown. */
function rowsOf(sent: Sent, body: unknown, first: boolean): RowsOfExchange | undefined {
  const { walked } = sent;
  const plan: PagingPlan = walked.checkpoint.plan;
  const rule = rowsRule(plan.style, plan.options);
  const path = sent.rowsPath ?? rule.declared;
  if (!first || (sent.streamedTo && walked.pages > 0)) return { path, items: [], count: walked.rows };
  // A page not kept whose rows fully received went to rowsTo as they arrived: those are its rows.
  if (sent.streamedTo && walked.arrivedRows !== undefined) return { path, items: [], count: walked.arrivedRows };
  if (plan.style !== 'none' && walked.pages > 0) return { path, items: sent.kept_rows, count: walked.rows };
  // Rows refused as given (a rows key twice...): none to show; JSON.parse of the text shown (as far as it
  // was read) would pick what the refusal says cannot be told.
  if (walked.failure?.kind === 'rows') return undefined;
  // A page that failed for its status (an error response) is not a page of rows, whatever its size: none
  // counted (only its text up to SHOWN_BODY_BYTES is kept, so counting would depend on the size).
  if (walked.failure?.kind === 'http') return undefined;
  // An unpaged page, a page refused: the same rule asked of the body shown; no rows where it finds none.
  const found = rule.find(body);
  return found.ok ? { path: found.path, items: found.rows, count: found.rows.length } : undefined;
}

/** "code 1 Missing mandatory fields (SurveyApi: Missing mandatory fields)". */
export function businessFailureWords(failure: BusinessFailure, catalogue: string | undefined): string {
  const code = failure.code === undefined ? '' : `code ${failure.code} `;
  const meanings = failure.meanings.length
    ? ` (${catalogue ?? 'catalogue'}: ${failure.meanings.join(' | ')}${failure.ambiguous ? ', ambiguous as published' : ''})`
    : failure.unknownCode ? ` (not in the ${catalogue ?? ''} catalogue)` : '';
  return `${code}${failure.message}${meanings}`.trim();
}

function parseJson(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
