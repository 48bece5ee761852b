// Benchmark: the held bound (src/core/paging/heldBody.ts) shown, not assumed. A body up to HELD.bytes is
// held and parsed whole (JSON.parse), so its worst shapes at exactly that size are what the bound costs in
// memory: many empty arrays or objects (`[[],[],…]`, `[{},{},…]`, `{"k0":[],…}`), an array of one-digit
// numbers, one big string, one big object, a map of 200 000-ish small arrays, and the array of row
// objects. Each is served by a plain server on 127.0.0.1 and fetched by `apiwb run` and `apiwb run --out`
// as whole processes (this tree's CLI, and each of `--trees DIR,…`): peak RSS (VmHWM), time, load.
// Goal: every shape at the bound under 150 MiB peak RSS, with --out and without. Prints figures; exit 1
// when this tree's peak passes the goal. `--bound-mb N` measures bodies of N MiB instead (what a larger
// bound would cost; the CLI's own bound is unchanged).
//   node --import tsx bench/heldBound.ts [--rounds 1] [--bound-mb 4] [--trees /work/main]
import { HELD } from '../src/core/paging/heldBody';
import { row } from './lib/bodyShapes';
import { openCliWorkspace } from './lib/cliWorkspace';
import { arg, loadNote } from './lib/measure';
import { runTrees, treeClis, treeTable } from './lib/treeRuns';

const GOAL_MB = 150;

/** A body of exactly `size` bytes: `open`, then `unit(i)` joined by commas while they fit, then `close` (blanks fill the rest). */
function exactly(size: number, open: string, unit: (i: number) => string, close: string): { body: Buffer; units: number } {
  const parts: string[] = [open];
  let length = open.length + close.length;
  let i = 0;
  for (;;) {
    const next = `${i ? ',' : ''}${unit(i)}`;
    if (length + next.length > size) break;
    parts.push(next);
    length += next.length;
    i++;
  }
  parts.push(close, ' '.repeat(size - length));
  return { body: Buffer.from(parts.join('')), units: i };
}

/** The worst shapes of a held body, each exactly `size` bytes, and the rows the rule finds in it. */
function shapes(size: number): { name: string; body: Buffer; rows: number }[] {
  const of = (name: string, made: { body: Buffer; units: number }, rows: boolean): { name: string; body: Buffer; rows: number } => ({ name, body: made.body, rows: rows ? made.units : 0 });
  return [
    of('[[],[],…]', exactly(size, '[', () => '[]', ']'), true),
    of('[{},{},…]', exactly(size, '[', () => '{}', ']'), true),
    of('{"k0":[],…}', exactly(size, '{', (i) => `"k${i}":[]`, '}'), false),
    of('[0,0,…] numbers', exactly(size, '[', () => '0', ']'), true),
    of('one big string', { body: Buffer.from(`"${'x'.repeat(size - 2)}"`), units: 0 }, false),
    of('one big object', exactly(size, '{', (i) => `"k${i}":${i % 10}`, '}'), false),
    of('small arrays {"k0":[{"i":0},{"j":0}],…}', exactly(size, '{', (i) => `"k${i}":[{"i":${i % 10}},{"j":${i % 10}}]`, '}'), false),
    of('array of row objects', exactly(size, '[', (i) => row(i), ']'), true),
  ];
}

async function main(): Promise<void> {
  const rounds = arg('rounds', 1);
  const size = Math.round(arg('bound-mb', HELD.bytes / 1048576) * 1048576);
  const ws = await openCliWorkspace({ exportRows: 10, orders: 10 });
  const trees = await treeClis(ws);
  const table: string[] = [];
  let worst = 0;
  try {
    console.log(`heldBound: bodies of ${size} bytes (the held bound: ${HELD.bytes}), ${rounds} round(s), CLIs: ${trees.clis.map((c) => c.name).join(', ')}; ${loadNote()}`);
    for (const shape of shapes(size)) {
      const runs = await runTrees(ws, trees.clis, shape.name, shape.body, shape.rows, rounds);
      table.push(...treeTable(shape.name, runs));
      for (const [side, list] of runs) if (side.startsWith('this tree')) for (const r of list) worst = Math.max(worst, r.peakRssMB);
    }
  } finally {
    trees.close();
    await ws.close();
  }
  console.log(`\n| body of ${(size / 1048576).toFixed(2)} MiB | side | time (median, each) | peak RSS | lines | load |\n|---|---|---|---|---|---|`);
  for (const line of table) console.log(line);
  console.log(`\nROW | held bound ${(size / 1048576).toFixed(2)} MiB, worst shapes, \`apiwb run\` ± --out (heldBound.ts) | worst peak RSS ${worst.toFixed(0)} MB | goal < ${GOAL_MB} MiB | ${worst < GOAL_MB ? 'met' : 'NOT met'} | ${loadNote()}`);
  if (worst >= GOAL_MB) process.exitCode = 1;
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
