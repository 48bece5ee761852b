// Activation until the Services view has its first rows, for the shipped (minified) bundles, against a
// minimal tree extension, each in a fresh process with a stub `vscode` (so the figure is ours, not the
// editor's): bundle load + activate() + the view's first getChildren/getTreeItem, asked in a later event
// together with the container's other views (bench/activation/child.cjs), so whatever runs on the thread
// before that answer is counted, the workbench bundle included if anything loads it first. Also printed:
// until every view answered, which loads the workbench bundle. Goal (issue 14): < 150 ms. Asserts nothing.
// Issue 37: the first answer that needs the workbench (every view; the first command), with the code
// cache the extension keeps in its global storage, cold and warm, beside the same without one.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as esbuild from 'esbuild';
import { loadNote, median, msText, percentile, printRow } from './lib/measure';
import { extensionBundles } from '../scripts/extensionBundles.mjs';

const RUNS = 15;
const work = mkdtempSync(join(tmpdir(), 'apiwb-bench-activation-'));
const common = { bundle: true, platform: 'node' as const, format: 'cjs' as const, target: 'node20', minify: true, external: ['vscode'], mainFields: ['module', 'main'], logLevel: 'warning' as const };
const product = join(work, 'extension.js');
const baseline = join(work, 'baseline.js');
// The split scripts/build.mjs ships (scripts/extensionBundles.mjs): activate() loads workbench.js only on first need.
for (const bundle of extensionBundles({ ...common, outdir: work })) esbuild.buildSync(bundle);
esbuild.buildSync({ ...common, entryPoints: ['bench/activation/baseline.ts'], outfile: baseline });

interface Sample { loadMs: number; activateMs: number; rowsMs: number; totalMs: number; allViewsMs: number; views: number; rows: number; view: string; commandMs: number }
function measure(bundle: string, runs: number, env: Record<string, string> = {}): Sample[] {
  const samples: Sample[] = [];
  for (let i = 0; i < runs; i++) {
    const out = execFileSync(process.execPath, [join('bench', 'activation', 'child.cjs'), bundle], { encoding: 'utf8', env: { ...process.env, ...env } });
    samples.push(JSON.parse(out) as Sample);
  }
  return samples;
}
// Alternate the two, so a burst of load elsewhere does not fall on one side only.
const ours: Sample[] = [];
const base: Sample[] = [];
for (let i = 0; i < RUNS; i++) {
  ours.push(...measure(product, 1));
  base.push(...measure(baseline, 1));
}
const line = (name: string, s: Sample[]): string =>
  `${name.padEnd(22)} total median ${median(s.map((x) => x.totalMs)).toFixed(1)} ms, p95 ${percentile(s.map((x) => x.totalMs), 95).toFixed(1)} ms ` +
  `(load ${median(s.map((x) => x.loadMs)).toFixed(1)} ms + activate() ${median(s.map((x) => x.activateMs)).toFixed(1)} ms + first rows of ${s[0]?.view} ${median(s.map((x) => x.rowsMs)).toFixed(1)} ms, ${s[0]?.rows} rows); ` +
  `all ${s[0]?.views} views answered at median ${median(s.map((x) => x.allViewsMs)).toFixed(1)} ms`;
console.log(`activation: ${RUNS} fresh processes each, minified bundles, stub vscode; ${loadNote()}`);
console.log(line('api-workbench', ours));
console.log(line('baseline (tree+command)', base));
const oursMedian = median(ours.map((x) => x.totalMs));
const baseMedian = median(base.map((x) => x.totalMs));
// Beside the row: when every view of the container had answered, which needs the workbench bundle loaded.
const allViewsMedian = median(ours.map((x) => x.allViewsMs));
printRow({
  measure: 'activation until the Services view has its first rows (workbench bundle counted)', ours: `${msText(oursMedian)} (every view answered, workbench loaded: ${msText(allViewsMedian)})`, baseline: `minimal tree extension ${msText(baseMedian)}`,
  ratio: `${(oursMedian / baseMedian).toFixed(1)}×, +${msText(oursMedian - baseMedian)}`, peakRss: '-', goal: '< 150 ms', met: oursMedian < 150,
});

// Issue 37: activation to the first answer that needs the workbench (every view answered; the first
// command run), with the global storage the editor gives (the workbench's code cache): a first session
// (empty storage: cold) and a later one (the cache written by an earlier session: warm), beside the same
// without storage (no cache: what every session paid before the cache).
const warmStorage = mkdtempSync(join(tmpdir(), 'apiwb-bench-storage-'));
measure(product, 1, { APIWB_BENCH_STORAGE: warmStorage, APIWB_BENCH_PRIME: '1' });
const series = { none: [] as Sample[], cold: [] as Sample[], warm: [] as Sample[], commandNone: [] as Sample[], commandWarm: [] as Sample[] };
for (let i = 0; i < RUNS; i++) {
  series.none.push(...measure(product, 1));
  const cold = mkdtempSync(join(tmpdir(), 'apiwb-bench-storage-'));
  series.cold.push(...measure(product, 1, { APIWB_BENCH_STORAGE: cold }));
  rmSync(cold, { recursive: true, force: true });
  series.warm.push(...measure(product, 1, { APIWB_BENCH_STORAGE: warmStorage }));
  series.commandNone.push(...measure(product, 1, { APIWB_BENCH_FIRST: 'command' }));
  series.commandWarm.push(...measure(product, 1, { APIWB_BENCH_FIRST: 'command', APIWB_BENCH_STORAGE: warmStorage }));
}
const allViews = (s: Sample[]): number => median(s.map((x) => x.allViewsMs));
const command = (s: Sample[]): number => median(s.map((x) => x.commandMs));
console.log(`every view answered (workbench loaded), median: no code cache ${msText(allViews(series.none))}, first session (cold) ${msText(allViews(series.cold))}, later session (warm) ${msText(allViews(series.warm))}`);
console.log(`first command (Refresh Services, workbench loaded), median: no code cache ${msText(command(series.commandNone))}, later session (warm) ${msText(command(series.commandWarm))}`);
printRow({
  measure: 'activation to first answer needing the workbench (every view answered), deferred load included', ours: `${msText(allViews(series.warm))} (a first session: ${msText(allViews(series.cold))})`,
  baseline: `no code cache ${msText(allViews(series.none))}; minimal tree extension ${msText(baseMedian)}`,
  ratio: `${(allViews(series.warm) / allViews(series.none)).toFixed(2)}× of no cache`, peakRss: '-', goal: '< 150 ms', met: allViews(series.warm) < 150,
});
printRow({
  measure: 'activation to the first command run (Refresh Services), deferred load included', ours: msText(command(series.commandWarm)),
  baseline: `no code cache ${msText(command(series.commandNone))}`,
  ratio: `${(command(series.commandWarm) / command(series.commandNone)).toFixed(2)}× of no cache`, peakRss: '-', goal: '< 150 ms', met: command(series.commandWarm) < 150,
});
rmSync(warmStorage, { recursive: true, force: true });
rmSync(work, { recursive: true, force: true });
