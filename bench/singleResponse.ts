// Benchmark: one large JSON response (an export page of ~100 MB, recorded once from the sandbox and
// replayed from memory by a plain server, so the client is what is measured) fetched by `apiwb run` as
// a whole process, with --out (rows to NDJSON) and without (rows counted), against `curl -o` and a raw
// node stream to a file on the same URL, in alternating rounds. Then the memory bound as an ASSERTION:
// a ~300 MB response with --out must stay under 1.5× the body in peak RSS (exit 1 otherwise).
// Goals (issue 14): --out ≤ 3× the baseline's time and peak RSS ≤ 1.5× the body; no --out ≤ 2.5× the body.
// apiwb gets --timeout 600000: the default 30 s deadline covers a whole response, and this machine is shared.
//   node --import tsx bench/singleResponse.ts [--mb 100] [--rounds 3] [--bound-mb 300]
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openCliWorkspace, type CliWorkspace } from './lib/cliWorkspace';
import { EXPORT_PATH, recordExportPage } from './lib/exportPage';
import { arg, curlAvailable, loadNote, mb, median, msText, printRow, timeProcess, type ProcessRun } from './lib/measure';
import { serveBody } from './lib/replayServer';

async function measureBody(ws: CliWorkspace, megabytes: number, rounds: number, withSides: readonly string[]): Promise<{ rows: number; bodyMB: number; runs: Map<string, ProcessRun[]> }> {
  const { body, rows } = await recordExportPage(megabytes);
  const server = await serveBody(body);
  try {
    const url = server.url(EXPORT_PATH);
    writeFileSync(join(ws.dir, 'single.http'), ['# @name bigPage', `POST ${url}`, 'Content-Type: application/json', '', '{ "OFFSET": 1, "TableName": "" }', ''].join('\n'));
    const out = join(ws.dir, 'single.ndjson');
    const apiwb = (withOut: boolean): Promise<ProcessRun> => timeProcess(process.execPath,
      [ws.cli, 'run', 'single.http', '--env', 'sandbox', '--timeout', '600000', ...(withOut ? ['--out', out] : [])],
      { cwd: ws.dir, env: ws.apiwbEnv, stdoutFile: join(ws.dir, 'stdout.txt') });
    const sides: Record<string, () => Promise<ProcessRun>> = {
      'curl -o': () => timeProcess('curl', ['-sS', '--fail', '-X', 'POST', '--data-binary', '{"OFFSET":1,"TableName":""}', '-o', join(ws.dir, 'curl.json'), url]),
      'node raw stream': () => timeProcess(process.execPath, [join(import.meta.dirname, 'lib', 'rawClient.mjs'), 'single', url, join(ws.dir, 'raw.json'), '{"OFFSET":1,"TableName":""}']),
      'apiwb --out': () => apiwb(true),
      'apiwb (no --out)': () => apiwb(false),
    };
    const names = Object.keys(sides).filter((n) => withSides.includes(n) && (n !== 'curl -o' || curlAvailable()));
    const runs = new Map<string, ProcessRun[]>(names.map((n) => [n, []]));
    for (let round = 0; round < rounds; round++) {
      for (const name of round % 2 === 0 ? names : [...names].reverse()) {
        const run = await sides[name]!();
        // apiwb exits 1 on an HTTP or business failure; this page has neither.
        if (run.code !== 0) throw new Error(`${name} exited ${run.code}: ${run.stdout.slice(-400)}`);
        if (name === 'apiwb --out') {
          const lines = Number.parseInt(execFileSync('wc', ['-l', out], { encoding: 'utf8' }), 10);
          if (lines !== rows) throw new Error(`apiwb --out wrote ${lines} lines, expected ${rows}`);
        }
        runs.get(name)!.push(run);
        console.log(`  run ${round + 1} ${name.padEnd(17)} ${msText(run.ms).padStart(9)}  peak RSS ${mb(run.peakRssMB)}`);
      }
    }
    return { rows, bodyMB: body.length / 1048576, runs };
  } finally {
    await server.close();
  }
}

async function main(): Promise<void> {
  const megabytes = arg('mb', 100);
  const rounds = arg('rounds', 3);
  const boundMB = arg('bound-mb', 300);
  const ws = await openCliWorkspace({});
  try {
    console.log(`singleResponse: one ~${megabytes} MB JSON response, ${rounds} rounds; ${loadNote()}`);
    const all = ['curl -o', 'node raw stream', 'apiwb --out', 'apiwb (no --out)'];
    const { rows, bodyMB, runs } = await measureBody(ws, megabytes, rounds, all);
    const ms = (name: string): number => median((runs.get(name) ?? []).map((r) => r.ms));
    const peak = (name: string): number => Math.max(...(runs.get(name) ?? []).map((r) => r.peakRssMB));
    const baseName = runs.has('curl -o') ? 'curl -o' : 'node raw stream';
    const base = ms(baseName);
    console.log(`  body ${bodyMB.toFixed(0)} MB, ${rows.toLocaleString('en-US')} rows; node raw stream ${msText(ms('node raw stream'))} (peak RSS ${mb(peak('node raw stream'))}); ${loadNote()}`);
    printRow({
      measure: `single ${bodyMB.toFixed(0)} MB response, apiwb run --out (whole process)`, ours: msText(ms('apiwb --out')), baseline: `${baseName} ${msText(base)}`,
      ratio: `${(ms('apiwb --out') / base).toFixed(2)}×`, peakRss: `${mb(peak('apiwb --out'))} = ${(peak('apiwb --out') / bodyMB).toFixed(2)}× the body`,
      goal: '≤ 3× its time, RSS ≤ 1.5× the body', met: ms('apiwb --out') / base <= 3 && peak('apiwb --out') <= 1.5 * bodyMB,
    });
    printRow({
      measure: `single ${bodyMB.toFixed(0)} MB response, no --out`, ours: msText(ms('apiwb (no --out)')), baseline: `${baseName} ${msText(base)}`,
      ratio: `${(ms('apiwb (no --out)') / base).toFixed(2)}×`, peakRss: `${mb(peak('apiwb (no --out)'))} = ${(peak('apiwb (no --out)') / bodyMB).toFixed(2)}× the body`,
      goal: 'RSS ≤ 2.5× the body', met: peak('apiwb (no --out)') <= 2.5 * bodyMB,
    });

    if (boundMB > 0) {
      // The memory bound, asserted: a response three times larger must not cost three times more than the bound allows.
      const big = await measureBody(ws, boundMB, 1, ['apiwb --out']);
      const rss = Math.max(...(big.runs.get('apiwb --out') ?? []).map((r) => r.peakRssMB));
      const bound = 1.5 * big.bodyMB;
      console.log(`  memory bound: ${big.bodyMB.toFixed(0)} MB response with --out, peak RSS ${mb(rss)} (bound ${mb(bound)} = 1.5× the body): ${rss <= bound ? 'within' : 'EXCEEDED'}`);
      if (rss > bound) process.exitCode = 1;
    }
  } finally {
    await ws.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
