// One compact line per request for `apiwb run` (then a line per failed assertion and per script not
// run), already redacted by the caller's Redactor:
//   ✓ listConstituents  GET http://127.0.0.1:4711/v1/constituents  200  12 ms (server 9 ms)  50 rows
//   ✗ wrongSecret  POST …/token  — engagement sign-in failed: invalid_grant — The user name or password is incorrect.
// Every part a file or a server supplied goes through terminalSafe: a server cannot forge a ✓ line.
import { terminalSafe } from '../../core/text/terminalText';

import type { AssertionResult, NotRun } from '../../core/run/assertions';
import type { ReportedError } from './report';

export interface RequestOutcome {
  /** The file as shown and the one-based line of the request line. */
  readonly file: string;
  readonly line: number;
  readonly label: string;
  readonly method: string;
  /** Redacted. */
  readonly url: string;
  readonly status?: number;
  /** Until the request's result was known: the whole body read, its rows and checks. */
  readonly totalMs?: number;
  /** How long the server took: until the response's headers arrived. */
  readonly serverMs?: number;
  readonly rows?: number;
  readonly pages?: number;
  /** A walk's pages, duration, rates and waits in words ("80 pages in 2.10 s · 38 pages/s · …"). */
  readonly walkSummary?: string;
  /** Business failures inside a 200, already in words ("SurveyApi code 1: Missing mandatory fields"). */
  readonly businessFailures: readonly string[];
  /** Why the request failed when it has no usable response, or the 401/403 explanation. */
  readonly problem?: string;
  /** Results of the request's `??` lines (zero-based lines, as the core gives them). */
  readonly assertions?: readonly AssertionResult[];
  /** Other tools' scripts in the request's block, kept and not run. */
  readonly notRun?: readonly NotRun[];
  /** Contract drift findings that fail the request, in words (redacted): carried into the reports. */
  readonly drift?: readonly string[];
  /** `apiwb compare`: the request's record counts, carried into the reports. */
  readonly compare?: CompareCounts;
  /** Lines printed under the summary line, indented (e.g. contract drift findings). */
  readonly details?: readonly string[];
  readonly ok: boolean;
  /** Not ok for a reason other than its response (reports: a JUnit error, not a failure). */
  readonly error?: ReportedError;
}

export interface CompareCounts {
  readonly added: number;
  readonly removed: number;
  readonly changed: number;
  readonly unchanged: number;
}

export function formatOutcome(outcome: RequestOutcome, color: boolean): string {
  const mark = outcome.ok ? paint('✓', 32, color) : paint('✗', 31, color);
  const parts = [`${mark} ${terminalSafe(outcome.label)}`, terminalSafe(`${outcome.method} ${outcome.url}`)];
  if (outcome.status !== undefined) parts.push(paint(String(outcome.status), outcome.status >= 400 ? 31 : 32, color));
  if (outcome.totalMs !== undefined) parts.push(`${Math.round(outcome.totalMs)} ms${outcome.serverMs === undefined ? '' : ` (server ${Math.round(outcome.serverMs)} ms)`}`);
  if (outcome.rows !== undefined) parts.push(`${outcome.rows} row${outcome.rows === 1 ? '' : 's'}`);
  if (outcome.walkSummary) parts.push(outcome.walkSummary);
  else if (outcome.pages !== undefined && outcome.pages > 1) parts.push(`${outcome.pages} pages`);
  const assertions = outcome.assertions ?? [];
  const failed = assertions.filter((a) => a.outcome === 'failed');
  if (assertions.length) parts.push(`${assertions.length - failed.length}/${assertions.length} assertions`);
  let line = parts.join('  ');
  if (outcome.businessFailures.length) line += `  business failure: ${terminalSafe(outcome.businessFailures.join('; '))}`;
  if (outcome.problem) line += `  — ${terminalSafe(outcome.problem)}`;
  const file = outcome.file;
  for (const a of failed) line += `\n    ${paint('✗', 31, color)} ${file}:${a.line + 1}  ?? ${terminalSafe(a.text)}  expected ${terminalSafe(a.expected)}, actual ${terminalSafe(a.actual)}`;
  for (const n of outcome.notRun ?? []) line += `\n    · ${file}:${n.line + 1}  not run: ${terminalSafe(n.what)}`;
  for (const detail of outcome.details ?? []) line += `\n    ${terminalSafe(detail)}`;
  return line;
}

export function formatTotals(outcomes: readonly RequestOutcome[], elapsedMs: number): string {
  const failed = outcomes.filter((o) => !o.ok).length;
  const rows = outcomes.reduce((sum, o) => sum + (o.rows ?? 0), 0);
  const assertions = outcomes.flatMap((o) => o.assertions ?? []);
  const checked = assertions.length ? `, ${assertions.length} assertions (${assertions.filter((a) => a.outcome === 'failed').length} failed)` : '';
  // Tests of other tools' scripts were not run: counted as skipped, never as passed.
  const skipped = outcomes.reduce((sum, o) => sum + (o.notRun ?? []).reduce((n, x) => n + (x.tests?.length ?? 0), 0), 0);
  const notRun = skipped ? `, ${skipped} test${skipped === 1 ? '' : 's'} skipped (not run)` : '';
  return `${outcomes.length} request${outcomes.length === 1 ? '' : 's'}, ${failed} failed, ${rows} rows, ${Math.round(elapsedMs)} ms${checked}${notRun}`;
}

function paint(text: string, code: number, color: boolean): string {
  return color ? `\u001b[${code}m${text}\u001b[0m` : text;
}
