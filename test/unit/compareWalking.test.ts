// Side B compared while its walk writes it (src/core/compare/compareSides.ts compareWalking, growingFile.ts):
// a walk simulated page by page through the real NDJSON sink, the comparer reading each kept page as it
// comes. Against the brute-force oracle on the finished sides: inputs larger than one partition, moves
// between pages, duplicates, missing keys, volatile fields, --ignore, with and without a listener (as
// with --out), sides in key order (held pairs), a page refused by the walk, a walk stopped midway, a
// side that outgrows its partitions, a key only side B's operation names, a side B without response.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { compareWalking, type ComparedSide } from '../../src/core/compare/compareSides';
import { GrowingFile, GrowingFileGaveUp, keepingSink } from '../../src/core/compare/growingFile';
import { LineReader } from '../../src/core/compare/lineReader';
import { rowsWorkerOf } from '../../src/core/compare/rowsWorker';
import type { RecordDifference } from '../../src/core/compare/partitioned';
import type { SideSummary } from '../../src/core/compare/requestComparison';
import { rulesOf } from '../../src/core/compare/records';
import { openNdjsonSink } from '../../src/core/export/ndjsonSink';
import { generate, oracle, prng, type Rec } from './compareOracle';

const dir = mkdtempSync(join(tmpdir(), 'apiwb-compare-walking-test-'));
const WORKER = join(import.meta.dirname, 'compareRowsWorker.ts');
after(() => rmSync(dir, { recursive: true, force: true }));

const summary: SideSummary = { business: 'ok', errorCodes: [], drift: [] };
const asOracleText = (d: RecordDifference): string => JSON.stringify([d.kind, d.key, d.before ?? null, d.after ?? null]);
const turns = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** A growing file that counts the reads that waited for a page, and tells the walk when its reader caught up. */
class Watched extends GrowingFile {
  waits = 0;
  private caught: (() => void) | undefined;
  /** Resolves when the reader next waits for more (it has read every page kept). */
  caughtUp(): Promise<void> {
    return new Promise((resolve) => (this.caught = resolve));
  }
  override more(): Promise<void> {
    if (!this.ended) {
      this.waits++;
      this.caught?.();
      this.caught = undefined;
    }
    return super.more();
  }
}

interface WalkPlan {
  readonly pageRows: number;
  /** The walk stops after this many pages (Stop): what it kept is side B. */
  readonly stopAfter?: number;
  /** Before this page, a page written while it arrived is refused (its bytes cut off). */
  readonly refuse?: number;
  readonly recordKey?: string;
  /** The walk got no response: no rows file. */
  readonly noResponse?: boolean;
  /** The walk goes on once the comparison read each page (not where the reader gives up midway). */
  readonly inStep?: boolean;
}

/** Side B's walk: its lines page by page through the NDJSON sink, each page kept, a few turns of the event loop between pages. */
async function walk(path: string, lines: readonly string[], rows: Watched, plan: WalkPlan): Promise<ComparedSide> {
  const sink = keepingSink(await openNdjsonSink(path), rows, path);
  try {
    for (let page = 0, at = 0; at < lines.length; page++, at += plan.pageRows) {
      if (plan.stopAfter !== undefined && page >= plan.stopAfter) break;
      if (plan.refuse === page) {
        const refused = sink.openPage!();
        await refused.writeNdjson([Buffer.from('{"code":"refused","half":\n')], 1, new Set());
        await turns();
        await refused.drop();
      }
      const held = sink.openPage!();
      const part = lines.slice(at, at + plan.pageRows);
      await held.writeNdjson([Buffer.from(part.slice(0, 1).map((l) => `${l}\n`).join('')), Buffer.from(part.slice(1).map((l) => `${l}\n`).join(''))], part.length, new Set());
      const caughtUp = plan.inStep === false ? turns() : rows.caughtUp();
      await held.keep();
      await caughtUp;
    }
  } finally {
    await sink.close();
  }
  return { summary: { ...summary, rows: lines.length }, ...(plan.noResponse ? {} : { rowsFile: path }), ...(plan.recordKey ? { recordKey: plan.recordKey } : {}) };
}

interface Run {
  readonly a: readonly string[];
  readonly b: readonly string[];
  readonly name: string;
  readonly key?: string;
  readonly ignore?: readonly string[];
  readonly partitionBytes?: number;
  readonly listen: boolean;
  readonly plan: WalkPlan;
  /** Compared on a worker thread (rowsWorker.ts) loading this file. */
  readonly worker?: string;
}

async function compareWhileWalking(run: Run) {
  const pathA = join(dir, `${run.name}-a.ndjson`);
  writeFileSync(pathA, run.a.map((l) => `${l}\n`).join(''));
  const rows = new Watched();
  const diffs: RecordDifference[] = [];
  const done = walk(join(dir, `${run.name}-b.ndjson`), run.b, rows, run.plan);
  const comparison = await compareWalking('r', { summary, rowsFile: pathA }, { rows, done }, {
    ...(run.key ? { key: run.key } : {}), ignore: run.ignore ?? [], tempDir: dir, ...(run.partitionBytes ? { partitionBytes: run.partitionBytes } : {}),
    ...(run.listen ? { onDifference: (d: RecordDifference) => { diffs.push(d); } } : {}),
    ...(run.worker ? { elsewhere: rowsWorkerOf(run.worker) } : {}),
  });
  return { comparison, diffs, waits: rows.waits };
}

const countsOf = (r: { added: number; removed: number; changed: number; unchanged: number }): Record<string, number> => ({ added: r.added, removed: r.removed, changed: r.changed, unchanged: r.unchanged });

/** The oracle's answer for side A against side B's lines (parsed), by `key`, ignoring `ignore`. */
function expected(a: readonly string[], b: readonly string[], key: string | undefined, ignore: readonly string[] = []) {
  return oracle(a.map((t) => JSON.parse(t) as Rec), b.map((t) => JSON.parse(t) as Rec), rulesOf(key, ignore), { a, b });
}

void describe('side B compared while its walk writes it, against the oracle', () => {
  for (const [seed, n, partitionBytes, moves, ignore] of [[61, 600, 500, 'all', []], [62, 800, 2_000, 'few', ['amount']], [63, 500, undefined, 'few', ['nested.level']]] as const) {
    for (const listen of [false, true]) {
      void it(`seed ${seed}: ${n} records, ${partitionBytes ?? 'default'}-byte partitions, ${moves === 'all' ? 'every record moved' : 'a few moved'}, ignoring [${ignore.join(', ')}], ${listen ? 'differences listened to (--out)' : 'counts only'}`, async () => {
        const { a, b } = generate(seed, n, moves);
        const [textsA, textsB] = [a.map((x) => JSON.stringify(x)), b.map((x) => JSON.stringify(x))];
        const { comparison, diffs, waits } = await compareWhileWalking({ a: textsA, b: textsB, name: `g${seed}`, key: 'code', ignore, ...(partitionBytes ? { partitionBytes } : {}), listen, plan: { pageRows: 97 } });
        const want = expected(textsA, textsB, 'code', ignore);
        assert.ok(comparison.records);
        assert.deepEqual(countsOf(comparison.records), want.counts);
        if (listen) assert.deepEqual(diffs.map(asOracleText).sort(), want.diffs);
        assert.deepEqual([comparison.records.rowsA, comparison.records.rowsB], [a.length, b.length]);
        if (partitionBytes !== undefined) assert.ok(comparison.records.partitions > 10, `${comparison.records.partitions} partitions: the input spans many`);
        assert.ok(waits > 2, `the comparison waited for pages ${waits} times: it ran while the walk did`);
        assert.ok(want.counts['added']! > 0 && want.counts['removed']! > 0 && want.counts['changed']! > 0 && want.counts['unchanged']! > 0);
      });
    }
  }

  // Both sides in key order: differing pairs are held back and counted changed at the ends (pendingPairs.ts).
  const keyed = (code: unknown, r: () => number): string => JSON.stringify({ code, qty: Math.floor(r() * 50), outlet: ['bar', 'spa', 'pool'][Math.floor(r() * 3)]!, at: '2026-01-01' });
  const ordered = (name: string, bend: (a: string[], b: string[]) => void): { a: string[]; b: string[] } => {
    const r = prng(name.length);
    const a = Array.from({ length: 400 }, (_, i) => keyed(i, r));
    const b = a.map((text, i) => (i % 9 === 0 ? text : keyed(i, r)));
    bend(a, b);
    return { a, b };
  };
  for (const [name, bend] of [
    ['keys in order to the end', () => undefined],
    ['keys in order, B repeats an early key in its last page', (a: string[], b: string[]) => b.push(a[5]!)],
    ['keys in order, a run of B out of order in its third page', (_a: string[], b: string[]) => b.splice(130, 10, ...b.slice(130, 140).reverse())],
  ] as const) {
    void it(`${name}: the oracle's answer, counts only and listened to`, async () => {
      const { a, b } = ordered(name, bend);
      const want = expected(a, b, 'code');
      for (const listen of [false, true]) {
        const { comparison, diffs, waits } = await compareWhileWalking({ a, b, name: `o${name.length}`, key: 'code', partitionBytes: 1_000, listen, plan: { pageRows: 50 } });
        assert.deepEqual(countsOf(comparison.records!), want.counts);
        if (listen) assert.deepEqual(diffs.map(asOracleText).sort(), want.diffs);
        assert.ok(waits > 2);
      }
      assert.ok(want.counts['changed']! > 300);
    });
  }

  void it('a page the walk refused is never read; Stop midway: side B is what the walk kept', async () => {
    const { a, b } = generate(64, 600, 'few');
    const [textsA, textsB] = [a.map((x) => JSON.stringify(x)), b.map((x) => JSON.stringify(x))];
    for (const listen of [false, true]) {
      const { comparison, diffs } = await compareWhileWalking({ a: textsA, b: textsB, name: 'stop', key: 'code', partitionBytes: 800, listen, plan: { pageRows: 60, stopAfter: 4, refuse: 2 } });
      const want = expected(textsA, textsB.slice(0, 240), 'code');
      assert.deepEqual(countsOf(comparison.records!), want.counts);
      assert.equal(comparison.records!.rowsB, 240);
      if (listen) assert.deepEqual(diffs.map(asOracleText).sort(), want.diffs);
    }
  });

  void it('a side B that outgrows the partitions counted from side A: the finished files compared, the oracle\'s answer', async () => {
    const { a, b } = generate(65, 900, 'all');
    const [textsA, textsB] = [a.slice(0, 150).map((x) => JSON.stringify(x)), b.map((x) => JSON.stringify(x))];
    const { comparison, diffs } = await compareWhileWalking({ a: textsA, b: textsB, name: 'outgrown', key: 'code', partitionBytes: 600, listen: true, plan: { pageRows: 100, inStep: false } });
    const want = expected(textsA, textsB, 'code');
    assert.deepEqual(countsOf(comparison.records!), want.counts);
    assert.deepEqual(diffs.map(asOracleText).sort(), want.diffs);
    // Counted from B's size too (the finished files): more partitions than side A's size alone gives.
    assert.ok(comparison.records!.partitions > Math.ceil(textsA.join('\n').length / 600) + 5, `${comparison.records!.partitions} partitions`);
  });

  void it('a key only side B\'s operation names: compared by it, the oracle\'s answer', async () => {
    const { a, b } = generate(66, 400, 'all');
    const [textsA, textsB] = [a.map((x) => JSON.stringify(x)), b.map((x) => JSON.stringify(x))];
    const { comparison } = await compareWhileWalking({ a: textsA, b: textsB, name: 'bkey', partitionBytes: 700, listen: false, plan: { pageRows: 80, recordKey: 'code' } });
    assert.deepEqual(countsOf(comparison.records!), expected(textsA, textsB, 'code').counts);
    assert.notDeepEqual(expected(textsA, textsB, 'code').counts, expected(textsA, textsB, undefined).counts);
  });

  void it('side B without a response: no records compared; a line of B that is not JSON: the input error, once its walk is over', async () => {
    const { a, b } = generate(67, 200, 'few');
    const [textsA, textsB] = [a.map((x) => JSON.stringify(x)), b.map((x) => JSON.stringify(x))];
    const none = await compareWhileWalking({ a: textsA, b: textsB, name: 'none', key: 'code', listen: false, plan: { pageRows: 50, noResponse: true } });
    assert.equal(none.comparison.records, undefined);
    const bad = [...textsB.slice(0, 30), '{"code":', ...textsB.slice(30)];
    let walked = 0;
    const rows = new Watched();
    const done = walk(join(dir, 'bad-b.ndjson'), bad, rows, { pageRows: 10, inStep: false }).then((side) => {
      walked = bad.length;
      return side;
    });
    writeFileSync(join(dir, 'bad-a.ndjson'), textsA.map((l) => `${l}\n`).join(''));
    await assert.rejects(compareWalking('r', { summary, rowsFile: join(dir, 'bad-a.ndjson') }, { rows, done }, { key: 'code', ignore: [], tempDir: dir }), /bad-b\.ndjson:31: not a JSON record/);
    assert.equal(walked, bad.length, 'the walk went on to its end');
  });
});

void describe('a rows file read as it grows', () => {
  const lineOf = (reader: LineReader): string => reader.buf.toString('utf8', reader.start, reader.end);
  /** `text` written to `name`, read as a growing file of which `kept` bytes are kept so far. */
  const growing = async (name: string, text: string, kept: number, maxBytes: number): Promise<{ file: GrowingFile; reader: LineReader; path: string }> => {
    const path = join(dir, name);
    writeFileSync(path, text);
    const file = new GrowingFile();
    file.at(path);
    file.grow(kept);
    return { file, path, reader: await LineReader.openGrowing({ file, maxBytes }) };
  };

  void it('is read up to its kept bytes only, waits for more, and ends at its length once its writer is done', async () => {
    const { file, reader } = await growing('kept.ndjson', '{"n":1}\n{"n":2}\n{"n":3}\n{"n":4}', 8, 1_000);
    assert.ok(await reader.nextLine());
    assert.equal(lineOf(reader), '{"n":1}');
    assert.equal(reader.next(), false, 'bytes past the kept ones were read');
    let second: boolean | undefined;
    const pending = reader.nextLine().then((more) => (second = more));
    for (let t = 0; t < 5; t++) await turns();
    assert.equal(second, undefined, 'a line was given before it was kept');
    file.grow(16);
    await pending;
    assert.equal(lineOf(reader), '{"n":2}');
    await file.end();
    assert.ok(await reader.nextLine());
    assert.equal(lineOf(reader), '{"n":3}');
    assert.ok(await reader.nextLine());
    assert.equal(lineOf(reader), '{"n":4}', 'the last line, without a line end, once the file ended');
    assert.equal(await reader.nextLine(), false);
    await reader.close();
  });

  void it('gives up when the file ends shorter than what was kept, or outgrows the reader\'s limit', async () => {
    const { file: shorter, reader, path } = await growing('gone.ndjson', '{"n":1}\n{"n":2}\n', 16, 1_000);
    assert.ok(await reader.nextLine());
    assert.ok(await reader.nextLine());
    writeFileSync(path, '{"n":1}\n');
    await shorter.end();
    await assert.rejects(reader.nextLine(), GrowingFileGaveUp);
    await reader.close();
    const { file: big, reader: limited } = await growing('big.ndjson', '{"n":1}\n{"n":2}\n{"n":3}\n', 8, 16);
    assert.ok(await limited.nextLine());
    big.grow(24);
    await assert.rejects(limited.nextLine(), GrowingFileGaveUp);
    await limited.close();
  });
});

void describe('side B compared on a worker thread while its walk writes it, against the oracle', () => {
  const textsOf = (records: Rec[]): string[] => records.map((x) => JSON.stringify(x));
  for (const [seed, n, partitionBytes, moves, ignore] of [[71, 600, 500, 'all', []], [72, 700, 1_500, 'few', ['amount']]] as const) {
    void it(`seed ${seed}: ${n} records, ${partitionBytes}-byte partitions, ${moves === 'all' ? 'every record moved' : 'a few moved'}, ignoring [${ignore.join(', ')}]`, async () => {
      const { a, b } = generate(seed, n, moves);
      const [textsA, textsB] = [textsOf(a), textsOf(b)];
      const { comparison } = await compareWhileWalking({ a: textsA, b: textsB, name: `w${seed}`, key: 'code', ignore, partitionBytes, listen: false, worker: WORKER, plan: { pageRows: 90, inStep: false } });
      const want = expected(textsA, textsB, 'code', ignore);
      assert.deepEqual(countsOf(comparison.records!), want.counts);
      assert.ok(comparison.records!.partitions > 10);
      assert.ok(want.counts['added']! > 0 && want.counts['removed']! > 0 && want.counts['changed']! > 0 && want.counts['unchanged']! > 0);
    });
  }

  void it('keys in order (held pairs), a refused page, Stop midway: the oracle\'s answer on what the walk kept', async () => {
    const r = prng(73);
    const row = (code: number): string => JSON.stringify({ code, qty: Math.floor(r() * 50), outlet: ['bar', 'spa'][Math.floor(r() * 2)]! });
    const a = Array.from({ length: 500 }, (_, i) => row(i));
    const b = a.map((text, i) => (i % 7 === 0 ? text : row(i)));
    const { comparison } = await compareWhileWalking({ a, b, name: 'wstop', key: 'code', partitionBytes: 900, listen: false, worker: WORKER, plan: { pageRows: 60, stopAfter: 5, refuse: 3, inStep: false } });
    assert.deepEqual(countsOf(comparison.records!), expected(a, b.slice(0, 300), 'code').counts);
    assert.equal(comparison.records!.rowsB, 300);
  });

  void it('differences listened to (--out) are found on this thread, all of them', async () => {
    const { a, b } = generate(74, 300, 'all');
    const [textsA, textsB] = [textsOf(a), textsOf(b)];
    const { diffs } = await compareWhileWalking({ a: textsA, b: textsB, name: 'wlisten', key: 'code', partitionBytes: 700, listen: true, worker: WORKER, plan: { pageRows: 70, inStep: false } });
    assert.deepEqual(diffs.map(asOracleText).sort(), expected(textsA, textsB, 'code').diffs);
  });

  void it('a worker that cannot start, or meets a line that is not JSON: the finished files compared here, the same answer and the same input error', async () => {
    const { a, b } = generate(75, 300, 'few');
    const [textsA, textsB] = [textsOf(a), textsOf(b)];
    const { comparison } = await compareWhileWalking({ a: textsA, b: textsB, name: 'wnone', key: 'code', partitionBytes: 700, listen: false, worker: join(dir, 'no-such-worker.js'), plan: { pageRows: 70, inStep: false } });
    assert.deepEqual(countsOf(comparison.records!), expected(textsA, textsB, 'code').counts);
    const bad = [...textsB.slice(0, 40), '{"code":', ...textsB.slice(40)];
    await assert.rejects(compareWhileWalking({ a: textsA, b: bad, name: 'wbad', key: 'code', listen: false, worker: WORKER, plan: { pageRows: 25, inStep: false } }), /wbad-b\.ndjson:41: not a JSON record/);
  });
});
