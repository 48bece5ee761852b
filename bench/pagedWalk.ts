// Benchmark: a walk of the configurable style (rows under `value`, next_link AFTER them) and of the batch
// cursor (Assets, then BatchID and Remaining) with large pages (100 000 rows, about 15 MB each), by
// `apiwb run --all-pages --out` as a whole process, from a server of its own on 127.0.0.1 that sends each
// page with its length in 1 MB blocks. Peak RSS (VmHWM) and time, for this tree's CLI and, with
// `--trees DIR,…`, other checkouts' (built from their own scripts/cliBundles.mjs; only read), in
// alternating rounds, beside the load average. Goal (issue 37): flat memory, as the export walk
// (< 200 MB whatever the page size). Prints figures; asserts only that every row was written once.
// `--no-out 1`: `apiwb run --all-pages` without --out (rows counted, not written).
//   node --import tsx bench/pagedWalk.ts [--pages N] [--rows-per-page N] [--rounds R] [--no-out 1] [--trees /work/main]
import { execFileSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { row } from './lib/bodyShapes';
import { openCliWorkspace } from './lib/cliWorkspace';
import { arg, loadNote, mb, median, msText, printRow, timeProcess, type ProcessRun } from './lib/measure';
import { treeClis } from './lib/treeRuns';

type Style = 'configurable' | 'batch cursor';

/** Page `n` (1-based) of a style: its rows' text built once, the control fields around it per style. */
function pageBody(style: Style, n: number, pages: number, perPage: number): Buffer {
  const from = (n - 1) * perPage;
  const rows = Array.from({ length: perPage }, (_, i) => row(from + i)).join(',');
  if (style === 'configurable') return Buffer.from(`{"count":${pages * perPage},"value":[${rows}]${n < pages ? `,"next_link":"/list?page=${n + 1}"` : ''}}`);
  return Buffer.from(`{"Assets":[${rows}],"BatchID":"b${n + 1}","Remaining":${(pages - n) * perPage}}`);
}

async function send(res: ServerResponse, body: Buffer): Promise<void> {
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
  for (let at = 0; at < body.length; at += 1 << 20) {
    if (!res.write(body.subarray(at, at + (1 << 20)))) await new Promise((resolve) => res.once('drain', resolve));
  }
  res.end();
}

async function main(): Promise<void> {
  const pages = arg('pages', 5);
  const perPage = arg('rows-per-page', 100_000);
  const rounds = arg('rounds', 2);
  const withOut = arg('no-out', 0) === 0;
  const bodies: Record<Style, Buffer[]> = {
    configurable: Array.from({ length: pages }, (_, i) => pageBody('configurable', i + 1, pages, perPage)),
    'batch cursor': Array.from({ length: pages }, (_, i) => pageBody('batch cursor', i + 1, pages, perPage)),
  };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://x');
      const n = url.pathname === '/list' ? Number(url.searchParams.get('page') ?? 1)
        : Number(((JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as { BatchID?: string }).BatchID ?? 'b1').slice(1));
      const body = bodies[url.pathname === '/list' ? 'configurable' : 'batch cursor'][n - 1];
      if (!body) return void res.writeHead(404).end();
      void send(res, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const ws = await openCliWorkspace({ exportRows: 10, orders: 10 });
  const trees = await treeClis(ws);
  try {
    const files: Record<Style, string> = {
      configurable: ['# @name list', '# @paging generic', `GET ${origin}/list?page=1`, ''].join('\n'),
      'batch cursor': ['# @name assets', '# @paging batch-cursor', `POST ${origin}/assets`, 'Content-Type: application/json', '', `{ "BatchSize": ${perPage} }`, ''].join('\n'),
    };
    const out = join(ws.dir, 'walk.ndjson');
    const bodyMB = bodies.configurable[0]!.length / 1048576;
    console.log(`pagedWalk: ${pages} pages of ${perPage.toLocaleString('en-US')} rows (${bodyMB.toFixed(1)} MB a page), ${rounds} rounds, CLIs: ${trees.clis.map((c) => c.name).join(', ')}; ${loadNote()}`);
    const runs = new Map<string, (ProcessRun & { load: number })[]>();
    const sides = (Object.keys(files) as Style[]).flatMap((style) => trees.clis.map((cli) => ({ style, cli, key: `${style} · ${cli.name}` })));
    for (let round = 0; round < rounds; round++) {
      for (const side of round % 2 === 0 ? sides : [...sides].reverse()) {
        writeFileSync(join(ws.dir, 'walk.http'), files[side.style]);
        rmSync(out, { force: true });
        const run = await timeProcess(process.execPath, [side.cli.path, 'run', 'walk.http', '--env', 'sandbox', '--all-pages', '--timeout', '600000', ...(withOut ? ['--out', out] : [])],
          { cwd: ws.dir, env: ws.apiwbEnv, stdoutFile: join(ws.dir, 'stdout.txt') });
        const lines = run.code !== 0 ? NaN : withOut ? Number.parseInt(execFileSync('wc', ['-l', out], { encoding: 'utf8' }), 10) : Number(/ (\d+) rows/.exec(run.stdout.replace(/(\d) (?=\d{3}\b)/g, '$1'))?.[1]);
        if (lines !== pages * perPage) throw new Error(`${side.key}: exit ${run.code}, ${lines} rows, expected ${pages * perPage}: ${run.stdout.slice(-400)}`);
        const load = loadavg()[0] ?? 0;
        runs.set(side.key, [...(runs.get(side.key) ?? []), { ...run, load }]);
        console.log(`  ${side.key.padEnd(32)} ${msText(run.ms).padStart(9)}  peak RSS ${mb(run.peakRssMB).padStart(7)}  ${lines} rows${withOut ? ' written' : ' counted'}  load ${load.toFixed(1)}`);
      }
    }
    for (const style of Object.keys(files) as Style[]) {
      const of = (cli: string): (ProcessRun & { load: number })[] => runs.get(`${style} · ${cli}`) ?? [];
      const ours = of('this tree');
      const peak = Math.max(...ours.map((r) => r.peakRssMB));
      const before = trees.clis[1] ? of(trees.clis[1].name) : [];
      const beforePeak = before.length > 0 ? Math.max(...before.map((r) => r.peakRssMB)) : undefined;
      printRow({
        measure: `${style} walk, ${pages} × ${perPage.toLocaleString('en-US')} rows ${withOut ? 'to NDJSON, `apiwb run --all-pages --out`' : 'counted, `apiwb run --all-pages`'} (pagedWalk.ts)`,
        ours: `${msText(median(ours.map((r) => r.ms)))}, ${mb(peak)}`,
        baseline: beforePeak === undefined ? '— (--trees DIR for another checkout)' : `${trees.clis[1]!.name}: ${msText(median(before.map((r) => r.ms)))}, ${mb(beforePeak)}`,
        ratio: beforePeak === undefined ? '—' : `RSS ${(peak / beforePeak).toFixed(2)}×`,
        peakRss: `${mb(peak)} (${(peak / bodyMB).toFixed(2)}× a page), load ${median(ours.map((r) => r.load)).toFixed(1)}`,
        goal: '< 200 MB',
        met: peak < 200,
      });
    }
  } finally {
    trees.close();
    await ws.close();
    server.closeAllConnections();
    server.close();
  }
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
