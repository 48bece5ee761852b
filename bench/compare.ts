// Benchmark: `apiwb compare --all-pages --key FactID` of a 1 000 000-row stateful-extraction walk
// (BIDWHouse facts, 100 000 a page: the same rows on every walk, as a Selection export's are not) on
// two sandboxes (the current release and --release next) as a whole process, against the two walks alone (`apiwb run
// --all-pages --out`, one process a side, their times added) on the same sandboxes in the same run, in
// alternating rounds. The comparison's cost is the compare process's time minus the two walks' time.
// Goals (issue 32): the comparison adds at most half the two walks' time; peak RSS < 300 MB.
// Prints figures; asserts nothing but that the sides agree (the facts are the same on both releases).
//   node --import tsx bench/compare.ts [--rows N] [--rounds R]
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startSandbox } from '../src/sandbox';
import { sandboxEnvFileText } from '../test/cli/sandboxEnv';
import { openCliWorkspace } from './lib/cliWorkspace';
import { arg, loadNote, mb, median, printRow, timeProcess, type ProcessRun } from './lib/measure';

const PAGE_ROWS = 100_000;

const FACTS_REQUEST = [
  '# @name facts',
  'POST {{engagement_base_url}}/api/BIDWHouse/GetFactTransactions',
  'Authorization: Bearer {{$auth.token("engagement")}}',
  'Content-Type: application/json',
  '',
  `{ "PageSize": ${PAGE_ROWS} }`,
  '',
].join('\n');

async function main(): Promise<void> {
  const rows = arg('rows', 1_000_000);
  const rounds = arg('rounds', 3);
  const sizes = { facts: rows, bidwTransientEvery: 0 };
  const ws = await openCliWorkspace(sizes);
  const next = await startSandbox({ ...sizes, release: 'next' });
  try {
    const envFile = join(ws.dir, 'http-client.env.json');
    const current = JSON.parse(readFileSync(envFile, 'utf8')) as Record<string, unknown>;
    const other = JSON.parse(sandboxEnvFileText(next.descriptor)) as Record<string, unknown>;
    writeFileSync(envFile, JSON.stringify({ ...current, 'sandbox-next': other['sandbox'] }, null, 2));
    writeFileSync(join(ws.dir, 'facts.http'), FACTS_REQUEST);
    const walk = (env: string, out: string): Promise<ProcessRun> => timeProcess(process.execPath,
      [ws.cli, 'run', 'facts.http', '--env', env, '--all-pages', '--timeout', '600000', '--out', out],
      { cwd: ws.dir, env: ws.apiwbEnv, stdoutFile: join(ws.dir, `stdout-${env}.txt`) });
    const sides: Record<string, () => Promise<ProcessRun>> = {
      'two walks alone': async () => {
        const a = await walk('sandbox', join(ws.dir, 'a.ndjson'));
        const b = await walk('sandbox-next', join(ws.dir, 'b.ndjson'));
        const cpu = a.mainThreadCpuMs !== undefined && b.mainThreadCpuMs !== undefined ? { mainThreadCpuMs: a.mainThreadCpuMs + b.mainThreadCpuMs } : {};
        return { ms: a.ms + b.ms, peakRssMB: Math.max(a.peakRssMB, b.peakRssMB), code: a.code || b.code, stdout: a.stdout + b.stdout, ...cpu };
      },
      'apiwb compare': () => timeProcess(process.execPath,
        [ws.cli, 'compare', 'facts.http', '--env', 'sandbox', '--against', 'sandbox-next', '--all-pages', '--key', 'FactID', '--timeout', '600000'],
        { cwd: ws.dir, env: ws.apiwbEnv, stdoutFile: join(ws.dir, 'stdout-compare.txt') }),
    };
    const runs = new Map<string, ProcessRun[]>(Object.keys(sides).map((k) => [k, []]));
    const names = Object.keys(sides);
    console.log(`compare: 2 × ${rows.toLocaleString('en-US')} fact rows, pages of ${PAGE_ROWS.toLocaleString('en-US')}, ${rounds} rounds; ${loadNote()}`);
    for (let round = 0; round < rounds; round++) {
      for (const name of round % 2 === 0 ? names : [...names].reverse()) {
        const run = await sides[name]!();
        if (run.code !== 0) throw new Error(`${name} exited ${run.code}: ${run.stdout.slice(-800)}`);
        if (name === 'apiwb compare' && !run.stdout.includes(`agree: added 0, removed 0, changed 0, unchanged ${rows}`)) throw new Error(`compare did not see ${rows} unchanged rows: ${run.stdout.slice(-800)}`);
        runs.get(name)!.push(run);
        console.log(`  run ${round + 1} ${name.padEnd(16)} ${(run.ms / 1000).toFixed(2)} s  main thread on a CPU ${((run.mainThreadCpuMs ?? 0) / 1000).toFixed(2)} s  peak RSS ${mb(run.peakRssMB)}`);
      }
    }
    const ms = (name: string): number => median((runs.get(name) ?? []).map((r) => r.ms));
    const peak = (name: string): number => Math.max(...(runs.get(name) ?? []).map((r) => r.peakRssMB));
    const walks = ms('two walks alone');
    const added = ms('apiwb compare') - walks;
    // Under load (8 jobs on 2 cores) wall times swing by 2x between rounds; time on a CPU swings less.
    const cpu = (name: string): number => median((runs.get(name) ?? []).map((r) => r.mainThreadCpuMs ?? 0));
    console.log(`  main thread on a CPU: compare ${(cpu('apiwb compare') / 1000).toFixed(2)} s, two walks ${(cpu('two walks alone') / 1000).toFixed(2)} s: the comparison adds ${(((cpu('apiwb compare') - cpu('two walks alone')) / cpu('two walks alone')) * 100).toFixed(0)} %`);
    printRow({
      measure: `compare 2 × ${rows.toLocaleString('en-US')} rows (apiwb compare --all-pages, whole process)`,
      ours: `${(ms('apiwb compare') / 1000).toFixed(2)} s`,
      baseline: `two walks alone ${(walks / 1000).toFixed(2)} s`,
      ratio: `comparison adds ${((added / walks) * 100).toFixed(0)} % of the walks' time`,
      peakRss: `${mb(peak('apiwb compare'))} (a walk alone ${mb(peak('two walks alone'))})`,
      goal: '≤ 50 %, < 300 MB',
      met: added / walks <= 0.5 && peak('apiwb compare') < 300,
    });
  } finally {
    await next.close();
    await ws.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
