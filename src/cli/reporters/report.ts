// Reports of `apiwb run` for CI systems: JUnit XML (./junit.ts), JSON (here), and GitHub workflow-command
// annotations (./github.ts), chosen in ./runReport.ts. One entry per request, and per request not run or input error of the run;
// every entry has a file and a one-based line (the request's; the file's first line for a file-level
// error). A test another tool's script would have run is counted as skipped, never as passed. Every string
// goes through the run's Redactor before a report is written.
import type { AssertionResult, NotRun } from '../../core/run/assertions';
import type { Redactor } from '../../core/secrets/redact';

export const REPORTERS = ['junit', 'json', 'github'] as const;
export type ReporterName = (typeof REPORTERS)[number];

/**
 * Why an entry that is not ok is an error (JUnit `<error>`: the test could not be carried out) and not a
 * failure (a response that did not meet what was expected): no response came back (the connection, TLS,
 * the deadline, the sign-in, or not sent), an input fault of the run (exit 2), or a request not run.
 */
export type ReportedError = 'no-response' | 'input' | 'not-run';

export interface ReportedRequest {
  /** The file as shown to the user (relative to the working directory when below it). Never empty. */
  readonly file: string;
  /** One-based line of the request line (the file's first line for a file-level error). Never 0. */
  readonly line: number;
  readonly label: string;
  readonly method: string;
  readonly url: string;
  readonly status?: number;
  readonly durationMs?: number;
  readonly rows?: number;
  readonly pages?: number;
  readonly ok: boolean;
  /** Set on an entry that is not ok for a reason other than its response. */
  readonly error?: ReportedError;
  readonly problem?: string;
  readonly businessFailures: readonly string[];
  /** Contract drift findings that failed the request (`--check-contract`), each in words with its path and section. */
  readonly drift?: readonly string[];
  /** `apiwb compare`: records added, removed, changed and unchanged between the two sides. */
  readonly compare?: { readonly added: number; readonly removed: number; readonly changed: number; readonly unchanged: number };
  /** Lines are one-based here. */
  readonly assertions: readonly AssertionResult[];
  /** Other tools' constructs kept and not run; `tests` names the tests each would have run (skipped). */
  readonly notRun: readonly NotRun[];
}

export interface RunReport {
  readonly tool: 'apiwb';
  readonly version: string;
  readonly startedAt: string;
  readonly durationMs: number;
  readonly requests: readonly ReportedRequest[];
}

export interface ReportTotals {
  readonly requests: number;
  /** Entries not ok, for any reason (failures + errors). */
  readonly failed: number;
  /** Not ok with a response that did not meet what was expected (JUnit `<failure>`). */
  readonly failures: number;
  /** Not ok without one: no response, an input fault, a request not run (JUnit `<error>`). */
  readonly errors: number;
  /** Tests of other tools' scripts that were not run (JUnit `<skipped/>`). */
  readonly skipped: number;
  readonly assertions: number;
  readonly assertionsFailed: number;
}

/** The tests of an entry's constructs that were not run, each with the construct it is in. */
export function skippedTests(request: Pick<ReportedRequest, 'notRun'>): { readonly name: string; readonly notRun: NotRun }[] {
  return request.notRun.flatMap((n) => (n.tests ?? []).map((name) => ({ name, notRun: n })));
}

export function totalsOf(report: RunReport): ReportTotals {
  const assertions = report.requests.flatMap((r) => r.assertions);
  const failed = report.requests.filter((r) => !r.ok);
  const errors = failed.filter((r) => r.error !== undefined).length;
  return {
    requests: report.requests.length,
    failed: failed.length,
    failures: failed.length - errors,
    errors,
    skipped: report.requests.reduce((sum, r) => sum + skippedTests(r).length, 0),
    assertions: assertions.length,
    assertionsFailed: assertions.filter((a) => a.outcome === 'failed').length,
  };
}

/** The same report with every string scrubbed of the run's secrets. */
export function redactReport(report: RunReport, redactor: Redactor): RunReport {
  const scrub = (value: unknown): unknown => {
    if (typeof value === 'string') return redactor.text(value);
    if (Array.isArray(value)) return value.map(scrub);
    if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, scrub(v)]));
    return value;
  };
  return scrub(report) as RunReport;
}

/** Why a request failed, in one line: its problem, business failures, contract drift and failed assertions. */
export function failureLines(request: ReportedRequest): string[] {
  const lines: string[] = [];
  if (request.problem) lines.push(request.problem);
  else if (request.status !== undefined && request.status >= 400) lines.push(`HTTP ${request.status}`);
  for (const failure of request.businessFailures) lines.push(`business failure: ${failure}`);
  for (const finding of request.drift ?? []) lines.push(`contract drift: ${finding}`);
  for (const a of request.assertions.filter((x) => x.outcome === 'failed')) lines.push(assertionFailure(request.file, a));
  return lines;
}

export function assertionFailure(file: string, a: AssertionResult): string {
  return `${file}:${a.line}: ?? ${a.text} — expected ${a.expected}, actual ${a.actual}`;
}

export function jsonReport(report: RunReport): string {
  return `${JSON.stringify({ ...report, totals: totalsOf(report) }, null, 2)}\n`;
}
