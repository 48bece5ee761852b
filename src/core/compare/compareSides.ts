// A request's two sides compared: their summaries (requestComparison.ts) and, when both answered, their
// rows files record by record (partitioned.ts), keyed by the field the caller gives, else the
// operation's identifying field, else the content.
import { compareRecordFiles, type RecordComparison, type RecordDifference } from './partitioned';
import { rulesOf } from './records';
import { compareRequest, type RequestComparison, type SideSummary } from './requestComparison';

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
}

export async function compareSides(label: string, a: ComparedSide, b: ComparedSide, options: CompareSidesOptions): Promise<RequestComparison> {
  let records: RecordComparison | undefined;
  if (a.rowsFile && b.rowsFile) {
    records = await compareRecordFiles({ path: a.rowsFile, format: 'ndjson' }, { path: b.rowsFile, format: 'ndjson' }, {
      rules: rulesOf(options.key ?? a.recordKey ?? b.recordKey, options.ignore),
      tempDir: options.tempDir,
      ...(options.partitionBytes ? { partitionBytes: options.partitionBytes } : {}),
      ...(options.onDifference ? { onDifference: options.onDifference } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
  }
  return compareRequest(label, a.summary, b.summary, records);
}
