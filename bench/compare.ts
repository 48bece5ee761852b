// Benchmark: `apiwb compare --all-pages --key FactID` of a 1 000 000-row stateful-extraction walk
// (BIDWHouse facts, 100 000 a page: the same rows on every walk, as a Selection export's are not) as a
// whole process, against the two walks alone (`apiwb run --all-pages --out`, one process a side, their
// times added) on the same sandboxes in the same run, in alternating rounds. The comparison's cost is
// the compare process's time minus the two walks' time. Three cases:
// - agree: the sandbox against its next release (--release next; the facts are the same on both);
// - most differ: the sandbox against one seeded otherwise (every fact's values differ, same FactIDs);
// - all moved: the two walks' own exports compared offline (`apiwb compare A.ndjson B.ndjson`), B being
//   A turned by half its rows (every record on another page, none changed); its cost is the whole
//   process, against the two walks of the agree case.
// Goals (issue 32): the comparison adds at most half the two walks' time; peak RSS < 300 MB.
// Live, side B's rows are compared on a worker thread as B walks: main-thread CPU leaves that out, the
// all-threads figure (every thread's schedstat) counts it.
// Prints figures; asserts nothing but each case's counts.
//   node --import tsx bench/compare.ts [--rows N] [--rounds R] [--case NAME[,NAME]] [--cpu-prof DIR]
// (--case: only those cases, e.g. 'most differ'; 'all moved' turns the agree case's export, so runs with
// it; --cpu-prof: a V8 profile of each compare process in DIR)
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startSandbox, type RunningSandbox } from '../src/sandbox';
import { sandboxEnvFileText } from '../test/cli/sandboxEnv';
import { openCliWorkspace } from './lib/cliWorkspace';
import { arg, loadNote, mb, median, printRow, timeProcess, type ProcessRun } from './lib/measure';

const PAGE_ROWS = 100_000;

/** The text after `--name`, or undefined. */
const textArg = (name: string): string | undefined => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
};

const FACTS_REQUEST = [
  '# @name facts',
  'POST {{engagement_base_url}}/api/BIDWHouse/GetFactTransactions',
  'Authorization: Bearer {{$auth.token("engagement")}}',
  'Content-Type: application/json',
  '',
  `{ "PageSize": ${PAGE_ROWS} }`,
  '',
].join('\n');

interface Case {
  readonly name: string;
  /** The environment of side B. */
  readonly against: string;
  readonly expect: (rows: number) => string;
  /** Offline: compare the two walks' exports, B turned by half (no request sent). */
  readonly offline?: boolean;
}

const CASES: readonly Case[] = [
  { name: 'agree', against: 'sandbox-next', expect: (rows) => `agree: added 0, removed 0, changed 0, unchanged ${rows}` },
  { name: 'most differ', against: 'sandbox-other', expect: () => "differ: added 0, removed 0, changed " },
  { name: 'all moved', against: 'sandbox-next', offline: true, expect: (rows) => `agree: added 0, removed 0, changed 0, unchanged ${rows}` },
];

/** B turned by half: the second half of A's lines, then the first (the bench's own memory, not measured). */
function turned(from: string, to: string, rows: number): void {
  const text = readFileSync(from, 'utf8');
  let at = 0;
  for (let line = 0; line < Math.floor(rows / 2); line++) at = text.indexOf('\n', at) + 1;
  writeFileSync(to, text.slice(at) + text.slice(0, at));
}

async function main(): Promise<void> {
  const rows = arg('rows', 1_000_000);
  const rounds = arg('rounds', 3);
  const only = textArg('case')?.split(',');
  const cases = CASES.filter((c) => !only || only.includes(c.name) || (c.name === 'agree' && only.includes('all moved')));
  const profiles = textArg('cpu-prof');
  const sizes = { facts: rows, bidwTransientEvery: 0 };
  const ws = await openCliWorkspace(sizes);
  const others: RunningSandbox[] = [];
  try {
    const next = await startSandbox({ ...sizes, release: 'next' });
    others.push(next);
    const other = await startSandbox({ ...sizes, seed: 4 });
    others.push(other);
    const envFile = join(ws.dir, 'http-client.env.json');
    const current = JSON.parse(readFileSync(envFile, 'utf8')) as Record<string, unknown>;
    const sandboxOf = (text: string): unknown => (JSON.parse(text) as Record<string, unknown>)['sandbox'];
    writeFileSync(envFile, JSON.stringify({ ...current, 'sandbox-next': sandboxOf(sandboxEnvFileText(next.descriptor)), 'sandbox-other': sandboxOf(sandboxEnvFileText(other.descriptor)) }, null, 2));
    writeFileSync(join(ws.dir, 'facts.http'), FACTS_REQUEST);
    const walk = (env: string, out: string): Promise<ProcessRun> => timeProcess(process.execPath,
      [ws.cli, 'run', 'facts.http', '--env', env, '--all-pages', '--timeout', '600000', '--out', out],
      { cwd: ws.dir, env: ws.apiwbEnv, stdoutFile: join(ws.dir, `stdout-${env}.txt`) });
    const a = join(ws.dir, 'a.ndjson');
    const walks = async (against: string): Promise<ProcessRun> => {
      const runA = await walk('sandbox', a);
      const runB = await walk(against, join(ws.dir, 'b.ndjson'));
      const cpu = {
        ...(runA.mainThreadCpuMs !== undefined && runB.mainThreadCpuMs !== undefined ? { mainThreadCpuMs: runA.mainThreadCpuMs + runB.mainThreadCpuMs } : {}),
        ...(runA.processCpuMs !== undefined && runB.processCpuMs !== undefined ? { processCpuMs: runA.processCpuMs + runB.processCpuMs } : {}),
      };
      return { ms: runA.ms + runB.ms, peakRssMB: Math.max(runA.peakRssMB, runB.peakRssMB), code: runA.code || runB.code, stdout: runA.stdout + runB.stdout, ...cpu };
    };
    const moved = join(ws.dir, 'moved.ndjson');
    const compare = (c: Case): Promise<ProcessRun> => timeProcess(process.execPath,
      [...(profiles ? ['--cpu-prof', `--cpu-prof-dir=${profiles}`] : []), ...(c.offline
        ? [ws.cli, 'compare', a, moved, '--key', 'FactID']
        : [ws.cli, 'compare', 'facts.http', '--env', 'sandbox', '--against', c.against, '--all-pages', '--key', 'FactID', '--timeout', '600000'])],
      { cwd: ws.dir, env: ws.apiwbEnv, stdoutFile: join(ws.dir, 'stdout-compare.txt') });
    console.log(`compare: 2 × ${rows.toLocaleString('en-US')} fact rows, pages of ${PAGE_ROWS.toLocaleString('en-US')}, ${rounds} rounds; ${loadNote()}`);
    const runs = new Map<string, ProcessRun[]>();
    const keep = (name: string, run: ProcessRun): void => {
      runs.set(name, [...(runs.get(name) ?? []), run]);
      console.log(`  run ${runs.get(name)!.length} ${name.padEnd(28)} ${(run.ms / 1000).toFixed(2)} s  main thread on a CPU ${((run.mainThreadCpuMs ?? 0) / 1000).toFixed(2)} s, all threads ${((run.processCpuMs ?? 0) / 1000).toFixed(2)} s  peak RSS ${mb(run.peakRssMB)}`);
    };
    for (let round = 0; round < rounds; round++) {
      for (const c of cases) {
        const steps: [string, () => Promise<ProcessRun>][] = [[`${c.name}: two walks alone`, () => walks(c.against)], [`${c.name}: apiwb compare`, () => compare(c)]];
        // The walks' own export of side A (the agree case's walks wrote it), turned by half.
        if (c.offline) turned(a, moved, rows);
        for (const [name, step] of round % 2 === 0 ? steps : [...steps].reverse()) {
          const run = await step();
          if ((run.code ?? 2) > 1) throw new Error(`${name} exited ${run.code}: ${run.stdout.slice(-800)}`);
          if (name.endsWith('apiwb compare') && !run.stdout.includes(c.expect(rows))) throw new Error(`${name}: not "${c.expect(rows)}": ${run.stdout.slice(-800)}`);
          keep(name, run);
        }
      }
    }
    const ms = (name: string): number => median((runs.get(name) ?? []).map((r) => r.ms));
    const cpu = (name: string): number => median((runs.get(name) ?? []).map((r) => r.mainThreadCpuMs ?? 0));
    const allCpu = (name: string): number => median((runs.get(name) ?? []).map((r) => r.processCpuMs ?? 0));
    const peak = (name: string): number => Math.max(...(runs.get(name) ?? []).map((r) => r.peakRssMB));
    for (const c of cases) {
      const [walksName, compareName] = [`${c.name}: two walks alone`, `${c.name}: apiwb compare`];
      // Offline, the whole process is the comparison; live, the compare process less the two walks.
      const added = c.offline ? ms(compareName) : ms(compareName) - ms(walksName);
      const addedCpu = c.offline ? cpu(compareName) : cpu(compareName) - cpu(walksName);
      // Under load (8 jobs on 2 cores) wall times swing by 2x between rounds; time on a CPU swings less.
      console.log(`  ${c.name}, main thread on a CPU: compare ${(cpu(compareName) / 1000).toFixed(2)} s, two walks ${(cpu(walksName) / 1000).toFixed(2)} s: the comparison adds ${((addedCpu / cpu(walksName)) * 100).toFixed(0)} %`);
      // Side B's rows are compared on a worker thread while B walks (src/core/compare/rowsWorker.ts): the main thread's time leaves it out.
      console.log(`  ${c.name}, all threads on a CPU: compare ${(allCpu(compareName) / 1000).toFixed(2)} s, two walks ${(allCpu(walksName) / 1000).toFixed(2)} s`);
      printRow({
        measure: `compare 2 × ${rows.toLocaleString('en-US')} rows, ${c.name} (${c.offline ? 'apiwb compare A.ndjson B.ndjson, B turned by half' : 'apiwb compare --all-pages, whole process'})`,
        ours: `${(ms(compareName) / 1000).toFixed(2)} s`,
        baseline: `two walks alone ${(ms(walksName) / 1000).toFixed(2)} s`,
        ratio: `comparison adds ${((added / ms(walksName)) * 100).toFixed(0)} % of the walks' time (CPU: ${((addedCpu / cpu(walksName)) * 100).toFixed(0)} %)`,
        peakRss: `${mb(peak(compareName))} (a walk alone ${mb(peak(walksName))})`,
        goal: '≤ 50 %, < 300 MB',
        met: added / ms(walksName) <= 0.5 && peak(compareName) < 300,
      });
    }
  } finally {
    for (const sandbox of others) await sandbox.close();
    await ws.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
