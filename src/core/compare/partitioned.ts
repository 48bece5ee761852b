// Two exports compared record by record in bounded memory. Rule: a record of side A and one of side B
// at the same position with the same text, or with the same key and the same content, are the same
// record, unchanged; of the others, two are the same record when their keys are equal (records.ts: the
// key field, else the content); where a key has several records on a side, records with equal content
// pair first (unchanged), the rest pair in the order they came (changed), and what is left is removed
// (A only) or added (B only). Otherwise position plays no part: a record that moved to another page is
// not a change.
// How: both sides are read in step (inStep.ts); a pair the rule settles at its position is settled
// there, the other records are hash-partitioned by key into temporary files (partitionFile.ts: both
// sides with the same hash and partition count, so a key's records of both sides land in the same
// partition), then the partitions are compared one at a time (partitionCompare.ts); memory holds one
// partition of each side, never a whole side. `partitionBytes` sets how much input goes to a
// partition (tests use a tiny one).
// Cost (bench/compare.ts): records travel as bytes. A record is decoded and parsed only where its bytes
// do not settle it (recordScan.ts says where they do): a record that only moved is keyed from its
// bytes and matched by them, never decoded; a pair of one key at one position that surely differs is
// marked so and counted changed without a parse, and while both sides' keys come in increasing
// order it does not even reach the partitions (pendingPairs.ts); a side's shape is learnt from a record's bytes when it
// is the last flat record's (flatShape.ts); the differences are built only when someone listens
// (onDifference).
import { closeSync, openSync } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { FieldChange } from './fieldChanges';
import { FlatShapes } from './flatShape';
import type { GrowingFile } from './growingFile';
import { compareInStep } from './inStep';
import { comparePartition } from './partitionCompare';
import { MARK, PartitionIndex, PartitionWriter } from './partitionFile';
import { PendingPairs } from './pendingPairs';
import { forEachRecord, type RecordSource } from './recordFiles';
import { recordKey, type RecordRules } from './records';
import { ShapeTracker, shapeDifferences, type ShapeDifferences } from './shape';

export interface RecordDifference {
  readonly kind: 'added' | 'removed' | 'changed';
  /** The key's value; absent for records matched by their content (no key field). */
  readonly key?: unknown;
  readonly before?: unknown;
  readonly after?: unknown;
  /** For a changed record: its field changes (the first 50). */
  readonly fields?: readonly FieldChange[];
}

export interface RecordCounts {
  readonly rowsA: number;
  readonly rowsB: number;
  readonly added: number;
  readonly removed: number;
  readonly changed: number;
  readonly unchanged: number;
}

export interface RecordComparison extends RecordCounts {
  readonly shape: ShapeDifferences;
  readonly partitions: number;
}

export interface CompareRecordsOptions {
  readonly rules: RecordRules;
  /** A folder for the partition files (a folder of its own is made in it and removed after). */
  readonly tempDir: string;
  /** Input bytes (the larger side's) per partition; default 4 MiB (at most 512 partitions: open files). */
  readonly partitionBytes?: number;
  /** Each difference as it is found (awaited: a slow writer holds the comparison back). */
  readonly onDifference?: (difference: RecordDifference) => void | Promise<void>;
  readonly signal?: AbortSignal;
}

const DEFAULT_PARTITION_BYTES = 4 * 1024 * 1024;
const MAX_PARTITIONS = 512;

/**
 * Side B may be a file a walk still writes (`growing`, NDJSON only): its partitions are then counted
 * from side A's size, and it is read as it grows up to twice that (or one partition's bytes) before the
 * reader gives up (GrowingFileGaveUp: compare the finished file instead).
 */
export async function compareRecordFiles(a: RecordSource, b: RecordSource & { readonly growing?: GrowingFile }, options: CompareRecordsOptions): Promise<RecordComparison> {
  const budget = options.partitionBytes ?? DEFAULT_PARTITION_BYTES;
  const sizeA = (await stat(a.path)).size;
  const sizeB = b.growing ? 0 : (await stat(b.path)).size;
  const partitions = Math.min(MAX_PARTITIONS, Math.max(1, Math.ceil(Math.max(sizeA, sizeB) / budget)));
  const growing = b.growing ? { file: b.growing, maxBytes: 2 * Math.max(sizeA, budget) } : undefined;
  if (growing && (a.format !== 'ndjson' || b.format !== 'ndjson')) throw new Error('compare: only NDJSON is read as it grows');
  const dir = await mkdtemp(join(options.tempDir, 'apiwb-compare-'));
  try {
    const shapeA = new ShapeTracker(options.rules.ignore);
    const shapeB = new ShapeTracker(options.rules.ignore);
    const sideA = { path: a.path, shape: shapeA, flat: new FlatShapes(shapeA), writer: new PartitionWriter(join(dir, 'a'), partitions, options.signal) };
    const sideB = { path: b.path, shape: shapeB, flat: new FlatShapes(shapeB), writer: new PartitionWriter(join(dir, 'b'), partitions, options.signal), ...(growing ? { growing } : {}) };
    const counts = { added: 0, removed: 0, changed: 0, unchanged: 0 };
    let rowsA: number;
    let rowsB: number;
    try {
      if (a.format === 'ndjson' && b.format === 'ndjson') {
        // A difference reported names its records: then every pair goes to the partitions.
        const held = options.onDifference ? undefined : new PendingPairs(join(dir, 'held'));
        try {
          Object.assign(counts, await compareInStep(sideA, sideB, options.rules, held, options.signal));
        } finally {
          held?.close();
        }
        rowsA = counts.unchanged + counts.changed + sideA.writer.count;
        rowsB = counts.unchanged + counts.changed + sideB.writer.count;
      } else {
        rowsA = await forEachRecord(a, (value, text) => addParsed(sideA, value, text, options.rules));
        rowsB = await forEachRecord(b, (value, text) => addParsed(sideB, value, text, options.rules));
      }
    } finally {
      sideA.writer.close();
      sideB.writer.close();
    }
    // The inputs stay open: a record marked differing in step has its text there, read if it is needed.
    const [inputA, inputB] = [openSync(a.path, 'r'), openSync(b.path, 'r')];
    try {
      const indexA = new PartitionIndex(inputA);
      const indexB = new PartitionIndex(inputB);
      for (let p = 0; p < partitions; p++) {
        options.signal?.throwIfAborted();
        indexA.load(join(dir, `a${p}`));
        indexB.load(join(dir, `b${p}`));
        await comparePartition({ ...sideA, index: indexA }, { ...sideB, index: indexB }, options, counts);
      }
    } finally {
      closeSync(inputA);
      closeSync(inputB);
    }
    return { rowsA, rowsB, ...counts, shape: shapeDifferences(shapeA, shapeB), partitions };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** A parsed record (CSV): shaped, keyed and partitioned; its place among its side's records is its sequence. */
function addParsed(side: { readonly shape: ShapeTracker; readonly writer: PartitionWriter }, value: unknown, text: string, rules: RecordRules): void {
  side.shape.add(value);
  side.writer.writeText(MARK.shaped, recordKey(value, rules), side.writer.count, text);
}
