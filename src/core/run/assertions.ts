// Checks a request's `??` assertions against what its exchange produced. Declarative only: values are
// read (status, a header, a JSON path, the time, the business report, the row count) and compared; no
// script is run. The scripts other tools would run (`?? js`, JetBrains `> {% %}`/`< {% %}`, httpYac
// `{{ }}`) are listed by `notRunOf` so every caller can say they were not run.
import { createHash } from 'node:crypto';
import type { AssertionNode, HttpFile, HttpRequestNode, KeptConstruct, RequestBlock } from '../httpfile/model';
import { predicateNamed } from '../httpfile/assertions';
import { evaluateJsonPath, parseJsonPath } from '../httpfile/jsonPathLite';
import { detectBusinessErrors, type BusinessErrorReport } from '../catalog/businessErrors';
import type { ErrorCatalogueId } from '../catalog/model';
import { headerValue } from '../http/types';
import { Redactor, REDACTED } from '../secrets/redact';
import { isCredentialHeader, isSecretName, JWTS_IN_TEXT } from '../secrets/vocabulary';
import { cutShown } from '../text/excerpt';
import type { ExchangeResult, ExchangeStep, Finding } from './exchange';
import { httpYacTests, jetBrainsTests } from './scriptTests';
import { isUnsentRequest, unsentRequestsIn } from './notRun';

/** What an exchange produced, as the assertions see it. */
export interface AssertedExchange {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly bodyText: string;
  /** The whole exchange (every page of a walk). */
  readonly durationMs: number;
  /** Rows the response held (all pages after a walk); undefined when it holds no row collection. */
  readonly rows?: number;
  /** The matched operation's error catalogue, so business codes are read the service's way. */
  readonly errorCatalogue?: ErrorCatalogueId;
}

export type AssertionOutcome = 'passed' | 'failed';

export interface AssertionResult {
  /** Zero-based line of the `??` line. */
  readonly line: number;
  /** The assertion as written after `??`. */
  readonly text: string;
  /** What it checks: status, header, body, duration, business, rows. */
  readonly subject: string;
  readonly outcome: AssertionOutcome;
  /** What the line asks for, in words (`== 200`, `exists`). */
  readonly expected: string;
  /** What the response held (a JSON rendering, its first 200 characters once redacted: ../text/excerpt.ts), or why it could not be read. */
  readonly actual: string;
}

/** A construct of another tool that would run code: kept in the file, reported as not run. */
export interface NotRun {
  readonly line: number;
  readonly what: string;
  /** The tests it holds, by name (./scriptTests.ts): each is a test not run, reported as skipped. */
  readonly tests?: readonly string[];
}

const ABSENT = Symbol('absent');
type Actual = unknown;

export function evaluateAssertions(assertions: readonly AssertionNode[], exchange: AssertedExchange): AssertionResult[] {
  let business: BusinessErrorReport | undefined;
  const businessReport = (): BusinessErrorReport => {
    business ??= detectBusinessErrors(parseJson(exchange.bodyText), exchange.errorCatalogue);
    return business;
  };
  return assertions.map((assertion) => evaluateOne(assertion, exchange, businessReport));
}

function evaluateOne(a: AssertionNode, exchange: AssertedExchange, businessReport: () => BusinessErrorReport): AssertionResult {
  const result = (outcome: AssertionOutcome, expected: string, actual: string): AssertionResult =>
    ({ line: a.range.start.line, text: a.text, subject: a.subject, outcome, expected, actual: cutShown(actual, 200) });
  const expectedText = `${a.predicate}${a.expected ? ` ${a.expected}` : ''}`.trim();

  if (a.subject === 'business' && a.argument === 'ok') {
    const report = businessReport();
    return result(report.failed ? 'failed' : 'passed', 'no business error', report.failed ? describeFailures(report) : 'no business error');
  }
  const read = actualOf(a, exchange, businessReport);
  if ('problem' in read) return result('failed', expectedText, read.problem);
  const predicate = predicateNamed(a.predicate);
  if (!predicate) return result('failed', expectedText, `'${a.predicate}' is not a comparison this product checks`);
  const verdict = compare(predicate.names[0] ?? '', read.value, a.expected);
  return result(verdict ? 'passed' : 'failed', expectedText, shownActual(a, read.value));
}

/** Reads secret-named fields the shared vocabulary's way; no known values (the run's Redactor adds those later). */
const NAME_REDACTOR = new Redactor();

/**
 * The actual as reports, the terminal and the panel show it: the comparison used the real value, but a
 * credential header, a body path ending in a secret name, a secret-named field inside an object or a
 * whole body, and any JWT are masked (the vocabulary's rules, the same as every other redaction).
 */
function shownActual(a: AssertionNode, value: Actual): string {
  if (value === ABSENT || value === null || value === '') return render(value);
  if (a.subject === 'header' && isCredentialHeader(a.argument)) return REDACTED;
  if (a.subject === 'body' && a.argument && isSecretName(lastName(a.argument))) return REDACTED;
  const shown = typeof value === 'string' ? (a.subject === 'body' && !a.argument ? NAME_REDACTOR.body(value) : value)
    : render(typeof value === 'object' ? NAME_REDACTOR.row(value) : value);
  return shown.replace(JWTS_IN_TEXT, REDACTED);
}

/** The last name a JSON path reads (`$.data[0].token` → token); '' when it reads none. */
function lastName(path: string): string {
  const names = (parseJsonPath(path) ?? []).filter((step): step is string => typeof step === 'string');
  return names.at(-1) ?? '';
}

function actualOf(a: AssertionNode, exchange: AssertedExchange, businessReport: () => BusinessErrorReport): { value: Actual } | { problem: string } {
  switch (a.subject) {
    case 'status': return { value: exchange.status };
    case 'duration': return { value: Math.round(exchange.durationMs) };
    case 'header': {
      const value = headerValue(exchange.headers, a.argument);
      return { value: value === undefined ? ABSENT : value };
    }
    case 'rows': return exchange.rows === undefined ? { problem: 'the response holds no rows' } : { value: exchange.rows };
    case 'business': {
      const report = businessReport();
      const code = report.failures.find((f) => f.code !== undefined)?.code;
      return report.failed ? { value: code ?? ABSENT } : { value: ABSENT };
    }
    case 'body': {
      if (!a.argument) return { value: exchange.bodyText };
      const body = parseJson(exchange.bodyText);
      if (body === ABSENT) return { problem: 'the body is not JSON' };
      const found = evaluateJsonPath(body, a.argument);
      if (found.found) return { value: found.value };
      return found.reason === 'unsupported' ? { problem: `'${a.argument}' is not a path this product reads ($.a.b[0] or a.b[0])` } : { value: ABSENT };
    }
    default: return { problem: `'${a.subject}' is not a subject this product checks` };
  }
}

/** httpYac-style conversion: the written value is read as the type of what the response held. */
function convert(expected: string, like: Actual): unknown {
  const text = expected.trim();
  if (typeof like === 'number') return text === '' || Number.isNaN(Number(text)) ? text : Number(text);
  if (typeof like === 'boolean') return text === 'true' ? true : text === 'false' ? false : text;
  if (like === null) return text === 'null' ? null : text;
  if (typeof like === 'object') {
    try { return JSON.parse(text) as unknown; } catch { return text; }
  }
  return /^"(?:[^"\\]|\\.)*"$/.test(text) ? JSON.parse(text) as unknown : text;
}

function same(a: unknown, b: unknown): boolean {
  return typeof a === 'object' || typeof b === 'object' ? JSON.stringify(a) === JSON.stringify(b) : a === b;
}

function compare(predicate: string, actual: Actual, expected: string): boolean {
  const present = actual !== ABSENT;
  switch (predicate) {
    case '==': return present && same(actual, convert(expected, actual));
    case '!=': return !present || !same(actual, convert(expected, actual));
    case '<': case '<=': case '>': case '>=': return compareNumbers(predicate, actual, expected);
    case 'includes':
      if (Array.isArray(actual)) return actual.some((item) => same(item, convert(expected, item)));
      return typeof actual === 'string' && actual.includes(unquote(expected));
    case 'startsWith': return typeof actual === 'string' && actual.startsWith(unquote(expected));
    case 'endsWith': return typeof actual === 'string' && actual.endsWith(unquote(expected));
    case 'exists': return present && actual !== null;
    case 'isFalse': return !present || !actual;
    default: return TYPE_CHECKS.get(predicate)?.(actual) ?? textPredicate(predicate, actual, expected);
  }
}

/** The predicates that ask only what the value is. */
const TYPE_CHECKS: ReadonlyMap<string, (actual: Actual) => boolean> = new Map<string, (actual: Actual) => boolean>([
  ['isArray', (actual: Actual) => Array.isArray(actual)],
  ['isNumber', (actual: Actual) => typeof actual === 'number'],
  ['isString', (actual: Actual) => typeof actual === 'string'],
  ['isBoolean', (actual: Actual) => typeof actual === 'boolean'],
]);

/** `<`, `<=`, `>`, `>=`: both sides as numbers (a numeric text counts), false when either is not one. */
function compareNumbers(predicate: '<' | '<=' | '>' | '>=', actual: Actual, expected: string): boolean {
  const x = typeof actual === 'number' ? actual : typeof actual === 'string' && actual.trim() !== '' ? Number(actual) : NaN;
  const y = Number(expected);
  if (Number.isNaN(x) || Number.isNaN(y)) return false;
  return predicate === '<' ? x < y : predicate === '<=' ? x <= y : predicate === '>' ? x > y : x >= y;
}

/** httpYac's predicates on a value's text: `matches`, `sha256`, `sha512`, `md5`. */
function textPredicate(predicate: string, actual: Actual, expected: string): boolean {
  if (predicate === 'matches') return typeof actual === 'string' && matches(actual, unquote(expected));
  if (predicate === 'sha256' || predicate === 'sha512' || predicate === 'md5') return actual !== ABSENT && digestIs(predicate, actual, unquote(expected));
  return false;
}

/** httpYac's `matches`: a regular expression, written bare or as /…/flags; one that does not compile matches nothing. */
function matches(text: string, pattern: string): boolean {
  const literal = /^\/(.*)\/([a-z]*)$/s.exec(pattern);
  try {
    return new RegExp(literal ? literal[1] ?? '' : pattern, literal ? literal[2] : undefined).test(text);
  } catch {
    return false;
  }
}

/** httpYac's `sha256` / `sha512` / `md5`: the digest of the value's text (JSON for a non-string), compared as base64 or hex. */
function digestIs(algorithm: string, actual: Actual, expected: string): boolean {
  const hash = createHash(algorithm).update(typeof actual === 'string' ? actual : JSON.stringify(actual) ?? '');
  const digest = hash.digest();
  return expected === digest.toString('base64') || expected.toLowerCase() === digest.toString('hex');
}

function unquote(text: string): string {
  const t = text.trim();
  return /^"(?:[^"\\]|\\.)*"$/.test(t) ? JSON.parse(t) as string : t;
}

function parseJson(text: string): unknown {
  try { return JSON.parse(text) as unknown; } catch { return ABSENT; }
}

function render(value: Actual): string {
  if (value === ABSENT) return 'absent';
  return typeof value === 'string' ? value : JSON.stringify(value) ?? String(value);
}

function describeFailures(report: BusinessErrorReport): string {
  return report.failures.map((f) => `${f.code === undefined ? '' : `code ${f.code} `}${f.message}`.trim()).join('; ') || 'a business error';
}

/** What API Workbench did not do of another tool's construct, in a few words (after "not run: "). */
const NOT_RUN_WORDS: Record<Exclude<KeptConstruct['kind'], 'block-comment'>, (k: KeptConstruct) => string> = {
  'pre-request-script': () => 'pre-request script (< {% %})',
  'script-block': () => 'script block ({{ }})',
  'script-assertion': (k) => `script assertion (${k.text.trim()})`,
  import: () => 'JetBrains HTTP Client import (the imported requests are not loaded)',
  run: () => 'JetBrains HTTP Client run (the named request is not run from here)',
  curl: () => 'REST Client curl command (not sent)',
  'output-redirect': () => 'response redirect (the response is not written to that file)',
  'proto-import': () => 'httpYac gRPC proto import',
  'xpath-namespace': () => 'httpYac XPath namespace',
  'recorded-response': () => 'httpYac recorded response (not compared)',
  'graphql-fragment': () => 'httpYac GraphQL fragment (understood: joins the queries that spread it)',
  'previous-response': () => 'JetBrains HTTP Client previous-response reference (<>, not compared)',
  unrecognised: (k) => `a line API Workbench does not read (${k.text.trim().slice(0, 60)})`,
};

/** A request in another tool's form (a curl command) is not here: it is a request not run (notRun.ts: unsentRequestsIn), counted, not noted. */
function keptNotRun(kept: readonly KeptConstruct[]): NotRun[] {
  return kept.flatMap((k) => (k.kind === 'block-comment' || k.kind === 'graphql-fragment' || isUnsentRequest(k) ? [] : [withTests({ line: k.range.start.line, what: NOT_RUN_WORDS[k.kind](k) }, keptTests(k))]));
}

/** The tests a kept construct would have run (./scriptTests.ts). */
function keptTests(k: KeptConstruct): readonly string[] {
  if (k.kind === 'script-block') return httpYacTests(k.text);
  if (k.kind === 'pre-request-script') return jetBrainsTests(k.text);
  return k.kind === 'script-assertion' ? [`?? ${k.text.trim().replace(/^\?\?\s*/, '')}`] : [];
}

function withTests(notRun: NotRun, tests: readonly string[]): NotRun {
  return tests.length === 0 ? notRun : { ...notRun, tests };
}

/** Everything of other tools in a request's block that would run or act and here does not: handlers, scripts, redirects, … */
export function notRunOf(block: RequestBlock, request: HttpRequestNode): NotRun[] {
  if (request.responseHandlers.length === 0 && block.kept.length === 0) return [];
  const out: NotRun[] = [
    ...request.responseHandlers.map((h) => withTests(
      { line: h.range.start.line, what: h.kind === 'script' ? 'response handler script (> {% %})' : `response handler file (> ${h.text})` },
      h.kind === 'script' ? jetBrainsTests(h.text) : [],
    )),
    ...keptNotRun(block.kept),
  ];
  return out.sort((x, y) => x.line - y.line);
}

/** The same for the blocks of a file that hold no request (a file-level script block, an import line). */
export function fileNotRunOf(file: HttpFile): NotRun[] {
  return keptNotRun(file.blocks.filter((b) => !b.request).flatMap((b) => b.kept));
}

/**
 * What one Send of a request (the editor's) does not run, in line order: the file's own constructs (an
 * httpYac global `{{ }}` script runs before every request: said with every Send, as `apiwb run` says them
 * once per file run), the block's, and a request its block holds in another tool's form (notRun.ts).
 */
export function notRunOfSend(file: HttpFile, block: RequestBlock, request: HttpRequestNode): NotRun[] {
  const unsent = unsentRequestsIn(block).map((u) => ({ line: u.line - 1, what: `request not sent: ${u.reason}` }));
  return [...fileNotRunOf(file), ...notRunOf(block, request), ...unsent].sort((x, y) => x.line - y.line);
}

/** The name of the exchange step that checks assertions; its findings' `detail` is an AssertionResult. */
export const ASSERTIONS_STEP = 'assertions';

/**
 * The exchange step for a request's `??` lines (see ./README.md, "Adding a step"): one finding per
 * assertion, 'failure' when it does not hold (the exchange is then not ok), 'note' when it does.
 */
export function assertionStep(request: HttpRequestNode): ExchangeStep {
  return {
    name: ASSERTIONS_STEP,
    run: (view) => evaluateAssertions(request.assertions, {
      status: view.response.status,
      headers: view.response.headers,
      bodyText: view.response.bodyText,
      durationMs: view.response.timing.totalMs,
      ...(view.rows ? { rows: view.rows.count } : {}),
      ...(view.operation?.errorCatalogue ? { errorCatalogue: view.operation.errorCatalogue } : {}),
    }).map((result) => ({
      step: ASSERTIONS_STEP,
      severity: result.outcome === 'failed' ? 'failure' as const : 'note' as const,
      message: `?? ${result.text} — ${result.outcome === 'failed' ? `expected ${result.expected}, actual ${result.actual}` : 'passed'}`,
      detail: result,
    })),
  };
}

/**
 * The steps a request's `??` lines need: assertionStep, or none for a request without any (whose step
 * would find nothing): a run of a thousand such requests does not evaluate, await and merge a thousand
 * empty lists of findings.
 */
export function assertionSteps(request: HttpRequestNode): ExchangeStep[] {
  return request.assertions.length > 0 ? [assertionStep(request)] : [];
}

/** The assertion results among an exchange's findings. */
export function assertionResultsOf(findings: readonly Finding[]): AssertionResult[] {
  return findings.filter((f) => f.step === ASSERTIONS_STEP).map((f) => f.detail as AssertionResult);
}

/**
 * Whether the exchange passes once its assertions are taken into account: a request that asserts its
 * status (`?? status == 404`) or its business code (`?? business code == 12`) with `==` expects that
 * failure, so a passing `==` assertion of that subject makes that status >= 400 or that business failure
 * expected. Any other comparison (`?? status < 500`, `?? status exists`, `?? business code != 12`) excuses
 * nothing. Anything else that failed (no response, a walk or first page the paging engine refused, a
 * failed assertion or another step's failure) still fails.
 */
export function passesWithAssertions(result: ExchangeResult): boolean {
  if (result.ok) return true;
  // The exchange says which failures, if only those, a request could expect; anything else still fails.
  if (!result.failedOnlyOn) return false;
  const expects = assertionResultsOf(result.findings).filter((r) => r.outcome === 'passed' && isEquality(r));
  const statusExpected = expects.some((r) => r.subject === 'status');
  const businessExpected = expects.some((r) => r.subject === 'business' && r.text.split(/\s+/)[1] === 'code');
  return result.failedOnlyOn.every((failure) => (failure === 'status' ? statusExpected : businessExpected));
}

/** `==` (or `===`, `equals`): its `expected` starts with the predicate as written. */
function isEquality(result: AssertionResult): boolean {
  return predicateNamed(result.expected.split(/\s+/)[0] ?? '')?.names[0] === '==';
}
