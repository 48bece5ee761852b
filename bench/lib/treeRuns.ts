// One body served by a plain server, fetched by `apiwb run` (rows counted) and `apiwb run --out` (rows to
// NDJSON) as whole processes, for the CLI of this tree and of other checkouts (`--trees DIR,…`: each
// built from its own scripts/cliBundles.mjs into a temporary folder; the checkouts are only read), in
// alternating rounds: time, peak RSS (VmHWM) and the lines written, beside the load average.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { CliWorkspace } from './cliWorkspace';
import { mb, median, msText, timeProcess, type ProcessRun } from './measure';
import { serveBody } from './replayServer';

export interface Cli {
  readonly name: string;
  readonly path: string;
}

/** The CLIs to compare: this tree's (the workspace's) and one per `--trees` checkout. */
export async function treeClis(ws: CliWorkspace): Promise<{ clis: Cli[]; close: () => void }> {
  const i = process.argv.indexOf('--trees');
  const trees = i >= 0 ? process.argv[i + 1]!.split(',').filter((t) => t !== '') : [];
  const dir = mkdtempSync(join(tmpdir(), 'apiwb-trees-'));
  const clis: Cli[] = [{ name: 'this tree', path: ws.cli }];
  for (const [n, tree] of trees.entries()) {
    const bundles = (await import(pathToFileURL(join(tree, 'scripts', 'cliBundles.mjs')).href)) as { buildCliBundles(o: { outfile: string; logLevel: string }): Promise<string[]> };
    const [dispatcher] = await bundles.buildCliBundles({ outfile: join(dir, String(n), 'apiwb-cli.cjs'), logLevel: 'silent' });
    clis.push({ name: basename(tree), path: dispatcher! });
  }
  return { clis, close: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface TreeRun extends ProcessRun {
  readonly lines?: number;
  readonly load: number;
}

/**
 * `rounds` rounds of every CLI with and without --out on `body` (the order reversed every other round);
 * with `directive`, the request says it (a `# @paging` line); with `curl`, `curl -o` is a side too.
 */
export async function runTrees(ws: CliWorkspace, clis: readonly Cli[], name: string, body: Buffer, rows: number, rounds: number, beside: { directive?: string; curl?: boolean } = {}): Promise<Map<string, TreeRun[]>> {
  const server = await serveBody(body);
  const runs = new Map<string, TreeRun[]>();
  try {
    writeFileSync(join(ws.dir, 'tree.http'), ['# @name treeBody', ...(beside.directive ? [beside.directive] : []), `GET ${server.url('/tree')}`, ''].join('\n'));
    const out = join(ws.dir, 'tree.ndjson');
    const sides: { key: string; cli?: Cli; withOut: boolean }[] = clis.flatMap((cli) => [false, true].map((withOut) => ({ key: `${cli.name}${withOut ? ' --out' : ''}`, cli, withOut })));
    if (beside.curl) sides.unshift({ key: 'curl -o', withOut: false });
    for (let round = 0; round < rounds; round++) {
      for (const side of round % 2 === 0 ? sides : [...sides].reverse()) {
        rmSync(out, { force: true });
        const run = side.cli ? await timeProcess(process.execPath, [side.cli.path, 'run', 'tree.http', '--env', 'sandbox', '--timeout', '600000', ...(side.withOut ? ['--out', out] : [])],
          { cwd: ws.dir, env: ws.apiwbEnv, stdoutFile: join(ws.dir, 'stdout.txt') })
          : await timeProcess('curl', ['-sS', '--fail', '-o', out, server.url('/tree')]);
        const lines = side.withOut && run.code === 0 ? Number.parseInt(execFileSync('wc', ['-l', out], { encoding: 'utf8' }), 10) : undefined;
        const load = loadavg()[0] ?? 0;
        const list = runs.get(side.key) ?? [];
        list.push({ ...run, ...(lines === undefined ? {} : { lines }), load });
        runs.set(side.key, list);
        console.log(`  ${name} · ${side.key.padEnd(24)} ${msText(run.ms).padStart(9)}  peak RSS ${mb(run.peakRssMB).padStart(7)}  exit ${run.code}${lines === undefined ? '' : `  ${lines} lines (rule: ${rows} rows)`}  main thread CPU ${run.mainThreadCpuMs === undefined ? '—' : msText(run.mainThreadCpuMs)}  load ${load.toFixed(1)}`);
      }
    }
  } finally {
    await server.close();
  }
  return runs;
}

/** A table row per side: median time, peak RSS, the loads seen. */
export function treeTable(name: string, runs: Map<string, TreeRun[]>): string[] {
  return [...runs].map(([side, list]) => {
    const loads = list.map((r) => r.load);
    const failed = list.filter((r) => r.code !== 0).length;
    return `| ${name} | ${side} | ${msText(median(list.map((r) => r.ms)))} (${list.map((r) => r.ms.toFixed(0)).join(', ')}) | ${mb(Math.max(...list.map((r) => r.peakRssMB)))} | ${list[0]?.lines ?? '—'} | ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)}${failed ? ` | ${failed} failed` : ''} |`;
  });
}
