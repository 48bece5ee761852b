// Benchmark: a 1 000 000-row export-ordinal walk (Selection/GetSelectionResult_Ext, 100 000 rows a page)
// to NDJSON by `apiwb run --all-pages --out` as a whole process (start, sign-in, walk, exit), against
// the limit: a plain node client (undici, no parsing) writing the raw page bytes to a file, and curl
// doing the same page by page, on the same sandbox in the same run, in alternating rounds. Also
// `apiwb run --all-pages` without --out (rows counted, not written) for its peak RSS.
// Goals (issue 14): ≥ 85 % of the node client's rate; peak RSS < 200 MB. Prints figures; asserts nothing.
// apiwb gets --timeout 600000: the default 30 s deadline covers a whole response, and this machine is shared.
//   node --import tsx bench/exportWalk.ts [--rows N] [--rounds R]
import { execFileSync } from 'node:child_process';
import { statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { exportRequestText, openCliWorkspace, type CliWorkspace } from './lib/cliWorkspace';
import { arg, curlAvailable, loadNote, mb, median, printRow, timeProcess, type ProcessRun } from './lib/measure';

const PAGE_ROWS = 100_000;


/** curl, one process a page, appending each page's raw bytes to one file; same end rule as the node client. */
async function curlWalk(ws: CliWorkspace, url: string, out: string): Promise<ProcessRun> {
  let ms = 0;
  let peak = 0;
  let tableName = '';
  let first = 0;
  for (let offset = 1; offset < 10_000; offset++) {
    const page = join(ws.dir, 'curl-page.json');
    const run = await timeProcess('curl', ['-sS', '--fail', '-X', 'POST', '-H', `@${ws.curlHeaders}`, '--data-binary', JSON.stringify({ OFFSET: offset, TableName: tableName }), '-o', page, url]);
    if (run.code !== 0) throw new Error(`curl exited ${run.code} on page ${offset}`);
    ms += run.ms;
    peak = Math.max(peak, run.peakRssMB);
    const length = statSync(page).size;
    // Appending is part of curl's side's work: done with cat, timed like the rest.
    const cat = await timeProcess('sh', ['-c', `cat "${page}" >> "${out}"`]);
    ms += cat.ms;
    if (offset === 1) {
      first = length;
      tableName = /"TableName":"([^"]+)"/.exec(execFileSync('head', ['-c', '200', page], { encoding: 'latin1' }))?.[1] ?? '';
    }
    if (length < first) break;
  }
  return { ms, peakRssMB: peak, code: 0, stdout: '' };
}

async function main(): Promise<void> {
  const rows = arg('rows', 1_000_000);
  const rounds = arg('rounds', 3);
  const ws = await openCliWorkspace({ exportRows: rows, selectionPageRows: PAGE_ROWS });
  try {
    const url = `${ws.sandbox.descriptor.engagement.baseUrl}/api/Selection/GetSelectionResult_Ext`;
    writeFileSync(join(ws.dir, 'export.http'), exportRequestText(PAGE_ROWS));
    const out = join(ws.dir, 'out.ndjson');
    const apiwb = (withOut: boolean): Promise<ProcessRun> => timeProcess(process.execPath,
      [ws.cli, 'run', 'export.http', '--env', 'sandbox', '--all-pages', '--timeout', '600000', ...(withOut ? ['--out', out] : [])],
      { cwd: ws.dir, env: ws.apiwbEnv, stdoutFile: join(ws.dir, 'stdout.txt') });
    const sides: Record<string, () => Promise<ProcessRun>> = {
      'node raw client': () => timeProcess(process.execPath, [join(import.meta.dirname, 'lib', 'rawClient.mjs'), 'walk', url, join(ws.dir, 'raw.json')], { env: ws.rawEnv }),
      ...(curlAvailable() ? { curl: () => { writeFileSync(join(ws.dir, 'curl.json'), ''); return curlWalk(ws, url, join(ws.dir, 'curl.json')); } } : {}),
      'apiwb --out': () => apiwb(true),
      'apiwb (no --out)': () => apiwb(false),
    };
    const runs = new Map<string, ProcessRun[]>(Object.keys(sides).map((k) => [k, []]));
    const names = Object.keys(sides);
    console.log(`exportWalk: ${rows.toLocaleString('en-US')} rows, pages of ${PAGE_ROWS.toLocaleString('en-US')}, ${rounds} rounds; ${loadNote()}`);
    for (let round = 0; round < rounds; round++) {
      // Alternate the order, so a burst of load elsewhere does not always hit the same side.
      for (const name of round % 2 === 0 ? names : [...names].reverse()) {
        const run = await sides[name]!();
        if (run.code !== 0) throw new Error(`${name} exited ${run.code}: ${run.stdout.slice(-500)}`);
        if (name === 'apiwb --out') {
          const written = execFileSync('wc', ['-l', out], { encoding: 'utf8' });
          if (Number.parseInt(written, 10) !== rows) throw new Error(`apiwb wrote ${written.trim()} lines, expected ${rows}`);
        }
        runs.get(name)!.push(run);
        console.log(`  run ${round + 1} ${name.padEnd(18)} ${(run.ms / 1000).toFixed(2)} s  ${Math.round((rows * 1000) / run.ms).toLocaleString('en-US').padStart(10)} rows/s  peak RSS ${mb(run.peakRssMB)}`);
      }
    }
    const ms = (name: string): number => median((runs.get(name) ?? []).map((r) => r.ms));
    const peak = (name: string): number => Math.max(...(runs.get(name) ?? []).map((r) => r.peakRssMB));
    const rate = (name: string): string => `${Math.round((rows * 1000) / ms(name)).toLocaleString('en-US')} rows/s`;
    const ours = ms('apiwb --out');
    const base = ms('node raw client');
    console.log(`  raw page bytes: ${(statSync(join(ws.dir, 'raw.json')).size / 1048576).toFixed(0)} MB; NDJSON ${(statSync(out).size / 1048576).toFixed(0)} MB; ${loadNote()}`);
    printRow({
      measure: `export walk ${rows.toLocaleString('en-US')} rows → NDJSON, apiwb run (whole process)`, ours: rate('apiwb --out'), baseline: `node raw client ${rate('node raw client')}`,
      ratio: `${((base / ours) * 100).toFixed(0)} % of its rate`, peakRss: `${mb(peak('apiwb --out'))} (raw client ${mb(peak('node raw client'))})`,
      goal: '≥ 85 %, < 200 MB', met: base / ours >= 0.85 && peak('apiwb --out') < 200,
    });
    if (runs.has('curl')) console.log(`  curl, page by page: ${rate('curl')} (apiwb = ${((ms('curl') / ours) * 100).toFixed(0)} % of its rate; curl peak RSS ${mb(peak('curl'))})`);
    console.log(`  apiwb without --out: ${rate('apiwb (no --out)')}, peak RSS ${mb(peak('apiwb (no --out)'))}`);
  } finally {
    await ws.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
