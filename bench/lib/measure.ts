// What every bench needs to report a row of the goals table: a process timed from spawn to exit with its
// peak RSS and its main thread's CPU time, medians, the load average beside the figures, and one line per
// row in one format (measure · ours · baseline · ratio · peak RSS · goal). Kept in a folder so
// bench/run.mjs does not run it.
import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';

export interface ProcessRun {
  readonly ms: number;
  /** The process's own high-water mark (VmHWM), polled while it runs. */
  readonly peakRssMB: number;
  readonly code: number | null;
  /** stdout, when `stdoutFile` was given. */
  readonly stdout: string;
  /**
   * Time its main thread spent on a CPU (Linux's schedstat), polled with the peak RSS: all but the last
   * few ms before its exit. Undefined where it cannot be read.
   */
  readonly mainThreadCpuMs?: number;
  /** Every thread's time on a CPU (a worker's too), where it can be read. */
  readonly processCpuMs?: number;
}

export interface ProcessOptions {
  readonly cwd?: string;
  readonly env?: NodeJS.ProcessEnv;
  /** stdout goes to this file (a pipe would let a fast writer block on a slow reader). */
  readonly stdoutFile?: string;
}

function highWaterMB(pid: number): number | undefined {
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : undefined;
  } catch {
    return undefined; // exited between two polls
  }
}

/**
 * Time (ms) a process's main thread has spent on a CPU so far (Linux's schedstat); undefined where it cannot
 * be read (no /proc, the process gone, or a kernel that keeps no such statistics and reads 0).
 */
export function mainThreadCpuMs(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const onCpuNs = Number(readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8').split(' ')[0]);
    return Number.isFinite(onCpuNs) && onCpuNs > 0 ? onCpuNs / 1e6 : undefined;
  } catch {
    return undefined;
  }
}

/** Clock ticks a second, as /proc/<pid>/stat counts time. */
let ticksPerSecond: number | undefined;

/**
 * Time (ms) a process has spent on a CPU so far, every thread's, ended ones too (its utime and stime in
 * /proc/<pid>/stat, in clock ticks); undefined where it cannot be read.
 */
export function processCpuMs(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    ticksPerSecond ??= Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    // After the name: state is field 3, utime 14 and stime 15 (1-based, as proc(5) counts).
    const ticks = Number(fields[11]) + Number(fields[12]);
    return Number.isFinite(ticks) && ticks > 0 ? (ticks * 1000) / ticksPerSecond : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Runs `file args` to its exit: wall time from spawn to exit (what a user waits for), peak RSS and its main
 * thread's time on a CPU. The high-water mark only grows, so polling it every few ms misses at most the
 * growth of the last poll; the CPU time misses the last poll's few ms.
 */
export async function timeProcess(file: string, args: readonly string[], options: ProcessOptions = {}): Promise<ProcessRun> {
  const out = options.stdoutFile ? openSync(options.stdoutFile, 'w') : 'ignore';
  const started = performance.now();
  try {
    const child = spawn(file, args, { cwd: options.cwd, env: options.env ?? process.env, stdio: ['ignore', out, 'inherit'] });
    let peak = 0;
    let mainCpu: number | undefined;
    let allCpu: number | undefined;
    const poll = setInterval(() => {
      if (!child.pid) return;
      peak = Math.max(peak, highWaterMB(child.pid) ?? 0);
      mainCpu = mainThreadCpuMs(child.pid) ?? mainCpu;
      allCpu = processCpuMs(child.pid) ?? allCpu;
    }, 5);
    const exited = once(child, 'exit') as Promise<[number | null]>;
    const [code] = await exited;
    clearInterval(poll);
    const ms = performance.now() - started;
    return { ms, peakRssMB: peak, code, stdout: options.stdoutFile ? readFileSync(options.stdoutFile, 'utf8') : '', mainThreadCpuMs: mainCpu, ...(allCpu === undefined ? {} : { processCpuMs: allCpu }) };
  } finally {
    if (typeof out === 'number') closeSync(out);
  }
}

/** The nearest-rank p-th percentile (p in 0–100) of unsorted values; NaN for none. */
export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

/** The middle value; for an even count, the mean of the two middle ones. NaN for none. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  if (sorted.length === 0) return NaN;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

/** "load average 3.2 (1 min) on 2 CPUs": the machine is shared, so every figure says how busy it was. */
export function loadNote(): string {
  const [one = 0, five = 0] = loadavg();
  return `load average ${one.toFixed(1)} / ${five.toFixed(1)} (1 / 5 min) on ${cpus().length} CPUs, node ${process.version}`;
}

export interface TableRow {
  readonly measure: string;
  readonly ours: string;
  readonly baseline: string;
  /** ours / baseline, as the goal states it (× for times, % for rates). */
  readonly ratio: string;
  readonly peakRss: string;
  readonly goal: string;
  readonly met: boolean;
}

/** One row of the goals table, in the one format every bench prints (grep "^ROW "). */
export function printRow(row: TableRow): void {
  console.log(`ROW | ${row.measure} | ours ${row.ours} | baseline ${row.baseline} | ratio ${row.ratio} | peak RSS ${row.peakRss} | goal ${row.goal} | ${row.met ? 'met' : 'NOT met'} |`);
}

export const mb = (n: number): string => `${n.toFixed(0)} MB`;
export const msText = (n: number): string => `${n.toFixed(n < 10 ? 2 : 0)} ms`;

/** Whether curl (a baseline of the single-response and export benches) is on this machine. */
export function curlAvailable(): boolean {
  try {
    execFileSync('curl', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
