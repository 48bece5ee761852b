// Two exports compared record by record in bounded memory. Rule: a record of side A and one of side B
// at the same position with the same text are the same record, unchanged; of the others, two are the
// same record when their keys are equal (records.ts: the key field, else the content); where a
// key has several records on a side, records with equal content pair first (unchanged), the rest pair
// in the order they came (changed), and what is left is removed (A only) or added (B only). Position
// plays no part: a record that moved to another page is not a change.
// How: each side is read once and hash-partitioned by key into temporary files (both sides with the
// same hash and partition count, so a key's records of both sides land in the same partition), then
// the partitions are compared one at a time; memory holds one partition of each side, never a whole
// side. `partitionBytes` sets how much input goes to a partition (tests use a tiny one).
import { closeSync, openSync, writeSync } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { fieldChanges, type FieldChange } from './fieldChanges';
import { forEachRecord, lineBatches, RecordFileError, type RecordSource } from './recordFiles';
import { contentOf, recordKey, type RecordRules } from './records';
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
const FLUSH_AT = 256 * 1024;
const MAX_PARTITIONS = 512;

interface Entry {
  readonly seq: number;
  /** The record's text as received. */
  readonly text: string;
  /** Its content as compared (records.ts), made when its text differs from another's. */
  content?: string;
}

export async function compareRecordFiles(a: RecordSource, b: RecordSource, options: CompareRecordsOptions): Promise<RecordComparison> {
  const [sizeA, sizeB] = await Promise.all([stat(a.path), stat(b.path)]).then((s) => s.map((x) => x.size));
  const partitions = Math.min(MAX_PARTITIONS, Math.max(1, Math.ceil(Math.max(sizeA ?? 0, sizeB ?? 0) / (options.partitionBytes ?? DEFAULT_PARTITION_BYTES))));
  const dir = await mkdtemp(join(options.tempDir, 'apiwb-compare-'));
  try {
    const shapeA = new ShapeTracker(options.rules.ignore);
    const shapeB = new ShapeTracker(options.rules.ignore);
    const counts = { added: 0, removed: 0, changed: 0, unchanged: 0 };
    const sideA = new Partitioner(join(dir, 'a'), partitions, options, shapeA);
    const sideB = new Partitioner(join(dir, 'b'), partitions, options, shapeB);
    let rowsA: number;
    let rowsB: number;
    try {
      if (a.format === 'ndjson' && b.format === 'ndjson') {
        // Records at the same position with the same text are the same record, unchanged: they are
        // counted here and never parsed, partitioned nor shaped (they shape both sides alike).
        const aligned = await inStep(a.path, b.path, (textA, textB, line) => {
          if (textA !== undefined && textA === textB && textA.trim() !== '') {
            counts.unchanged++;
            return true;
          }
          if (textA !== undefined) sideA.addLine(textA, a.path, line);
          if (textB !== undefined) sideB.addLine(textB, b.path, line);
          return false;
        });
        rowsA = aligned + sideA.count;
        rowsB = aligned + sideB.count;
      } else {
        rowsA = await forEachRecord(a, (value, text) => sideA.add(value, text));
        rowsB = await forEachRecord(b, (value, text) => sideB.add(value, text));
      }
    } finally {
      sideA.close();
      sideB.close();
    }
    for (let p = 0; p < partitions; p++) {
      options.signal?.throwIfAborted();
      await comparePartition(join(dir, `a${p}`), join(dir, `b${p}`), options, counts);
    }
    return { rowsA, rowsB, ...counts, shape: shapeDifferences(shapeA, shapeB), partitions };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** FNV-1a of the key: which partition its records go to (the same on both sides). */
export function partitionOf(key: string, partitions: number): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    hash ^= key.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) % partitions;
}

/**
 * Both files' lines, position by position (a missing line is undefined once one file has ended); `each`
 * returns true for a pair it settled. Returns how many it settled.
 */
async function inStep(pathA: string, pathB: string, each: (a: string | undefined, b: string | undefined, line: number) => boolean): Promise<number> {
  const iterA = lineBatches(pathA)[Symbol.asyncIterator]();
  const iterB = lineBatches(pathB)[Symbol.asyncIterator]();
  let batchA: string[] = [];
  let batchB: string[] = [];
  let atA = 0;
  let atB = 0;
  let doneA = false;
  let doneB = false;
  let line = 0;
  let settled = 0;
  for (;;) {
    if (atA >= batchA.length && !doneA) {
      const next = await iterA.next();
      if (next.done) doneA = true;
      else [batchA, atA] = [next.value, 0];
    }
    if (atB >= batchB.length && !doneB) {
      const next = await iterB.next();
      if (next.done) doneB = true;
      else [batchB, atB] = [next.value, 0];
    }
    if (doneA && doneB) return settled;
    // A plain loop while both batches (or the one left) have lines.
    const endA = doneA ? atA : batchA.length;
    const endB = doneB ? atB : batchB.length;
    while ((doneA || atA < endA) && (doneB || atB < endB) && !(doneA && doneB)) {
      line++;
      if (each(doneA ? undefined : batchA[atA++], doneB ? undefined : batchB[atB++], line)) settled++;
      if ((!doneA && atA >= endA) || (!doneB && atB >= endB)) break;
    }
  }
}

/** One side's records into its partition files (`<prefix><n>`), by key; its shape on the way. */
class Partitioner {
  private readonly files: number[] = [];
  private readonly buffers: string[][];
  private readonly sizes: number[];
  /** Records written (the sequence number of the next). */
  count = 0;

  constructor(prefix: string, private readonly partitions: number, private readonly options: CompareRecordsOptions, private readonly shape: ShapeTracker) {
    this.buffers = Array.from({ length: partitions }, () => []);
    this.sizes = new Array<number>(partitions).fill(0);
    for (let p = 0; p < partitions; p++) this.files.push(openSync(`${prefix}${p}`, 'w'));
  }

  /** An NDJSON line (blank: skipped; not JSON: an input error naming the file and line). */
  addLine(text: string, path: string, line: number): void {
    if (text.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw new RecordFileError(`${path}:${line}: not a JSON record (${error instanceof Error ? error.message : String(error)})`);
    }
    this.add(value, text);
  }

  add(value: unknown, text: string): void {
    if ((this.count & 0xfff) === 0) this.options.signal?.throwIfAborted();
    this.shape.add(value);
    const key = recordKey(value, this.options.rules);
    const p = partitionOf(key, this.partitions);
    // Key length and sequence, then the key and the record's text: no escaping, one line a record.
    const entry = `${key.length},${this.count}:${key}${text}\n`;
    this.buffers[p]!.push(entry);
    this.sizes[p]! += entry.length;
    if (this.sizes[p]! >= FLUSH_AT) this.flush(p);
    this.count++;
  }

  /** Written synchronously, 256 KiB at a time: the loop over a chunk's records never waits. */
  private flush(p: number): void {
    if (this.buffers[p]!.length === 0) return;
    writeSync(this.files[p]!, this.buffers[p]!.join(''));
    this.buffers[p] = [];
    this.sizes[p] = 0;
  }

  close(): void {
    try {
      for (let p = 0; p < this.partitions; p++) this.flush(p);
    } finally {
      for (const fd of this.files.splice(0)) closeSync(fd);
    }
  }
}

/** One line of a partition file: the key and the record. */
function entryOf(line: string): { key: string; entry: Entry } {
  const comma = line.indexOf(',');
  const colon = line.indexOf(':', comma + 1);
  const keyLength = Number(line.slice(0, comma));
  const start = colon + 1;
  const key = line.slice(start, start + keyLength);
  const entry: Entry = { seq: Number(line.slice(comma + 1, colon)), text: line.slice(start + keyLength) };
  // A record without a key is keyed by its content.
  if (key.startsWith('c:')) entry.content = key.slice(2);
  return { key, entry };
}

async function readPartition(path: string): Promise<Map<string, Entry[]>> {
  const byKey = new Map<string, Entry[]>();
  for await (const batch of lineBatches(path)) {
    for (const line of batch) {
      if (line === '') continue;
      const { key, entry } = entryOf(line);
      const list = byKey.get(key);
      if (list) list.push(entry);
      else byKey.set(key, [entry]);
    }
  }
  return byKey;
}

/**
 * Side A's partition is held; side B's is read a record at a time. A B record is settled at once when
 * the rule's answer cannot depend on what follows: its key has no A record left (added), or exactly one
 * whose text is the same, and no earlier B record of the key waits (unchanged: the earliest B record
 * pairs with the only A record of equal content). The others wait for the end of the partition.
 */
async function comparePartition(pathA: string, pathB: string, options: CompareRecordsOptions, counts: { added: number; removed: number; changed: number; unchanged: number }): Promise<void> {
  const emit = options.onDifference ?? ((): void => undefined);
  const a = await readPartition(pathA);
  const b = new Map<string, Entry[]>();
  for await (const batch of lineBatches(pathB)) {
    for (const line of batch) {
      if (line === '') continue;
      const { key, entry } = entryOf(line);
      const listA = a.get(key);
      const waiting = b.get(key);
      if (!listA && !waiting) {
        counts.added++;
        await emit({ kind: 'added', ...keyValueOf(key), after: JSON.parse(entry.text) as unknown });
      } else if (listA?.length === 1 && !waiting && listA[0]!.text === entry.text) {
        counts.unchanged++;
        a.delete(key);
      } else if (waiting) waiting.push(entry);
      else b.set(key, [entry]);
    }
  }
  for (const [key, listA] of a) {
    const listB = b.get(key) ?? [];
    b.delete(key);
    const { unchanged, restA, restB } = pairEqual(listA, listB, options.rules);
    counts.unchanged += unchanged;
    const keyValue = keyValueOf(key);
    const paired = Math.min(restA.length, restB.length);
    for (let i = 0; i < paired; i++) {
      counts.changed++;
      const before: unknown = JSON.parse(restA[i]!.text);
      const after: unknown = JSON.parse(restB[i]!.text);
      await emit({ kind: 'changed', ...keyValue, before, after, fields: fieldChanges(before, after, options.rules.ignore) });
    }
    for (const entry of restA.slice(paired)) {
      counts.removed++;
      await emit({ kind: 'removed', ...keyValue, before: JSON.parse(entry.text) as unknown });
    }
    for (const entry of restB.slice(paired)) {
      counts.added++;
      await emit({ kind: 'added', ...keyValue, after: JSON.parse(entry.text) as unknown });
    }
  }
  for (const [key, listB] of b) {
    const keyValue = keyValueOf(key);
    for (const entry of listB) {
      counts.added++;
      await emit({ kind: 'added', ...keyValue, after: JSON.parse(entry.text) as unknown });
    }
  }
}

/** Records of one key: equal contents pair first (earliest with earliest); the rest stay in order. */
function pairEqual(listA: readonly Entry[], listB: readonly Entry[], rules: RecordRules): { unchanged: number; restA: Entry[]; restB: Entry[] } {
  const content = (entry: Entry): string => (entry.content ??= contentOf(JSON.parse(entry.text), rules));
  if (listA.length === 1 && listB.length === 1) {
    const [a, b] = [listA[0]!, listB[0]!];
    // Equal texts are equal contents: most records of two similar sides are never parsed again.
    return a.text === b.text || content(a) === content(b) ? { unchanged: 1, restA: [], restB: [] } : { unchanged: 0, restA: [a], restB: [b] };
  }
  const waiting = new Map<string, number[]>();
  listB.forEach((entry, i) => {
    const at = waiting.get(content(entry));
    if (at) at.push(i);
    else waiting.set(content(entry), [i]);
  });
  const usedB = new Set<number>();
  const restA: Entry[] = [];
  let unchanged = 0;
  for (const entry of listA) {
    const i = waiting.get(content(entry))?.shift();
    if (i === undefined) restA.push(entry);
    else {
      usedB.add(i);
      unchanged++;
    }
  }
  return { unchanged, restA, restB: listB.filter((_, i) => !usedB.has(i)) };
}

function keyValueOf(key: string): { key?: unknown } {
  return key.startsWith('k:') ? { key: JSON.parse(key.slice(2)) as unknown } : {};
}
