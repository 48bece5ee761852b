// A request's two sides compared: their summaries (requestComparison.ts) and, when both answered, their
// rows files record by record (partitioned.ts), keyed by the field the caller gives, else the
// operation's identifying field as side B (the side sent now) names it — side A's (a baseline's, a
// stored response's) only when B names none, so an edited baseline does not choose it — else the
// content. A key decides only which records pair: paired records are compared whole, so no key choice
// hides a difference. Side B may still be walking (compareWalking): its
// rows are then compared as its walk keeps them, and the answer is the one its finished file gives.
import { GrowingFileGaveUp, type GrowingFile } from './growingFile';
import { compareRecordFiles, type RecordComparison, type RecordDifference } from './partitioned';
import { rulesOf } from './records';
import { compareRequest, type RequestComparison, type SideSummary } from './requestComparison';
import type { RowsElsewhere } from './rowsWorker';

export interface ComparedSide {
  readonly summary: SideSummary;
  /** Its rows as NDJSON; absent when no response came. */
  readonly rowsFile?: string;
  readonly recordKey?: string;
}

export interface CompareSidesOptions {
  readonly key?: string;
  readonly ignore: readonly string[];
  readonly tempDir: string;
  readonly partitionBytes?: number;
  readonly onDifference?: (difference: RecordDifference) => void | Promise<void>;
  readonly signal?: AbortSignal;
  /** Where side B's rows may be compared while it walks, when no difference is listened to (rowsWorker.ts); else on this thread. */
  readonly elsewhere?: RowsElsewhere;
}

export async function compareSides(label: string, a: ComparedSide, b: ComparedSide, options: CompareSidesOptions): Promise<RequestComparison> {
  const records = a.rowsFile && b.rowsFile ? await compareRows(a.rowsFile, { path: b.rowsFile }, options.key ?? b.recordKey ?? a.recordKey, options) : undefined;
  return compareRequest(label, a.summary, b.summary, records);
}

/** Side B while its walk runs: its rows file as the walk keeps pages, and the side once the walk is over (its rows file closed). */
export interface WalkingSide {
  readonly rows: GrowingFile;
  readonly done: Promise<ComparedSide>;
}

/**
 * compareSides with side B still walking. Rule: the answer is compareSides' on the finished sides.
 * How: A's rows are compared with B's as B's walk keeps them (growingFile.ts); that work is kept when
 * B answered with that file and the key is the one it was compared by, else thrown away. Where the
 * reading gave up (the file outgrew its partitions, or changed), the finished files are compared anew;
 * any other failure is the comparison's (no difference is reported before B's walk is over: the
 * partitions are read only after both inputs' ends).
 */
export async function compareWalking(label: string, a: ComparedSide, b: WalkingSide, options: CompareSidesOptions): Promise<RequestComparison> {
  if (!a.rowsFile) {
    b.rows.cancel();
    return compareSides(label, a, await b.done, options);
  }
  const key = options.key ?? a.recordKey;
  const early = new AbortController();
  const given = options.signal;
  const stop = (): void => early.abort(given?.reason);
  if (given?.aborted) stop();
  given?.addEventListener('abort', stop, { once: true });
  try {
    const rowsA = a.rowsFile;
    const { elsewhere } = options;
    // Begun once B's file is named (before its first page: a worker starts meanwhile).
    const overlapped = b.rows.named().then(() => (elsewhere && !options.onDifference
      ? elsewhere({ rowsA, rowsB: b.rows.path, ...(key ? { key } : {}), ignore: options.ignore, tempDir: options.tempDir, ...(options.partitionBytes ? { partitionBytes: options.partitionBytes } : {}) }, b.rows, early.signal)
      : compareRows(rowsA, { path: b.rows.path, growing: b.rows }, key, { ...options, signal: early.signal })))
      .then((records) => ({ records }), (error: unknown) => ({ error }));
    const giveUp = async (): Promise<void> => {
      early.abort();
      b.rows.cancel();
      await overlapped;
    };
    let sideB: ComparedSide;
    try {
      sideB = await b.done;
    } catch (error) {
      await giveUp();
      throw error;
    }
    if (!sideB.rowsFile || !b.rows.isAt(sideB.rowsFile) || (options.key ?? sideB.recordKey ?? a.recordKey) !== key) {
      await giveUp();
      return await compareSides(label, a, sideB, options);
    }
    await b.rows.end();
    const done = await overlapped;
    if ('records' in done) return compareRequest(label, a.summary, sideB.summary, done.records);
    if (done.error instanceof GrowingFileGaveUp) return await compareSides(label, a, sideB, options);
    throw done.error;
  } finally {
    given?.removeEventListener('abort', stop);
  }
}

function compareRows(rowsA: string, b: { readonly path: string; readonly growing?: GrowingFile }, key: string | undefined, options: CompareSidesOptions): Promise<RecordComparison> {
  return compareRecordFiles({ path: rowsA, format: 'ndjson' }, { ...b, format: 'ndjson' }, {
    rules: rulesOf(key, options.ignore),
    tempDir: options.tempDir,
    ...(options.partitionBytes ? { partitionBytes: options.partitionBytes } : {}),
    ...(options.onDifference ? { onDifference: options.onDifference } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  });
}
