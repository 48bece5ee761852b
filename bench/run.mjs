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
const filter = process.argv[2];
const sources = readdirSync(here).filter((name) => name.endsWith('.ts') && !name.endsWith('.d.ts') && !name.startsWith('_'));
// A .ts that another bench imports (e.g. a shared workload) is a helper, not a bench of its own.
const texts = sources.map((name) => readFileSync(join(here, name), 'utf8'));
const isHelper = (name) => {
  const stem = name.replace(/\.ts$/, '');
  return texts.some((text, i) => sources[i] !== name && new RegExp(`from ['"]\\./${stem}(\\.ts)?['"]`).test(text));
};
const benches = sources.filter((name) => !isHelper(name)).filter((name) => !filter || name.includes(filter)).sort();

let failed = 0;
const rows = [];
for (const name of benches) {
  console.log(`\n=== bench/${name} ===`);
  const started = Date.now();
  const result = spawnSync(process.execPath, ['--import', 'tsx', join(here, name)], { stdio: ['ignore', 'pipe', 'inherit'], cwd: join(here, '..'), maxBuffer: 64 * 1024 * 1024 });
  const out = result.stdout?.toString() ?? '';
  process.stdout.write(out);
  rows.push(...out.split('\n').filter((line) => line.startsWith('ROW | ')));
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (result.status !== 0) {
    failed++;
    console.log(`=== bench/${name}: FAILED (exit ${result.status ?? result.signal}) after ${seconds}s ===`);
  } else {
    console.log(`=== bench/${name}: done in ${seconds}s ===`);
  }
}
if (benches.length === 0) console.log('no bench/*.ts found');
// The goals table, one row per measure, each with its baseline from the same run, ratio and peak RSS.
if (rows.length > 0) console.log(`\n=== goals table (${loadavg().map((n) => n.toFixed(1)).join(' / ')} load average at the end) ===\n${rows.join('\n')}`);
process.exit(failed > 0 ? 1 : 0);
