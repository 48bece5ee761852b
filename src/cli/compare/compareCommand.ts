// `apiwb compare`: two sides of the same requests (two environments, an environment and its recorded
// baseline, or two export files), compared request by request and record by record (src/core/compare).
// One request on the network at a time: side A's response (or walk) whole, then side B's; their rows
// wait in temporary files, side B's compared with A's as its walk keeps them, and are removed after.
// Exit codes: 0 the sides agree, 1 they differ, 2 usage or input error.
import { Redactor } from '../../core/secrets/redact';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compareWalking, type WalkingSide } from '../../core/compare/compareSides';
import { GrowingFile } from '../../core/compare/growingFile';
import { rowsWorkerOf, serveRowsWorker } from '../../core/compare/rowsWorker';
import { compareRecordFiles, type RecordDifference } from '../../core/compare/partitioned';
import { RecordFileError, formatOfPath } from '../../core/compare/recordFiles';
import { rulesOf } from '../../core/compare/records';
import { compareRequest, countsLine, type RequestComparison, type SideSummary } from '../../core/compare/requestComparison';
import { keptAsideNotes } from '../../core/export/fileSink';
import { EnvFileError } from '../../core/env/model';
import { closeHttpAgents } from '../../core/http/client';
import { OutputRefused, type RunFiles } from '../../core/files/outputs';
import { commandFiles } from '../keptPlaces';
import { terminalSafe } from '../../core/text/terminalText';
import { secretValuesFromEnvironment } from '../nodePorts/envSecretStore';
import { collectRequestFiles, findEnvFile, InputError, shownPath } from '../nodePorts/files';
import { fileNote } from '../reporters/outputSink';
import { progressText } from '../reporters/progress';
import { writeRunReport } from '../reporters/runReport';
import type { RequestOutcome } from '../reporters/summary';
import { registerRunInputs } from '../runPlan';
import type { Subcommand } from '../subcommands';
import { BaselineError, registerBaselineInputs, writeBaseline, type BaselineRequest, type ClaimedBaseline } from '../../core/compare/baseline';
import { COMPARE_HELP, parseCompareArgs, type CompareOptions } from './compareArgs';
import { differenceWriter, type DifferenceWriter } from './differenceFile';
import { openRequestSides, type CompareIo, type RequestSides } from './requestSides';
import type { SideRequest } from './sideRun';
import { faultText } from '../../core/text/faultText';

export const COMPARE_EXIT = { agree: 0, differ: 1, usage: 2 } as const;

// Side B's rows are compared on a worker thread loading this very module (its bundle: scripts/cliBundles.mjs),
// which then only serves that comparison.
serveRowsWorker();
const ROWS_WORKER = rowsWorkerOf(__filename);

export const compareSubcommand: Subcommand = { run: (args) => compareCommand(args) };

export async function compareCommand(args: readonly string[], io: CompareIo = { stdout: process.stdout, stderr: process.stderr, env: process.env }): Promise<number> {
  let options: CompareOptions | 'help';
  try {
    options = parseCompareArgs(args);
  } catch (error) {
    io.stderr.write(`apiwb compare: ${terminalSafe(faultText(error))}\nRun 'apiwb compare --help' for the options.\n`);
    return COMPARE_EXIT.usage;
  }
  if (options === 'help') {
    io.stdout.write(COMPARE_HELP);
    return COMPARE_EXIT.agree;
  }
  const redactor = new Redactor(secretValuesFromEnvironment(io.env));
  const temp = mkdtempSync(join(tmpdir(), 'apiwb-compare-'));
  // No output overwrites an input (src/core/files/outputs.ts): claimed before anything is opened or sent.
  const inputs = commandFiles();
  try {
    claimCompareFiles(inputs, options);
  } catch (error) {
    io.stderr.write(`apiwb compare: ${terminalSafe(redactor.text(faultText(error)))}\n`);
    rmSync(temp, { recursive: true, force: true });
    return COMPARE_EXIT.usage;
  }
  // --out is opened only once every file the requests read is registered (checkPlan, in openRequestSides),
  // as `apiwb run` opens its --out: the file there is moved aside at the first difference written and
  // put back when the comparison stops without one (an input error, a refused output, a fault).
  let out: DifferenceWriter | undefined;
  let finished = false;
  const openOut = async (): Promise<DifferenceWriter | undefined> => {
    if (!options.out) return undefined;
    out = await differenceWriter(options.out, () => finished, fileNote((note) => redactor.text(note)), redactor);
    for (const note of await keptAsideNotes(options.out)) io.stderr.write(`apiwb compare: ${terminalSafe(redactor.text(note))}\n`);
    return out;
  };
  try {
    const started = performance.now();
    const startedAt = new Date().toISOString();
    const results = options.mode === 'files' ? [await compareFiles(options, temp, await openOut())] : await compareRequests(options, temp);
    finished = true;
    if (results === 'baseline written') return COMPARE_EXIT.agree;
    const elapsed = performance.now() - started;
    const differing = results.filter((r) => r.comparison.differs).length;
    io.stdout.write(`${results.length} request${results.length === 1 ? '' : 's'} compared, ${differing} differ${differing === 1 ? 's' : ''}, ${Math.round(elapsed)} ms\n`);
    if (options.reporter) writeRunReport(options.reporter, options.report, results.map(outcomeOf), { startedAt, durationMs: elapsed }, redactor, io.stdout);
    return differing > 0 ? COMPARE_EXIT.differ : COMPARE_EXIT.agree;
  } catch (error) {
    const text = terminalSafe(redactor.text(faultText(error)));
    io.stderr.write(`apiwb compare: ${text}\n`);
    const input = error instanceof InputError || error instanceof EnvFileError || error instanceof RecordFileError || error instanceof BaselineError || error instanceof OutputRefused;
    return input ? COMPARE_EXIT.usage : COMPARE_EXIT.differ;
  } finally {
    await out?.close();
    rmSync(temp, { recursive: true, force: true });
    await closeHttpAgents();
  }

  /** One request's line, and its differences under it, as soon as it is compared. */
  function print(result: Compared): void {
    io.stdout.write(`${redactor.text(formatCompared(result))}\n`);
  }

  async function compareRequests(o: CompareOptions, dir: string): Promise<Compared[] | 'baseline written'> {
    const sides = await openRequestSides(o, io, redactor, dir, inputs);
    try {
      return sides.recording ? await recordBaseline(o, sides, sides.recording) : await compareEach(o, sides, dir, await openOut());
    } finally {
      await sides.close();
    }
  }

  /** The first run with --baseline DIR: side A's answers written to DIR. */
  async function recordBaseline(o: CompareOptions, sides: RequestSides, claimed: ClaimedBaseline): Promise<'baseline written'> {
    const recorded: BaselineRequest[] = [];
    for (const [i, item] of sides.plan.entries()) {
      const a = await sides.runA!(item, i);
      recorded.push({ ...sides.labels[i]!, summary: a.summary, ...(a.rowsFile ? { rowsFile: a.rowsFile } : {}), ...(a.recordKey ? { recordKey: a.recordKey } : {}) });
      sides.progress.clear();
      io.stdout.write(`${redactor.text(`· ${sides.labels[i]!.label}  ${a.method} ${a.url}  ${sideWords(a.summary)}  recorded`)}\n`);
    }
    writeBaseline(claimed, sides.environmentA?.name ?? '', o.allPages, recorded);
    io.stdout.write(`baseline of ${sides.plan.length} request${sides.plan.length === 1 ? '' : 's'} written to ${o.baseline ?? ''}; a later run with --baseline ${o.baseline ?? ''} compares with it\n`);
    return 'baseline written';
  }

  /** Each request on both sides (or side B against the baseline), compared and printed as it ends. */
  async function compareEach(o: CompareOptions, sides: RequestSides, dir: string, diffs: DifferenceWriter | undefined): Promise<Compared[]> {
    const results: Compared[] = [];
    for (const [i, item] of sides.plan.entries()) {
      const label = sides.labels[i]!.label;
      if (sides.progress.visible) sides.progress.update(progressText(i, sides.plan.length, label));
      const recorded = sides.baseline?.[i];
      const a: SideOf = recorded ? baselineSide(recorded) : await sides.runA!(item, i);
      // Side B's rows are compared as its walk keeps them (compareWalking).
      const rows = new GrowingFile();
      const walking = sides.runB!(item, i, rows);
      const comparison = await compareBoth(label, a, { rows, done: walking }, o, dir, diffs);
      const b = await walking;
      sides.progress.clear();
      const result = { comparison, method: b.method, url: b.url, file: item.shown, line: item.node.range.start.line + 1 };
      results.push(result);
      print(result);
      // The live sides' rows files go once compared; a baseline's stay.
      for (const file of [recorded ? undefined : a.rowsFile, b.rowsFile]) if (file) rmSync(file, { force: true });
    }
    return results;
  }

  async function compareFiles(o: CompareOptions, dir: string, diffs: DifferenceWriter | undefined): Promise<Compared> {
    const [pathA = '', pathB = ''] = o.paths;
    const none: SideSummary = { business: 'ok', errorCodes: [], drift: [] };
    const label = `${shownPath(pathA)} ↔ ${shownPath(pathB)}`;
    const records = await compareRecordFiles({ path: pathA, format: formatOfPath(pathA) }, { path: pathB, format: formatOfPath(pathB) }, {
      rules: rulesOf(o.key, o.ignore), tempDir: dir, ...(o.partitionBytes ? { partitionBytes: o.partitionBytes } : {}),
      ...(diffs ? { onDifference: (d: RecordDifference) => diffs.difference(label, d) } : {}),
    });
    const result = { comparison: compareRequest(label, { ...none, rows: records.rowsA }, { ...none, rows: records.rowsB }, records), method: 'FILE', url: '', file: shownPath(pathA), line: 1 };
    if (diffs && result.comparison.differences.length) await diffs.request(label, result.comparison.differences);
    print(result);
    return result;
  }
}

type SideOf = Pick<SideRequest, 'summary' | 'rowsFile' | 'recordKey'>;

interface Compared {
  readonly comparison: RequestComparison;
  readonly method: string;
  readonly url: string;
  readonly file: string;
  readonly line: number;
}

function baselineSide(recorded: BaselineRequest): SideOf {
  return { summary: recorded.summary, ...(recorded.rowsFile ? { rowsFile: recorded.rowsFile } : {}), ...(recorded.recordKey ? { recordKey: recorded.recordKey } : {}) };
}

async function compareBoth(label: string, a: SideOf, b: WalkingSide, o: CompareOptions, dir: string, diffs: DifferenceWriter | undefined): Promise<RequestComparison> {
  const comparison = await compareWalking(label, a, b, {
    elsewhere: ROWS_WORKER,
    ...(o.key ? { key: o.key } : {}), ignore: o.ignore, tempDir: dir, ...(o.partitionBytes ? { partitionBytes: o.partitionBytes } : {}),
    ...(diffs ? { onDifference: (d: RecordDifference) => diffs.difference(label, d) } : {}),
  });
  if (diffs && comparison.differences.length) await diffs.request(label, comparison.differences);
  return comparison;
}

/** `200 · business ok · complete · 2345 rows` (and the problem, when there was no response). */
function sideWords(s: SideSummary): string {
  const parts = [s.status === undefined ? 'no response' : String(s.status), `business ${s.business}${s.errorCodes.length ? ` (${s.errorCodes.join(', ')})` : ''}`];
  if (s.walk) parts.push(s.walk);
  if (s.rows !== undefined) parts.push(`${s.rows} rows`);
  if (s.problem) parts.push(s.problem);
  return parts.join(' · ');
}

function formatCompared(result: Compared): string {
  const c = result.comparison;
  const head = `${c.differs ? '✗' : '✓'} ${terminalSafe(c.label)}  ${terminalSafe(`${result.method === 'FILE' ? '' : `${result.method} ${result.url}  `}`)}${c.differs ? 'differ' : 'agree'}: ${countsLine(c.records)}`;
  const lines = [head];
  if (result.method !== 'FILE') lines.push(`    A: ${terminalSafe(sideWords(c.a))}`, `    B: ${terminalSafe(sideWords(c.b))}`);
  for (const d of c.differences) lines.push(`    ${terminalSafe(d)}`);
  return lines.join('\n');
}

function outcomeOf(result: Compared): RequestOutcome {
  const c = result.comparison;
  const counts = { added: c.records?.added ?? 0, removed: c.records?.removed ?? 0, changed: c.records?.changed ?? 0, unchanged: c.records?.unchanged ?? 0 };
  return {
    file: result.file,
    line: result.line,
    label: c.label,
    method: result.method,
    url: result.url,
    ...(c.b.status === undefined ? {} : { status: c.b.status }),
    ...(c.b.rows === undefined ? {} : { rows: c.b.rows }),
    businessFailures: [],
    ...(c.differs ? { problem: [`sides differ: ${countsLine(counts)}`, ...c.differences].join('; ') } : {}),
    compare: counts,
    ok: !c.differs,
  };
}

/** Every file the comparison reads is an input; --out and --report may be none of them (nor a link or a folder). */
function claimCompareFiles(inputs: RunFiles, options: CompareOptions): void {
  if (options.mode === 'files') {
    for (const path of options.paths) inputs.input(path, 'the export compared');
    for (const overlay of options.overlays) inputs.input(overlay, 'the overlay');
  } else {
    const files = collectRequestFiles(options.paths);
    registerRunInputs(inputs, files, findEnvFile(options.envFile, files), options);
    if (options.baseline) registerBaselineInputs(options.baseline, inputs);
  }
  if (options.out) inputs.claim(options.out, '--out');
  if (options.report) inputs.claim(options.report, '--report');
}
