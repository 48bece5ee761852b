// Benchmark: one large JSON response (an export page of ~100 MB, recorded once from the sandbox and
// replayed from memory by a plain server, so the client is what is measured) fetched by `apiwb run` as
// a whole process, with --out (rows to NDJSON) and without (rows counted), against `curl -o` and a raw
// node stream to a file on the same URL, in alternating rounds. Then the memory bound as an ASSERTION:
// a ~300 MB response with --out must stay under 1.5× the body in peak RSS (exit 1 otherwise).
// Goals (issue 14): --out ≤ 3× the baseline's time and peak RSS ≤ 1.5× the body; no --out ≤ 2.5× the body.
// apiwb gets --timeout 600000: the default 30 s deadline covers a whole response, and this machine is shared.
// Then every shape (issue 37): the array of row objects, the rows one level down ({"Data":[…]}), one big
// object, one big string, an array of numbers and the catalog's export page, each at 100 and 200 MB from
// this bench's own server, beside `curl -o`: `apiwb run` with and without --out, whole processes, peak RSS
// (VmHWM). Goals: peak RSS under 200 MiB for every shape and size; --out of a 100 MB array of rows at most
// 5× curl's time.
//   node --import tsx bench/singleResponse.ts [--mb 100] [--rounds 3] [--bound-mb 300] [--shapes 1] [--shape-mb 100,200] [--only-shapes 1]
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openCliWorkspace, type CliWorkspace } from './lib/cliWorkspace';
import { EXPORT_PATH, recordExportPage } from './lib/exportPage';
import { arg, curlAvailable, loadNote, mb, median, msText, printRow, timeProcess, type ProcessRun } from './lib/measure';
import { serveBody } from './lib/replayServer';
import { SHAPES, shapeBody, type ShapeName } from './lib/bodyShapes';

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

/** One shape at one size: curl -o, apiwb run and apiwb run --out, one round each (alternating order). */
async function measureShape(ws: CliWorkspace, shape: ShapeName | 'export page', megabytes: number): Promise<Map<string, ProcessRun>> {
  const recorded = shape === 'export page' ? await recordExportPage(megabytes) : shapeBody(shape, megabytes);
  const server = await serveBody(recorded.body);
  const runs = new Map<string, ProcessRun>();
  try {
    const exportPage = shape === 'export page';
    const url = server.url(exportPage ? EXPORT_PATH : '/shape');
    const request = exportPage
      ? ['# @name bigPage', `POST ${url}`, 'Content-Type: application/json', '', '{ "OFFSET": 1, "TableName": "" }', '']
      : ['# @name bigBody', `GET ${url}`, ''];
    writeFileSync(join(ws.dir, 'shape.http'), request.join('\n'));
    const out = join(ws.dir, 'shape.ndjson');
    const apiwb = (withOut: boolean): Promise<ProcessRun> => timeProcess(process.execPath,
      [ws.cli, 'run', 'shape.http', '--env', 'sandbox', '--timeout', '600000', ...(withOut ? ['--out', out] : [])],
      { cwd: ws.dir, env: ws.apiwbEnv, stdoutFile: join(ws.dir, 'stdout.txt') });
    const curlArgs = exportPage ? ['-X', 'POST', '--data-binary', '{"OFFSET":1,"TableName":""}'] : [];
    const sides: Record<string, () => Promise<ProcessRun>> = {
      'curl -o': () => timeProcess('curl', ['-sS', '--fail', ...curlArgs, '-o', join(ws.dir, 'curl.json'), url]),
      'apiwb run': () => apiwb(false),
      'apiwb run --out': () => apiwb(true),
    };
    for (const name of Object.keys(sides).filter((n) => n !== 'curl -o' || curlAvailable())) {
      const run = await sides[name]!();
      runs.set(name, run);
      const lines = name === 'apiwb run --out' && run.code === 0 ? Number.parseInt(execFileSync('wc', ['-l', out], { encoding: 'utf8' }), 10) : undefined;
      const said = run.stdout.trim().split('\n')[0] ?? '';
      console.log(`  ${shape.padEnd(22)} ${String(megabytes).padStart(4)} MB  ${name.padEnd(16)} ${msText(run.ms).padStart(9)}  peak RSS ${mb(run.peakRssMB).padStart(7)}  exit ${run.code}${lines === undefined ? '' : `  ${lines} lines (rule: ${recorded.rows} rows)`}${name.startsWith('apiwb') ? `  | ${said.slice(0, 160)}` : ''}`);
    }
  } finally {
    await server.close();
  }
  return runs;
}

async function shapesTable(ws: CliWorkspace, sizes: readonly number[]): Promise<void> {
  console.log(`singleResponse, every shape: ${loadNote()}`);
  const table: string[] = ['| body, shape | size | curl -o | apiwb run | apiwb run --out |', '|---|---|---|---|---|'];
  for (const megabytes of sizes) {
    for (const shape of [...SHAPES, 'export page' as const]) {
      const runs = await measureShape(ws, shape, megabytes);
      const cell = (name: string): string => {
        const r = runs.get(name);
        return r ? `${msText(r.ms)}, ${mb(r.peakRssMB)}${r.code === 0 ? '' : ` (exit ${r.code})`}` : '—';
      };
      table.push(`| ${shape} | ${megabytes} MB | ${cell('curl -o')} | ${cell('apiwb run')} | ${cell('apiwb run --out')} |`);
      const worst = Math.max(runs.get('apiwb run')?.peakRssMB ?? Infinity, runs.get('apiwb run --out')?.peakRssMB ?? Infinity);
      const curl = runs.get('curl -o')?.ms;
      const outMs = runs.get('apiwb run --out')?.ms ?? NaN;
      const timed = shape === 'array of row objects' && megabytes === 100 && curl !== undefined;
      printRow({
        measure: `single response, ${shape}, ${megabytes} MB: apiwb run with and without --out`,
        ours: `${msText(runs.get('apiwb run')?.ms ?? NaN)} / --out ${msText(outMs)}`,
        baseline: curl === undefined ? 'no curl' : `curl -o ${msText(curl)}`,
        ratio: curl === undefined ? '—' : `--out ${(outMs / curl).toFixed(2)}×`,
        peakRss: `${mb(runs.get('apiwb run')?.peakRssMB ?? NaN)} / --out ${mb(runs.get('apiwb run --out')?.peakRssMB ?? NaN)}`,
        goal: timed ? 'RSS < 200 MiB, --out ≤ 5× curl' : 'RSS < 200 MiB',
        met: worst < 200 && [...runs.values()].every((r) => r.code === 0) && (!timed || outMs / curl <= 5),
      });
    }
  }
  console.log(`\n${table.join('\n')}\n(${loadNote()})`);
}

async function main(): Promise<void> {
  if (arg('only-shapes', 0) === 1) {
    const ws = await openCliWorkspace({});
    try {
      await shapesTable(ws, shapeSizes());
    } finally {
      await ws.close();
    }
    return;
  }
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
    if (arg('shapes', 1) === 1) await shapesTable(ws, shapeSizes());
  } finally {
    await ws.close();
  }
}

function shapeSizes(): number[] {
  const i = process.argv.indexOf('--shape-mb');
  return (i >= 0 ? process.argv[i + 1]! : '100,200').split(',').map(Number);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
