// Benchmark: the held budget (src/core/paging/heldBody.ts) shown, not assumed. A body within HELD's bytes,
// values and longest array is held and parsed whole (JSON.parse), so the worst shapes at each limit are what
// the budget costs in memory: at the longest array's, `[{},{},…]`, `[0,0,…]` and `[[],[],…]`; at the
// values', `{"k0":0,…}`, small arrays of empty objects `{"k0":[{},{}],…}`, arrays of arrays of objects
// and of numbers; at the bytes', one big string, one big object, the array of row objects, the bench's
// object of 200 000 small arrays. Each is made as large as the budget lets it be (one unit more passes a
// limit: checked with the scan itself), served by a plain server on 127.0.0.1 and fetched by `apiwb run`
// and `apiwb run --out` as whole processes (this tree's CLI, and each of `--trees DIR,…`): peak RSS
// (VmHWM), time, load. Goal: every shape under 180 MB peak RSS, with --out and without (the goal
// for any single response is < 200 MiB). Prints figures; exit 1 when this tree's peak passes the goal.
//   node --import tsx bench/heldBound.ts [--rounds 1] [--only NAME] [--trees /work/main]
import { MAX_JSON_DEPTH } from '../src/core/json/depth';
import { HeldScan } from '../src/core/json/heldScan';
import { HELD } from '../src/core/paging/heldBody';
import { manySmallArrays, row } from './lib/bodyShapes';
import { openCliWorkspace } from './lib/cliWorkspace';
import { arg, loadNote } from './lib/measure';
import { runTrees, treeClis, treeTable } from './lib/treeRuns';

const GOAL_MB = 180;

const scanOf = (body: Buffer): HeldScan => {
  const scan = new HeldScan(MAX_JSON_DEPTH);
  scan.push(body);
  return scan;
};
const within = (scan: HeldScan): boolean => scan.bytes <= HELD.bytes && scan.values <= HELD.values && scan.longest <= HELD.longestArray && scan.wide <= HELD.wideMembers;

/**
 * The largest body `open`, `unit(0)`, `unit(1)`, … `close` the budget holds: units added while the scan
 * says it is within (by whole tens of thousands first, then one by one), the limit it then meets named.
 */
function largest(open: string, unit: (i: number) => string, close: string): { body: Buffer; units: number; limit: string } {
  const made = (n: number): Buffer => Buffer.from(`${open}${Array.from({ length: n }, (_, i) => unit(i)).join(',')}${close}`);
  let n = 0;
  // Steps no larger than the bytes' limit allows (a body never made much past it).
  const most = HELD.bytes / (unit(0).length + 1);
  for (const step of [100_000, 10_000, 1_000, 100, 10, 1].filter((st) => st <= Math.max(1, most))) while (within(scanOf(made(n + step)))) n += step;
  const past = scanOf(made(n + 1));
  const limit = past.bytes > HELD.bytes ? 'bytes' : past.values > HELD.values ? 'values' : past.wide > HELD.wideMembers ? 'wide members' : 'longest array';
  return { body: made(n), units: n, limit };
}

/** The worst shapes at each limit of the budget, and the rows the rule finds in each. */
function shapes(): { name: string; body: Buffer; rows: number }[] {
  const of = (name: string, made: { body: Buffer; units: number; limit: string }, rows: boolean): { name: string; body: Buffer; rows: number } =>
    ({ name: `${name} (at ${made.limit}, ${(made.body.length / 1048576).toFixed(1)} MiB)`, body: made.body, rows: rows ? made.units : 0 });
  const inner = (n: number, item: string): string => Array.from({ length: n }, () => item).join(',');
  const many = manySmallArrays(200_000, 1);
  const manyScan = scanOf(many.body);
  return [
    of('[{},{},…]', largest('[', () => '{}', ']'), true),
    of('[0,0,…] numbers', largest('[', () => '0', ']'), true),
    of('[[],[],…]', largest('[', () => '[]', ']'), true),
    of('{"k0":0,…}', largest('{', (i) => `"k${i}":0`, '}'), false),
    of('small arrays {"k0":[{},{}],…}', largest('{', (i) => `"k${i}":[{},{}]`, '}'), false),
    of('wide objects {"a0":{"k0":0,…},…}', largest('{', (i) => `"a${i}":{${Array.from({ length: 2000 }, (_, k) => `"k${k}":0`).join(',')}}`, '}'), false),
    of('arrays of objects [[{},…],…]', largest('[', () => `[${inner(1000, '{}')}]`, ']'), true),
    of('arrays of numbers [[0,…],…]', largest('[', () => `[${inner(1000, '0')}]`, ']'), true),
    of('one big string', largest('"', () => 'x'.repeat(1000), '"'), false),
    of('one big object', largest('{', (i) => `"k${i}":"${'x'.repeat(100)}"`, '}'), false),
    of('array of row objects', largest('[', (i) => row(i), ']'), true),
    { name: `200 000 small arrays one down (the bench's, ${(many.body.length / 1048576).toFixed(1)} MiB, ${within(manyScan) ? 'held' : 'streamed'})`, body: many.body, rows: many.rows },
  ];
}

async function main(): Promise<void> {
  const rounds = arg('rounds', 1);
  const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1]! : '';
  const ws = await openCliWorkspace({ exportRows: 10, orders: 10 });
  const trees = await treeClis(ws);
  const table: string[] = [];
  let worst = 0;
  try {
    console.log(`heldBound: the held budget ${JSON.stringify(HELD)}, ${rounds} round(s), CLIs: ${trees.clis.map((c) => c.name).join(', ')}; ${loadNote()}`);
    for (const shape of shapes().filter((s) => s.name.includes(only))) {
      const runs = await runTrees(ws, trees.clis, shape.name, shape.body, shape.rows, rounds);
      table.push(...treeTable(shape.name, runs));
      for (const [side, list] of runs) if (side.startsWith('this tree')) for (const r of list) worst = Math.max(worst, r.peakRssMB);
    }
  } finally {
    trees.close();
    await ws.close();
  }
  console.log('\n| body at the budget | side | time (median, each) | peak RSS | lines | load |\n|---|---|---|---|---|---|');
  for (const line of table) console.log(line);
  console.log(`\nROW | held budget ${HELD.bytes / 1048576} MiB / ${HELD.values} values / ${HELD.longestArray} items / ${HELD.wideMembers} wide members, worst shapes, \`apiwb run\` ± --out (heldBound.ts) | worst peak RSS ${worst.toFixed(0)} MB | goal < ${GOAL_MB} MB | ${worst < GOAL_MB ? 'met' : 'NOT met'} | ${loadNote()}`);
  if (worst >= GOAL_MB) process.exitCode = 1;
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
