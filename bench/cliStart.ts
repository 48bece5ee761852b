// Benchmark: CLI cold start, `apiwb --help` and `apiwb run --help` (the CLI bundled like dist/cli.js)
// against `node -e 0` (node's own start-up), in fresh processes, alternating. Goal (issue 14): at most
// 50 ms more than `node -e 0`. Prints figures; asserts nothing.
//   node --import tsx bench/cliStart.ts [--runs N]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildCli } from '../test/cli/sandboxEnv';
import { arg, loadNote, mb, median, msText, printRow, timeProcess, type ProcessRun } from './lib/measure';

async function main(): Promise<void> {
  const runs = arg('runs', 21);
  const dir = mkdtempSync(join(tmpdir(), 'apiwb-bench-start-'));
  try {
    const cli = await buildCli(dir);
    const sides: Record<string, readonly string[]> = { 'node -e 0': ['-e', '0'], 'apiwb --help': [cli, '--help'], 'apiwb run --help': [cli, 'run', '--help'] };
    const names = Object.keys(sides);
    const samples = new Map<string, ProcessRun[]>(names.map((n) => [n, []]));
    // apiwb run --help loads the run bundle through the code cache: one of the bench's own, warmed below.
    const options = { env: { ...process.env, XDG_CACHE_HOME: join(dir, 'cache') } };
    for (const name of names) await timeProcess(process.execPath, sides[name]!, options); // warm the file cache
    for (let i = 0; i < runs; i++) {
      for (const name of i % 2 === 0 ? names : [...names].reverse()) {
        const run = await timeProcess(process.execPath, sides[name]!, options);
        if (run.code !== 0) throw new Error(`${name} exited ${run.code}`);
        samples.get(name)!.push(run);
      }
    }
    const ms = (name: string): number => median(samples.get(name)!.map((r) => r.ms));
    const peak = (name: string): number => median(samples.get(name)!.map((r) => r.peakRssMB));
    console.log(`cliStart: ${runs} fresh processes each; ${loadNote()}`);
    for (const name of names) console.log(`  ${name.padEnd(16)} median ${msText(ms(name))}  (peak RSS median ${mb(peak(name))})`);
    const more = ms('apiwb --help') - ms('node -e 0');
    printRow({
      measure: 'CLI cold start, apiwb --help', ours: msText(ms('apiwb --help')), baseline: `node -e 0 ${msText(ms('node -e 0'))}`,
      ratio: `+${msText(more)} (${(ms('apiwb --help') / ms('node -e 0')).toFixed(2)}×); apiwb run --help +${msText(ms('apiwb run --help') - ms('node -e 0'))}`,
      peakRss: `${mb(peak('apiwb --help'))} (node -e 0 ${mb(peak('node -e 0'))})`, goal: '≤ +50 ms', met: more <= 50,
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
