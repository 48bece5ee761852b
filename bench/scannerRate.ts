// Micro-measure (printed, not a goal row): the row splitter's one-pass scanner alone on the export page
// the single-response bench replays, fed in 64 KB chunks as undici hands them over, rows going to
// ByteBlocks as in `apiwb run --out`. Reports ns per body byte: the first pass (a fresh scanner, JIT
// warm-up included, as one `apiwb run` pays it) and the best of the warm passes; wall time and, on
// Linux, the main thread's own CPU time (steadier on a shared machine).
//   node --import tsx bench/scannerRate.ts [--mb 100] [--rounds 10]
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import * as esbuild from 'esbuild';
import { REQUEST_SENDER_FLAGS } from '../src/cli/v8Flags';
import type * as Splitter from '../src/core/export/jsonRowSplitter';
import { recordExportPage } from './lib/exportPage';
import { arg, loadNote, median } from './lib/measure';

const CHUNK = 65_536;
const SCHEDSTAT = '/proc/thread-self/schedstat';

/** This thread's CPU time in ms (Linux), or undefined. */
function threadCpuMs(): number | undefined {
  return existsSync(SCHEDSTAT) ? Number(readFileSync(SCHEDSTAT, 'utf8').split(' ')[0]) / 1e6 : undefined;
}

/**
 * The splitter as it ships: bundled by esbuild as scripts/build.mjs bundles the CLI, so its modules are one
 * scope (tsx would load each module apart and call across them through module objects, which a split
 * splitter pays for and the product does not), and run with apiwb run's V8 flags.
 */
function shippedSplitter(): typeof Splitter {
  const dir = mkdtempSync(join(tmpdir(), 'apiwb-bench-scanner-'));
  const outfile = join(dir, 'splitter.js');
  esbuild.buildSync({ bundle: true, minify: true, platform: 'node', target: 'node20', format: 'cjs', logLevel: 'warning', legalComments: 'none', entryPoints: ['src/core/export/jsonRowSplitter.ts'], outfile });
  // With the V8 flags apiwb run sets before it compiles a bundle that sends requests (src/cli/main.ts).
  setFlagsFromString(REQUEST_SENDER_FLAGS);
  try {
    return createRequire(import.meta.url)(outfile) as typeof Splitter;
  } finally {
    rmSync(dir, { recursive: true, force: true }); // loaded: the file is not needed any more
  }
}

async function main(): Promise<void> {
  const { ByteBlocks, JsonRowSplitter } = shippedSplitter();
  const megabytes = arg('mb', 100);
  const rounds = arg('rounds', 10);
  const { body, rows } = await recordExportPage(megabytes);
  const chunks: Buffer[] = [];
  for (let at = 0; at < body.length; at += CHUNK) chunks.push(body.subarray(at, at + CHUNK));
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const out = new ByteBlocks();
    const cpuBefore = threadCpuMs();
    const started = performance.now();
    const splitter = new JsonRowSplitter('Result', out);
    for (const chunk of chunks) {
      splitter.push(chunk);
      if (out.length >= 1 << 20) out.take(); // batches handed to the sink, as fetchStreamed does
    }
    const result = splitter.end();
    wall.push(performance.now() - started);
    const cpuAfter = threadCpuMs();
    if (cpuBefore !== undefined && cpuAfter !== undefined) cpu.push(cpuAfter - cpuBefore);
    if (result.rowCount !== rows) throw new Error(`the scanner found ${result.rowCount} rows, expected ${rows}`);
  }
  const perByte = (ms: number | undefined): string => (ms === undefined ? 'n/a' : `${((ms * 1e6) / body.length).toFixed(2)} ns/byte`);
  const warm = (values: readonly number[]): number | undefined => (values.length > 1 ? Math.min(...values.slice(1)) : undefined);
  console.log(`scannerRate: ${(body.length / 1048576).toFixed(0)} MB export page, ${rows.toLocaleString('en-US')} rows, 64 KB chunks, ${rounds} passes; ${loadNote()}`);
  console.log(`  first pass (JIT warm-up included): wall ${perByte(wall[0])}, main-thread CPU ${perByte(cpu[0])}`);
  console.log(`  warm passes: best wall ${perByte(warm(wall))} (median ${perByte(median(wall.slice(1)))}), best main-thread CPU ${perByte(warm(cpu))}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
