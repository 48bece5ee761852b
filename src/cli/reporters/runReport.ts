// `apiwb run --reporter junit|json|github --report FILE`: the options, and the report written from the
// run's outcomes, its requests not run and its input fault (redacted by the run's Redactor). github without --report writes to stdout, where
// GitHub Actions reads workflow commands.
import { writeOwnFile } from '../../core/files/ownFile';
import type { Redactor } from '../../core/secrets/redact';
import { VERSION } from '../version';
import { jsonReport, redactReport, REPORTERS, type ReportedRequest, type ReporterName, type RunReport } from './report';
import { githubReport, type AnnotationPaths } from './github';
import { junitReport } from './junit';
import type { RequestOutcome } from './summary';

export const REPORT_HELP = `  --reporter R        also write a report: junit (JUnit XML), json, or github (workflow-command
                      annotations with file and line, relative to the repository root:
                      GITHUB_WORKSPACE, else the git work tree); secrets are redacted in every report.
                      Tests of other tools' scripts are counted as skipped; no response or an input
                      error is an error (the report is written on an input error too)
  --report FILE       where the report goes (junit and json need it; github without it: stdout)
`;

export function reporterOptions(reporter: string | undefined, report: string | undefined): { reporter?: ReporterName; report?: string } {
  if (reporter === undefined && report === undefined) return {};
  const name = reporter ?? (report && /\.xml$/i.test(report) ? 'junit' : report && /\.json$/i.test(report) ? 'json' : undefined);
  if (name === undefined) throw new Error('--report FILE needs --reporter junit, json or github (or a .xml or .json file name)');
  if (!(REPORTERS as readonly string[]).includes(name)) throw new Error(`--reporter must be junit, json or github, not '${name}'`);
  if (name !== 'github' && !report) throw new Error(`--reporter ${name} needs --report FILE`);
  return { reporter: name as ReporterName, ...(report ? { report } : {}) };
}

/**
 * A request of the run's files that was not run (another tool's request kind, a request line the product
 * cannot send, a problem of that request alone): an entry of every report, an error, with the reason.
 * `line` is one-based, as shown.
 */
export interface NotRunRequest {
  readonly file: string;
  readonly line: number;
  readonly name?: string;
  readonly reason: string;
  /** The tool whose construct it is, when it is another tool's. */
  readonly tool?: string;
}

/** An input fault of the run (exit 2), reported against a file: its line, or the file's first line. */
export interface InputFault {
  readonly file: string;
  readonly line?: number;
  readonly message: string;
}

/** What a report holds besides the outcomes of the requests run. */
export interface ReportExtras {
  readonly notRun?: readonly NotRunRequest[];
  readonly inputFault?: InputFault;
  /** Where GitHub annotation paths are relative to (./github.ts); the process's cwd and environment by default. */
  readonly paths?: AnnotationPaths;
}

export function runReportOf(outcomes: readonly RequestOutcome[], times: { startedAt: string; durationMs: number }, extras: ReportExtras = {}): RunReport {
  const requests = [...outcomes.map(entryOf), ...(extras.notRun ?? []).map(notRunEntry), ...(extras.inputFault ? [inputFaultEntry(extras.inputFault)] : [])];
  return {
    tool: 'apiwb',
    version: VERSION,
    startedAt: times.startedAt,
    durationMs: Math.round(times.durationMs),
    requests: inFileOrder(requests),
  };
}

/** A request the run set aside (src/cli/notRun.ts) is a not-run entry; any other, its outcome. */
function entryOf(o: RequestOutcome & { readonly notRunRequest?: NotRunRequest }): ReportedRequest {
  return o.notRunRequest ? { ...notRunEntry(o.notRunRequest), notRun: (o.notRun ?? []).map((n) => ({ ...n, line: n.line + 1 })) } : reportedOutcome(o);
}

function reportedOutcome(o: RequestOutcome): ReportedRequest {
  return {
    file: o.file,
    line: Math.max(1, o.line),
    label: o.label,
    method: o.method,
    url: o.url,
    ...(o.status === undefined ? {} : { status: o.status }),
    ...(o.totalMs === undefined ? {} : { durationMs: Math.round(o.totalMs) }),
    ...(o.rows === undefined ? {} : { rows: o.rows }),
    ...(o.pages === undefined ? {} : { pages: o.pages }),
    ok: o.ok,
    ...(!o.ok && o.error ? { error: o.error } : {}),
    ...(o.problem ? { problem: o.problem } : {}),
    businessFailures: o.businessFailures,
    ...(o.drift?.length ? { drift: o.drift } : {}),
    ...(o.compare ? { compare: o.compare } : {}),
    assertions: (o.assertions ?? []).map((a) => ({ ...a, line: a.line + 1 })),
    notRun: (o.notRun ?? []).map((n) => ({ ...n, line: n.line + 1 })),
  };
}

function notRunEntry(n: NotRunRequest): ReportedRequest {
  return {
    file: n.file, line: Math.max(1, n.line), label: n.name ?? `${n.file}:${Math.max(1, n.line)}`, method: '', url: '', ok: false, error: 'not-run',
    problem: `not run: ${n.reason}${n.tool ? ` (${n.tool})` : ''}`, businessFailures: [], assertions: [], notRun: [],
  };
}

function inputFaultEntry(fault: InputFault): ReportedRequest {
  return {
    file: fault.file, line: Math.max(1, fault.line ?? 1), label: 'input error', method: '', url: '', ok: false, error: 'input',
    problem: fault.message, businessFailures: [], assertions: [], notRun: [],
  };
}

/** Entries by file (in the order files first appear) and line: a request not run sits where it is written. */
function inFileOrder(requests: readonly ReportedRequest[]): ReportedRequest[] {
  const fileOrder = new Map<string, number>();
  for (const r of requests) if (!fileOrder.has(r.file)) fileOrder.set(r.file, fileOrder.size);
  const order = (r: ReportedRequest): number => fileOrder.get(r.file) ?? 0;
  return requests.map((r, i) => ({ r, i })).sort((a, b) => order(a.r) - order(b.r) || a.r.line - b.r.line || a.i - b.i).map(({ r }) => r);
}

export function renderReport(name: ReporterName, report: RunReport, paths?: AnnotationPaths): string {
  return name === 'junit' ? junitReport(report) : name === 'json' ? jsonReport(report) : githubReport(report, paths);
}

export function writeRunReport(
  name: ReporterName, file: string | undefined, outcomes: readonly RequestOutcome[],
  times: { startedAt: string; durationMs: number }, redactor: Redactor, stdout: NodeJS.WritableStream, extras: ReportExtras = {},
): void {
  const text = renderReport(name, redactReport(runReportOf(outcomes, times, extras), redactor), extras.paths);
  // Whole or not at all (a new file renamed over the old): a report is never left half written.
  if (file) writeOwnFile(file, text, 0o644);
  else stdout.write(text);
}
