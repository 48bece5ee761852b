// Test helper: runs the bundled CLI (see buildCli) as a child process with only the APIWB_SECRET_*
// variables a test passes, and checks that no secret reached its output.
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';

export const ROOT = join(import.meta.dirname, '..', '..');
const exec = promisify(execFile);

export interface CliResult { readonly code: number; readonly stdout: string; readonly stderr: string }

export async function runCli(cli: string, args: readonly string[], env: Record<string, string> = {}): Promise<CliResult> {
  // The child inherits no APIWB_SECRET_* from this process: only what the test passes.
  const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('APIWB_SECRET_')));
  try {
    const { stdout, stderr } = await exec(process.execPath, [cli, ...args], {
      cwd: ROOT, env: { ...base, NO_COLOR: '1', ...env }, timeout: 60_000, maxBuffer: 16 * 1024 * 1024,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

export function assertNoSecret(secretValues: readonly string[], result: CliResult): void {
  const output = result.stdout + result.stderr;
  for (const secret of secretValues) assert.ok(!output.includes(secret), 'a sandbox secret appeared in the CLI output');
  assert.doesNotMatch(output, /(Bearer|Basic) (?!\*\*\*|Credentials\b|Token\b)[A-Za-z0-9._~+/=-]{8,}/, 'a credential appeared in the CLI output');
}

/** One summary line of `apiwb run` read back: mark, label, status, rows and pages. */
export interface SummaryLine { readonly ok: boolean; readonly label: string; readonly status?: number; readonly rows?: number; readonly pages?: number }

export function summaryLines(stdout: string): SummaryLine[] {
  return stdout.split('\n').filter((l) => /^[✓✗] /.test(l)).map((line) => {
    const [head = '', , ...rest] = line.split('  ');
    const status = rest.find((p) => /^\d{3}$/.test(p));
    const rows = /(?:^|  )(\d+) rows?(?:  |$)/.exec(line)?.[1];
    const pages = /(?:^|  )(\d+) pages(?:  |$| in )/.exec(line)?.[1];
    return {
      ok: head.startsWith('✓'), label: head.slice(2),
      ...(status ? { status: Number(status) } : {}), ...(rows ? { rows: Number(rows) } : {}), ...(pages ? { pages: Number(pages) } : {}),
    };
  });
}

/** The stops a test of a run stopped mid-body covers: each signal, and a walk's (--all-pages). */
export const STOP_CASES = [
  { signal: 'SIGINT', extra: [] },
  { signal: 'SIGTERM', extra: [] },
  { signal: 'SIGINT', extra: ['--all-pages'] },
] as const;

/** A run stopped by a signal: how it ended, and what it printed (stdout then stderr as they came). */
export interface StoppableRun {
  readonly output: () => string;
  /** Stops the run with `signal`; resolves once it ended (killed hard 20 s on: a hang reads as SIGKILL). */
  stop(signal: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** `apiwb run ARGS` from the sources (src/cli/main.ts through tsx) as a child, to be stopped by a signal. */
export function startRun(args: readonly string[]): StoppableRun {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'run', ...args], { cwd: ROOT, env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (c: Buffer) => { output += c.toString(); });
  child.stderr.on('data', (c: Buffer) => { output += c.toString(); });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('exit', (code, sig) => resolve({ code, signal: sig })));
  return {
    output: () => output,
    async stop(signal) {
      child.kill(signal);
      const hard = setTimeout(() => child.kill('SIGKILL'), 20_000);
      const end = await exited;
      clearTimeout(hard);
      return end;
    },
  };
}
