// Activation time of the shipped (minified) extension bundle against a minimal extension, each loaded
// in a fresh process with a stub `vscode` (so the figure is our bundle's load + activate(), not the
// editor's). Prints median and p95 of both and their difference/ratio. Target: activation < 50 ms.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as esbuild from 'esbuild';

const RUNS = 15;
const work = mkdtempSync(join(tmpdir(), 'apiwb-bench-activation-'));
const common = { bundle: true, platform: 'node' as const, format: 'cjs' as const, target: 'node20', minify: true, external: ['vscode'], mainFields: ['module', 'main'], logLevel: 'warning' as const };
const product = join(work, 'extension.js');
const workbench = join(work, 'workbench.js');
const baseline = join(work, 'baseline.js');
// The same split as scripts/build.mjs: activate() loads workbench.js only on first need.
esbuild.buildSync({ ...common, entryPoints: ['src/extension/extension.ts'], outfile: product, external: ['vscode', './workbench.js'] });
esbuild.buildSync({ ...common, entryPoints: ['src/extension/workbench.ts'], outfile: workbench });
esbuild.buildSync({ ...common, entryPoints: ['bench/activation/baseline.ts'], outfile: baseline });

interface Sample { loadMs: number; activateMs: number; totalMs: number }
function measure(bundle: string): Sample[] {
  const samples: Sample[] = [];
  for (let i = 0; i < RUNS; i++) {
    const out = execFileSync(process.execPath, [join('bench', 'activation', 'child.cjs'), bundle], { encoding: 'utf8' });
    samples.push(JSON.parse(out) as Sample);
  }
  return samples;
}
const quantile = (values: number[], q: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
};

const ours = measure(product);
const base = measure(baseline);
const line = (name: string, s: Sample[]): string =>
  `${name.padEnd(22)} total median ${quantile(s.map((x) => x.totalMs), 0.5).toFixed(1)} ms, p95 ${quantile(s.map((x) => x.totalMs), 0.95).toFixed(1)} ms ` +
  `(load ${quantile(s.map((x) => x.loadMs), 0.5).toFixed(1)} ms + activate() ${quantile(s.map((x) => x.activateMs), 0.5).toFixed(1)} ms)`;
console.log(`activation: ${RUNS} fresh processes each, minified bundles, stub vscode`);
console.log(line('api-workbench', ours));
console.log(line('baseline (tree+command)', base));
const oursMedian = quantile(ours.map((x) => x.totalMs), 0.5);
const baseMedian = quantile(base.map((x) => x.totalMs), 0.5);
console.log(`ratio api-workbench / baseline: ${(oursMedian / baseMedian).toFixed(1)}x; api-workbench median ${oursMedian.toFixed(1)} ms vs target < 50 ms`);
rmSync(work, { recursive: true, force: true });
