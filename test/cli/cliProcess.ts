// Test helper: runs the bundled CLI (see buildCli) as a child process with only the APIWB_SECRET_*
// variables a test passes, and checks that no secret reached its output.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import './signedRecord'; // the runs' signing key: a config folder of the test's own, never the user's

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
