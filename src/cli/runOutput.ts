// `apiwb run`'s output: one request's exchange result read back as its outcome (the summary line and
// every report's entry: file, line, status, rows, assertions, constructs not run, contract drift), every
// word of it redacted; and --out opened as the run's row sink. Printing is ./reporters/.
import type { RowSink } from '../core/export';
import { CONTRACT_STEP } from '../core/contract';
import type { ExchangeResult } from '../core/run/exchange';
import type { WalkResult } from '../core/paging/walker';
import { isConnectionFault } from '../core/http/faults';
import { walkSummaryWords } from '../core/results/walkProgress';
import { assertionResultsOf, fileNotRunOf, notRunOf, passesWithAssertions } from '../core/run/assertions';
import type { Redactor } from '../core/secrets/redact';
import type { Mutable } from '../core/mutable';
import { InputError } from './nodePorts/files';
import { openOutputSink, type OutputFormat, type OutputOptions } from './reporters/outputSink';
import type { RequestOutcome } from './reporters/summary';
import type { ReportedError } from './reporters/report';
import type { RunOptions } from './runArguments';
import { type PlannedRequest } from './runPlan';
import { timeInRun } from './overlapPort';
import { resumePoint, type ResumePoint } from './runResume';
import { lineRows, type RowsInOut } from './responseRows';
import { faultText } from '../core/text/faultText';

/** What a run's line and reports say of one request; a walk's result rides along for the run's verdicts. */
export type RunOutcome = RequestOutcome & { walk?: WalkResult };

/** What the outcome is read with besides the result: the run's redactor and options, and the run's own words. */
export interface OutcomeFacts {
  readonly redactor: Redactor;
  readonly options: Pick<RunOptions, 'allPages' | 'checkContract'>;
  /** Why the request's rows did not reach --out, when they did not. */
  readonly unwritten?: string | undefined;
  /** How a walk that is not complete continues (resumeWords). */
  readonly resume: (walk: WalkResult) => string;
  /** How long the request waited for the run's overlap before it went (overlapPort.ts): not its time. */
  readonly waitedMs?: number;
  /** A single response's rows left in --out (responseRows.ts): the count its line prints, and a note when not all its rows are there. */
  readonly rowsInOut?: RowsInOut;
}

/** One request's exchange result as its outcome, every text in it redacted. */
export function outcomeOf(item: PlannedRequest, label: string, result: ExchangeResult, facts: OutcomeFacts): RunOutcome {
  const { redactor, options, unwritten } = facts;
  const url = redactor.url(result.request?.url ?? (result.prepared.ok ? result.prepared.request.url : result.prepared.url) ?? item.node.requestLine.url);
  const response = result.response;
  const walk = options.allPages ? result.walk : undefined;
  const problem = problemWords(result, walk, facts);
  const redactText = (a: { expected: string; actual: string }): { expected: string; actual: string } => ({ expected: redactor.text(a.expected), actual: redactor.text(a.actual) });
  // Set one by one in the order the reports show them, not spread from conditional literals (each
  // property after a spread in a literal is defined through the runtime: every request of a run).
  const outcome = {} as Mutable<RunOutcome>;
  if (walk) outcome.walk = walk;
  outcome.file = item.shown;
  outcome.line = item.node.range.start.line + 1;
  outcome.label = label;
  outcome.method = item.node.requestLine.method;
  outcome.url = url;
  outcome.assertions = assertionResultsOf(result.findings).map((a) => ({ ...a, ...redactText(a) }));
  // The file's own (request-less) constructs are said with the first of its requests this run runs (runPlan.ts: saysFile).
  outcome.notRun = [...(item.saysFile ? fileNotRunOf(item.parsed) : []), ...notRunOf(item.block, item.node)].sort((x, y) => x.line - y.line);
  if (response) {
    outcome.status = response.status;
    outcome.totalMs = timeInRun(response, facts.waitedMs ?? 0);
    // A walk's line has its pages' time and rates instead.
    if (!walk) outcome.serverMs = response.timing.firstByteMs;
  }
  const rows = facts.rowsInOut ? lineRows(result.rows, facts.rowsInOut) : result.rows?.count;
  if (rows !== undefined) outcome.rows = rows;
  if (result.pages !== undefined) outcome.pages = result.pages;
  // A walk's rate, duration and waits; a single page says nothing more than its own line, unless it waited.
  if (walk && (walk.pages > 1 || walk.waits > 0)) outcome.walkSummary = walkSummaryWords(walk);
  outcome.businessFailures = result.businessFailures.map((f) => redactor.text(f));
  if (problem) outcome.problem = redactor.text(problem);
  contractOutcome(outcome, result, redactor, options.checkContract);
  outcome.ok = passesWithAssertions(result) && unwritten === undefined && !facts.rowsInOut?.fails;
  const error = outcome.ok ? undefined : errorOf(walk, result);
  if (error) outcome.error = error;
  return outcome;
}

/** What the line says went wrong: rows not written, the exchange's problem (and how a walk resumes), its notices, rows cut off --out. */
function problemWords(result: ExchangeResult, walk: WalkResult | undefined, facts: OutcomeFacts): string {
  const problem = result.problem && walk && walk.verdict !== 'complete' ? `${result.problem}${facts.resume(walk)}` : result.problem;
  return [facts.unwritten, problem, ...result.notices, facts.rowsInOut?.words].filter(Boolean).join('; ');
}

/**
 * Not ok without a response to judge: a JUnit error, not a failure. A connection lost after the headers
 * (dropped, reset, timed out mid-body) is no response either; a bad status or a business failure is a
 * failure. A checkpoint refused is an input fault.
 */
function errorOf(walk: WalkResult | undefined, result: ExchangeResult): ReportedError | undefined {
  if (walk?.failure?.kind === 'resume') return 'input';
  if (isConnectionFault(result.walk?.failure?.kind)) return 'no-response';
  return result.response ? undefined : 'no-response';
}

/** --check-contract: drift fails the request and is carried into the reports; every finding is a detail line. */
function contractOutcome(outcome: Mutable<RunOutcome>, result: ExchangeResult, redactor: Redactor, checkContract: boolean): void {
  const contract = result.findings.filter((f) => f.step === CONTRACT_STEP);
  const drift = contract.filter((f) => f.severity === 'failure');
  if (drift.length) outcome.drift = drift.map((f) => redactor.text(f.message));
  if (!checkContract) return;
  outcome.details = contract.length === 0
    ? ['contract: no drift']
    : [
        ...(drift.length ? [`contract drift: ${drift.length} finding${drift.length === 1 ? '' : 's'}`] : ['contract: no drift']),
        ...contract.map((f) => `  ${f.severity === 'failure' ? 'drift' : 'note'}: ${redactor.text(f.message)}`),
      ];
}

/** A request that threw on its way (not a response): the run goes on, this one named as failed. */
export function thrownOutcome(item: PlannedRequest, label: string, error: unknown, redactor: Redactor): RunOutcome {
  return {
    file: item.shown, line: item.node.range.start.line + 1, label, method: item.node.requestLine.method, url: redactor.url(item.node.requestLine.url),
    businessFailures: [], problem: redactor.text(faultText(error)), ok: false, error: 'no-response',
  };
}

/** A request skipped by a --resume that failed in the run being resumed: not sent again, failed still. */
export function failedWhenResumed(item: PlannedRequest, label: string, redactor: Redactor): RunOutcome {
  return {
    file: item.shown, line: item.node.range.start.line + 1, label, method: item.node.requestLine.method, url: redactor.url(item.node.requestLine.url),
    businessFailures: [], problem: 'it failed in the run being resumed (not sent again)', ok: false,
  };
}

/**
 * --out and --resume: where a --resume starts (runResume.ts; a record left beside --out goes with the
 * file it describes: replaced or removed only once this run's rows replace that file, resumeRecordOf),
 * and --out opened as the run's row sink (none without --out).
 */
export async function openRunOut(options: Pick<RunOptions, 'out' | 'format' | 'resume' | 'csvRaw'>, planned: readonly PlannedRequest[], secrets: () => readonly string[], replaceUnwritten: () => boolean): Promise<{ resume?: ResumePoint; sink?: RowSink }> {
  if (!options.out) return {};
  const resume = options.resume ? resumePoint(options.out, options.format, planned) : undefined;
  const sink = await openOut(options.out, options.format, secrets, {
    ...(resume?.record.checkpoint.sink ? { resume: resume.record.checkpoint.sink } : {}),
    replaceUnwritten,
    csvFormulas: options.csvRaw ? 'raw' : 'neutralise',
  });
  return resume ? { resume, sink } : { sink };
}

async function openOut(path: string, format: OutputFormat, secrets: () => readonly string[], output: OutputOptions): Promise<RowSink> {
  try {
    return await openOutputSink(path, format, secrets, output);
  } catch (error) {
    throw new InputError(`--out ${path}: ${faultText(error)}`);
  }
}
