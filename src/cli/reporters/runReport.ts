// `apiwb run --reporter junit|json|github --report FILE`: the options, and the report written from the
// run's outcomes (redacted by the run's Redactor). github without --report writes to stdout, where
// GitHub Actions reads workflow commands.
import { writeOwnFile } from '../../core/files/ownFile';
import type { Redactor } from '../../core/secrets/redact';
import { VERSION } from '../version';
import { redactReport, renderReport, REPORTERS, type ReporterName, type RunReport } from './report';
import type { RequestOutcome } from './summary';

export const REPORT_HELP = `  --reporter R        also write a report: junit (JUnit XML), json, or github (workflow-command
                      annotations with file and line); secrets are redacted in every report
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

export function runReportOf(outcomes: readonly RequestOutcome[], times: { startedAt: string; durationMs: number }): RunReport {
  return {
    tool: 'apiwb',
    version: VERSION,
    startedAt: times.startedAt,
    durationMs: Math.round(times.durationMs),
    requests: outcomes.map((o) => ({
      file: o.file ?? '',
      line: o.line ?? 0,
      label: o.label,
      method: o.method,
      url: o.url,
      ...(o.status === undefined ? {} : { status: o.status }),
      ...(o.totalMs === undefined ? {} : { durationMs: Math.round(o.totalMs) }),
      ...(o.rows === undefined ? {} : { rows: o.rows }),
      ...(o.pages === undefined ? {} : { pages: o.pages }),
      ok: o.ok,
      ...(o.problem ? { problem: o.problem } : {}),
      businessFailures: o.businessFailures,
      ...(o.drift?.length ? { drift: o.drift } : {}),
      ...(o.compare ? { compare: o.compare } : {}),
      assertions: (o.assertions ?? []).map((a) => ({ ...a, line: a.line + 1 })),
      notRun: (o.notRun ?? []).map((n) => ({ ...n, line: n.line + 1 })),
    })),
  };
}

export function writeRunReport(
  name: ReporterName, file: string | undefined, outcomes: readonly RequestOutcome[],
  times: { startedAt: string; durationMs: number }, redactor: Redactor, stdout: NodeJS.WritableStream,
): void {
  const text = renderReport(name, redactReport(runReportOf(outcomes, times), redactor));
  // Whole or not at all (a new file renamed over the old): a report is never left half written.
  if (file) writeOwnFile(file, text, 0o644);
  else stdout.write(text);
}
