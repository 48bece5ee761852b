// `npm run bench`: runs every bench/*.ts with tsx, one after the other, and prints their figures.
// Benchmarks print; they never fail on time. A bench that crashes, or fails an assertion that is not
// about time (singleResponse's memory bound), makes this exit non-zero. The goals table (every line a
// bench prints starting with `ROW | `) is repeated at the end.
//   node bench/run.mjs [name-filter]
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const repeatAt = process.argv.indexOf('--repeat');
const repeat = repeatAt === -1 ? 1 : Number(process.argv[repeatAt + 1]);
if (!Number.isInteger(repeat) || repeat < 1) {
  console.error('bench: --repeat takes a whole number of runs, 1 or more');
  process.exit(2);
}
const filter = process.argv.slice(2).filter((a, i, all) => a !== '--repeat' && all[i - 1] !== '--repeat')[0];
const sources = readdirSync(here).filter((name) => name.endsWith('.ts') && !name.endsWith('.d.ts') && !name.startsWith('_'));
// A .ts that another bench imports (e.g. a shared workload) is a helper, not a bench of its own.
const texts = sources.map((name) => readFileSync(join(here, name), 'utf8'));
const isHelper = (name) => {
  const stem = name.replace(/\.ts$/, '');
  return texts.some((text, i) => sources[i] !== name && new RegExp(`from ['"]\\./${stem}(\\.ts)?['"]`).test(text));
};
const benches = sources.filter((name) => !isHelper(name)).filter((name) => !filter || name.includes(filter)).sort();

let failed = 0;
/** Every ROW line, in the order printed, with the repeat it came from. */
const rows = [];
for (let run = 1; run <= repeat; run++) {
  for (const name of benches) {
    console.log(`\n=== bench/${name}${repeat > 1 ? ` (run ${run} of ${repeat})` : ''} ===`);
    const started = Date.now();
    const result = spawnSync(process.execPath, ['--import', 'tsx', join(here, name)], { stdio: ['ignore', 'pipe', 'inherit'], cwd: join(here, '..'), maxBuffer: 64 * 1024 * 1024 });
    const out = result.stdout?.toString() ?? '';
    process.stdout.write(out);
    rows.push(...out.split('\n').filter((line) => line.startsWith('ROW | ')).map((line) => ({ run, line })));
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    if (result.status !== 0) {
      failed++;
      console.log(`=== bench/${name}: FAILED (exit ${result.status ?? result.signal}) after ${seconds}s ===`);
    } else {
      console.log(`=== bench/${name}: done in ${seconds}s ===`);
    }
  }
}
if (benches.length === 0) console.log('no bench/*.ts found');
// The goals table, one row per measure (each run's row of it together), each with its baseline from the
// same run, ratio and peak RSS.
if (rows.length > 0) {
  const measureOf = (line) => line.split(' | ')[1];
  const measures = [...new Set(rows.map((r) => measureOf(r.line)))];
  const table = measures.flatMap((m) => rows.filter((r) => measureOf(r.line) === m).map((r) => (repeat > 1 ? `run ${r.run}: ${r.line}` : r.line)));
  console.log(`\n=== goals table (${loadavg().map((n) => n.toFixed(1)).join(' / ')} load average at the end) ===\n${table.join('\n')}`);
}
process.exit(failed > 0 ? 1 : 0);
