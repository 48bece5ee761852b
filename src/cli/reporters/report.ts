// Reports of `apiwb run` for CI systems: JUnit XML, JSON, and GitHub workflow-command annotations.
// One record per request (where it is written, what came back, each assertion with expected and actual,
// what was not run). Every string goes through the run's Redactor before a report is written.
import type { AssertionResult, NotRun } from '../../core/run/assertions';
import type { Redactor } from '../../core/secrets/redact';
import { terminalSafe } from '../../core/text/terminalText';

export const REPORTERS = ['junit', 'json', 'github'] as const;
export type ReporterName = (typeof REPORTERS)[number];

export interface ReportedRequest {
  /** The file as shown to the user (relative to the working directory when below it). */
  readonly file: string;
  /** One-based line of the request line. */
  readonly line: number;
  readonly label: string;
  readonly method: string;
  readonly url: string;
  readonly status?: number;
  readonly durationMs?: number;
  readonly rows?: number;
  readonly pages?: number;
  readonly ok: boolean;
  readonly problem?: string;
  readonly businessFailures: readonly string[];
  /** Contract drift findings that failed the request (`--check-contract`), each in words with its path and section. */
  readonly drift?: readonly string[];
  /** `apiwb compare`: records added, removed, changed and unchanged between the two sides. */
  readonly compare?: { readonly added: number; readonly removed: number; readonly changed: number; readonly unchanged: number };
  /** Lines are one-based here. */
  readonly assertions: readonly AssertionResult[];
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
  readonly failed: number;
  readonly assertions: number;
  readonly assertionsFailed: number;
}

export function totalsOf(report: RunReport): ReportTotals {
  const assertions = report.requests.flatMap((r) => r.assertions);
  return {
    requests: report.requests.length,
    failed: report.requests.filter((r) => !r.ok).length,
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

const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/** XML 1.0 text: escaped, and characters XML cannot carry (most C0 controls, lone surrogates) dropped. */
function xml(text: string): string {
  return text.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '')
    .replace(/[&<>"']/g, (c) => XML_ESCAPES[c] ?? c);
}

const seconds = (ms: number | undefined): string => ((ms ?? 0) / 1000).toFixed(3);

/** JUnit XML: a testsuite per file, a testcase per request, one failure element holding every reason. */
export function junitReport(report: RunReport): string {
  const totals = totalsOf(report);
  const files = [...new Set(report.requests.map((r) => r.file))];
  const out = ['<?xml version="1.0" encoding="UTF-8"?>'];
  out.push(`<testsuites name="apiwb run" tests="${totals.requests}" failures="${totals.failed}" errors="0" time="${seconds(report.durationMs)}" timestamp="${xml(report.startedAt)}">`);
  for (const file of files) {
    const requests = report.requests.filter((r) => r.file === file);
    const failed = requests.filter((r) => !r.ok).length;
    const time = requests.reduce((sum, r) => sum + (r.durationMs ?? 0), 0);
    out.push(`  <testsuite name="${xml(file)}" tests="${requests.length}" failures="${failed}" errors="0" skipped="0" time="${seconds(time)}" timestamp="${xml(report.startedAt)}">`);
    for (const r of requests) {
      const attributes = `classname="${xml(file)}" name="${xml(r.label)}" file="${xml(file)}" line="${r.line}" time="${seconds(r.durationMs)}"`;
      const reasons = r.ok ? [] : failureLines(r);
      const notRun = r.notRun.map((n) => `${file}:${n.line}: not run: ${n.what}`);
      const passed = r.assertions.filter((a) => a.outcome === 'passed').map((a) => `${file}:${a.line}: ?? ${a.text} — passed (actual ${a.actual})`);
      const log = [`${r.method} ${r.url}${r.status === undefined ? '' : ` → ${r.status}`}`, ...passed, ...notRun];
      out.push(`    <testcase ${attributes}>`);
      if (!r.ok) {
        const message = reasons[0] ?? 'failed';
        out.push(`      <failure message="${xml(message)}" type="${r.assertions.some((a) => a.outcome === 'failed') ? 'assertion' : 'request'}">${xml(reasons.join('\n'))}</failure>`);
      }
      out.push(`      <system-out>${xml(log.join('\n'))}</system-out>`);
      out.push('    </testcase>');
    }
    out.push('  </testsuite>');
  }
  out.push('</testsuites>');
  return `${out.join('\n')}\n`;
}

/** GitHub Actions workflow commands: an error per failed assertion or request, a notice per script not run. */
export function githubReport(report: RunReport): string {
  // Workflow-command escapes first (CR and LF stay line breaks of the annotation), then every other control
  // character a server or a file put there becomes visible: this text goes to the terminal without --report.
  const data = (text: string): string => terminalSafe(text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A'));
  const property = (text: string): string => data(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
  const command = (kind: 'error' | 'notice', file: string, line: number, title: string, message: string): string =>
    `::${kind} file=${property(file)},line=${line},title=${property(title)}::${data(message)}`;
  const out: string[] = [];
  for (const r of report.requests) {
    const failedAssertions = r.assertions.filter((a) => a.outcome === 'failed');
    for (const a of failedAssertions) out.push(command('error', r.file, a.line, `apiwb: ${r.label}`, `?? ${a.text} — expected ${a.expected}, actual ${a.actual}`));
    if (!r.ok) {
      const other = failureLines({ ...r, assertions: [] });
      if (other.length || failedAssertions.length === 0) out.push(command('error', r.file, r.line, `apiwb: ${r.label}`, `${r.method} ${r.url}: ${other.join('; ') || 'failed'}`));
    }
    for (const n of r.notRun) out.push(command('notice', r.file, n.line, `apiwb: ${r.label}`, `not run: ${n.what}`));
  }
  const totals = totalsOf(report);
  out.push(`apiwb: ${totals.requests} requests, ${totals.failed} failed; ${totals.assertions} assertions, ${totals.assertionsFailed} failed`);
  return `${out.join('\n')}\n`;
}

export function renderReport(name: ReporterName, report: RunReport): string {
  return name === 'junit' ? junitReport(report) : name === 'json' ? jsonReport(report) : githubReport(report);
}
