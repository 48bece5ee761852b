// GitHub Actions workflow commands: an error per failed assertion or entry that is not ok, a notice per
// construct not run. Every annotation has a file relative to the repository root (GitHub places it on the
// pull request's file only so: a job with `working-directory:` runs elsewhere) and a line >= 1. The root:
// GITHUB_WORKSPACE when set, else the git work tree holding the working directory, else the working directory.
import { existsSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { terminalSafe } from '../../core/text/terminalText';
import { failureLines, totalsOf, type RunReport } from './report';

/** Where the report's shown paths start (`cwd`) and the environment that may name the workspace. */
export interface AnnotationPaths {
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
}

/** The repository root annotations are relative to. */
export function annotationRoot(paths: AnnotationPaths): string {
  const workspace = paths.env.GITHUB_WORKSPACE;
  if (workspace) return resolve(paths.cwd, workspace);
  // A bounded walk up: a `.git` folder (or a worktree's `.git` file) marks the work tree's top.
  for (let dir = resolve(paths.cwd), depth = 0; depth < 256; dir = dirname(dir), depth++) {
    if (existsSync(join(dir, '.git'))) return dir;
    if (dirname(dir) === dir) break;
  }
  return resolve(paths.cwd);
}

/** A shown path relative to the root, with / separators; a file outside the root keeps its absolute path. */
export function annotationPath(file: string, root: string, cwd: string): string {
  const absolute = isAbsolute(file) ? file : resolve(cwd, file);
  const rel = relative(root, absolute);
  return (rel.startsWith('..') || isAbsolute(rel) ? absolute : rel).split(sep).join('/');
}

export function githubReport(report: RunReport, paths: AnnotationPaths = { cwd: process.cwd(), env: process.env }): string {
  const root = annotationRoot(paths);
  // Workflow-command escapes first (CR and LF stay line breaks of the annotation), then every other control
  // character a server or a file put there becomes visible: this text goes to the terminal without --report.
  const data = (text: string): string => terminalSafe(text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A'));
  const property = (text: string): string => data(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
  const command = (kind: 'error' | 'notice', file: string, line: number, title: string, message: string): string =>
    `::${kind} file=${property(annotationPath(file, root, paths.cwd))},line=${Math.max(1, line)},title=${property(title)}::${data(message)}`;
  const out: string[] = [];
  for (const r of report.requests) {
    const failedAssertions = r.assertions.filter((a) => a.outcome === 'failed');
    for (const a of failedAssertions) out.push(command('error', r.file, a.line, `apiwb: ${r.label}`, `?? ${a.text} — expected ${a.expected}, actual ${a.actual}`));
    if (!r.ok) {
      const other = failureLines({ ...r, assertions: [] });
      const what = r.method ? `${r.method} ${r.url}: ` : '';
      if (other.length || failedAssertions.length === 0) out.push(command('error', r.file, r.line, `apiwb: ${r.label}`, `${what}${other.join('; ') || 'failed'}`));
    }
    for (const n of r.notRun) {
      const tests = n.tests?.length ? ` (${n.tests.length} test${n.tests.length === 1 ? '' : 's'} skipped)` : '';
      out.push(command('notice', r.file, n.line, `apiwb: ${r.label}`, `not run: ${n.what}${tests}`));
    }
  }
  const totals = totalsOf(report);
  const skipped = totals.skipped ? `; ${totals.skipped} tests skipped (not run)` : '';
  out.push(`apiwb: ${totals.requests} requests, ${totals.failed} failed; ${totals.assertions} assertions, ${totals.assertionsFailed} failed${skipped}`);
  return `${out.join('\n')}\n`;
}
