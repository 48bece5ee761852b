// Test helpers for the --out aside (fileSink.ts): the hidden copies of an old --out beside it, the
// moment a run has moved the old file aside and written its first rows, and a CLI child stopped by SIGINT
// then. Not a test (no .test.ts suffix).
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync, watch } from 'node:fs';
import { basename, dirname } from 'node:path';
import { ROOT } from './cliProcess';

/** The hidden names an old `out` waits under while a run writes a new one. */
export const asidesOf = (out: string): string[] => readdirSync(dirname(out)).filter((n) => n.startsWith(`.${basename(out)}.apiwb-before-`));

/** Resolves once the old `out` is aside and rows are in `out` (fails after 30 s). */
export function asideAndRows(out: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => { w.close(); reject(new Error(`no row reached ${out}`)); }, 30_000);
    const check = (): void => {
      if (asidesOf(out).length > 0 && existsSync(out) && statSync(out).size > 0) { clearTimeout(timer); w.close(); resolve(); }
    };
    const w = watch(dirname(out), check);
    check();
  });
}

/**
 * `apiwb <args>` as a child (src/cli/main.ts through tsx), stopped by SIGINT once the server has stalled
 * (`stalled` resolves) and the old `out` is aside with rows in the new one: everything it printed.
 */
export async function outputStoppedAtAside(args: readonly string[], out: string, stalled: Promise<void>, env: Record<string, string> = {}): Promise<string> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], { cwd: ROOT, env: { ...process.env, NO_COLOR: '1', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (c: Buffer) => { output += c.toString(); });
  child.stderr.on('data', (c: Buffer) => { output += c.toString(); });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  await stalled;
  await asideAndRows(out);
  child.kill('SIGINT');
  const hard = setTimeout(() => child.kill('SIGKILL'), 20_000);
  await exited;
  clearTimeout(hard);
  return output;
}
