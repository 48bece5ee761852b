// One compact line per request for `apiwb run`, already redacted by the caller's Redactor:
//   ✓ listConstituents  GET http://127.0.0.1:4711/v1/constituents  200  12 ms  50 rows
//   ✗ wrongSecret  POST …/token  — engagement sign-in failed: invalid_grant — The user name or password is incorrect.
// Every part a file or a server supplied goes through terminalSafe: a server cannot forge a ✓ line.
import { terminalSafe } from '../../core/text/terminalText';

export interface RequestOutcome {
  readonly label: string;
  readonly method: string;
  /** Redacted. */
  readonly url: string;
  readonly status?: number;
  readonly totalMs?: number;
  readonly rows?: number;
  readonly pages?: number;
  /** Business failures inside a 200, already in words ("SurveyApi code 1: Missing mandatory fields"). */
  readonly businessFailures: readonly string[];
  /** Why the request failed when it has no usable response, or the 401/403 explanation. */
  readonly problem?: string;
  readonly ok: boolean;
}

export function formatOutcome(outcome: RequestOutcome, color: boolean): string {
  const mark = outcome.ok ? paint('✓', 32, color) : paint('✗', 31, color);
  const parts = [`${mark} ${terminalSafe(outcome.label)}`, terminalSafe(`${outcome.method} ${outcome.url}`)];
  if (outcome.status !== undefined) parts.push(paint(String(outcome.status), outcome.status >= 400 ? 31 : 32, color));
  if (outcome.totalMs !== undefined) parts.push(`${Math.round(outcome.totalMs)} ms`);
  if (outcome.rows !== undefined) parts.push(`${outcome.rows} row${outcome.rows === 1 ? '' : 's'}`);
  if (outcome.pages !== undefined && outcome.pages > 1) parts.push(`${outcome.pages} pages`);
  let line = parts.join('  ');
  if (outcome.businessFailures.length) line += `  business failure: ${terminalSafe(outcome.businessFailures.join('; '))}`;
  if (outcome.problem) line += `  — ${terminalSafe(outcome.problem)}`;
  return line;
}

export function formatTotals(outcomes: readonly RequestOutcome[], elapsedMs: number): string {
  const failed = outcomes.filter((o) => !o.ok).length;
  const rows = outcomes.reduce((sum, o) => sum + (o.rows ?? 0), 0);
  return `${outcomes.length} request${outcomes.length === 1 ? '' : 's'}, ${failed} failed, ${rows} rows, ${Math.round(elapsedMs)} ms`;
}

function paint(text: string, code: number, color: boolean): string {
  return color ? `\u001b[${code}m${text}\u001b[0m` : text;
}
