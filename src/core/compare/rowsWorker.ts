// Side B's records compared on a worker thread while side B walks on the main one (compareSides.ts
// compareWalking's `elsewhere`). Rule: the worker runs compareRecordFiles as the main thread would, B's
// rows file read as it grows; it is told every change of B's kept length, its end, or to give up
// (growingFile.ts), and answers the comparison, or that it failed. Any failure there (a worker that
// cannot start, an input error, a reader that gave up) is a reader that gave up: the caller compares the
// finished files itself, and says any error as it always would. Differences are never reported from
// there (only counts).
// Why: the walk keeps one core busy at most, a comparison on the other overlaps it (bench/compare.ts).
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { GrowingFile, GrowingFileGaveUp } from './growingFile';
import { compareRecordFiles, type RecordComparison } from './partitioned';
import { rulesOf } from './records';
import { faultText } from '../text/faultText';

const ROLE = 'apiwb-compare-rows';

/** What the worker compares (JSON-serialisable). */
export interface RowsJob {
  readonly rowsA: string;
  readonly rowsB: string;
  readonly key?: string;
  readonly ignore: readonly string[];
  readonly tempDir: string;
  readonly partitionBytes?: number;
}

/** Compares `job`'s files elsewhere, B's rows as `rows` grows; rejects as compareRecordFiles would. */
export type RowsElsewhere = (job: RowsJob, rows: GrowingFile, signal: AbortSignal) => Promise<RecordComparison>;

interface Snapshot {
  readonly kept: number;
  readonly ended: boolean;
  readonly rewound: boolean;
}

type Answer = { readonly records: RecordComparison } | { readonly failed: string };

/** Jobs run on workers loading `file`: a module that calls serveRowsWorker() when it is loaded. */
export function rowsWorkerOf(file: string): RowsElsewhere {
  return (job, rows, signal) => new Promise<RecordComparison>((resolve, reject) => {
    let worker: Worker;
    try {
      // From sources (tests), the module is TypeScript: loaded through tsx's require hook, as the tests are.
      worker = file.endsWith('.ts')
        ? new Worker(`require('tsx/cjs');require(${JSON.stringify(file)});`, { eval: true, workerData: { role: ROLE, job } })
        : new Worker(file, { workerData: { role: ROLE, job } });
    } catch (error) {
      reject(new GrowingFileGaveUp(`compare: no worker (${faultText(error)})`));
      return;
    }
    let settled = false;
    const finish = (settle: () => void): void => {
      if (settled) return;
      settled = true;
      signal.removeEventListener('abort', onAbort);
      void worker.terminate();
      settle();
    };
    const onAbort = (): void => finish(() => reject(signal.reason instanceof Error ? signal.reason : new Error('compare: stopped')));
    const tell = (): void => {
      if (!settled) worker.postMessage({ kept: rows.kept, ended: rows.ended, rewound: rows.rewound } satisfies Snapshot);
    };
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    rows.watch(tell);
    tell();
    worker.on('message', (answer: Answer) => finish(() => {
      if ('records' in answer) resolve(answer.records);
      else reject(new GrowingFileGaveUp(`compare: the worker gave up (${answer.failed})`));
    }));
    worker.on('error', (error) => finish(() => reject(new GrowingFileGaveUp(`compare: the worker failed (${error.message})`))));
    worker.on('exit', () => finish(() => reject(new GrowingFileGaveUp('compare: the worker ended without an answer'))));
  });
}

/** On a worker started by rowsWorkerOf: runs its job and answers (true); elsewhere nothing (false). */
export function serveRowsWorker(): boolean {
  const data = workerData as { role?: string; job?: RowsJob } | null;
  if (isMainThread || !parentPort || data?.role !== ROLE || !data.job) return false;
  const { job } = data;
  const port = parentPort;
  const rows = new GrowingFile();
  rows.at(job.rowsB);
  port.on('message', (m: Snapshot) => {
    if (m.rewound) rows.cancel();
    else {
      rows.grow(m.kept);
      if (m.ended) rows.endAt(m.kept);
    }
  });
  compareRecordFiles({ path: job.rowsA, format: 'ndjson' }, { path: job.rowsB, format: 'ndjson', growing: rows }, {
    rules: rulesOf(job.key, job.ignore), tempDir: job.tempDir, ...(job.partitionBytes ? { partitionBytes: job.partitionBytes } : {}),
  }).then((records) => port.postMessage({ records } satisfies Answer), (error: unknown) => {
    port.postMessage({ failed: faultText(error) } satisfies Answer);
  }).finally(() => port.close());
  return true;
}
