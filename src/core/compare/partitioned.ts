// Two exports compared record by record in bounded memory. Rule: a record of side A and one of side B
// at the same position with the same text, or with the same key and the same content, are the same
// record, unchanged; of the others, two are the same record when their keys are equal (records.ts: the
// key field, else the content); where a key has several records on a side, records with equal content
// pair first (unchanged), the rest pair in the order they came (changed), and what is left is removed
// (A only) or added (B only). Otherwise position plays no part: a record that moved to another page is
// not a change.
// How: both sides are read in step; a pair the rule settles at its position is settled there, the
// other records are hash-partitioned by key into temporary files (both sides with the same hash and
// partition count, so a key's records of both sides land in the same partition), then the partitions
// are compared one at a time; memory holds one partition of one side, never a whole side.
// `partitionBytes` sets how much input goes to a partition (tests use a tiny one).
// Cost (bench/compare.ts): a record is parsed at most once a phase, and only where its text does not
// settle it: a record whose key can be read from its text (recordKeyOfText) is partitioned unparsed,
// so a record that only moved is never parsed, shaped nor canonicalised; a pair whose contents were
// found to differ carries its contents into the partition; the differences are built only when
// someone listens (onDifference).
import { closeSync, openSync, writeSync } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { fieldChanges, type FieldChange } from './fieldChanges';
import { forEachRecord, inStep, lineBatches, RecordFileError, type RecordSource } from './recordFiles';
import { contentOf, recordKey, recordKeyOfText, sameContent, type RecordRules } from './records';
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
  /** Its line in its file (NDJSON), else its place among the side's records: the order records came in. */
  readonly seq: number;
  /** The record's text as received. */
  readonly text: string;
  /** Its content as compared (records.ts), made when its text differs from another's. */
  content?: string;
  /** Its value, parsed once when needed. */
  value?: unknown;
  /** Its shape is in its side's tracker. */
  shaped: boolean;
  /** Its content differs from the other side's record at its position (the same seq), of the same key. */
  readonly differsInPlace: boolean;
}

/** What the partitions' comparison needs of a side: where its records came from, and its shape. */
interface Side {
  readonly path: string;
  readonly shape: ShapeTracker;
}

type Counts = { added: number; removed: number; changed: number; unchanged: number };

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
    /**
     * Two records at the same position: settled when their keys and contents are equal (unchanged);
     * else both go to their partitions: unparsed where their keys, read from their texts, differ
     * (a record that moved), else parsed, shaped, and marked as differing from each other.
     */
    const atSamePosition = (textA: string, textB: string, line: number): boolean => {
      if (textA.trim() === '' || textB.trim() === '') {
        sideA.addText(textA, a.path, line);
        sideB.addText(textB, b.path, line);
        return false;
      }
      let keyA = recordKeyOfText(textA, options.rules);
      let keyB = recordKeyOfText(textB, options.rules);
      if (keyA !== undefined && keyB !== undefined && keyA !== keyB) {
        sideA.write(keyA, line, textA, 's');
        sideB.write(keyB, line, textB, 's');
        return false;
      }
      const valueA = parseRecord(textA, a.path, line);
      const valueB = parseRecord(textB, b.path, line);
      shapeA.add(valueA);
      shapeB.add(valueB);
      keyA ??= recordKey(valueA, options.rules);
      keyB ??= recordKey(valueB, options.rules);
      if (keyA === keyB && (keyA.startsWith('c:') || sameContent(valueA, valueB, options.rules))) return true;
      // Known to differ from each other: if nothing else has their key, they are a changed pair.
      sideA.write(keyA, line, textA, 'd');
      sideB.write(keyB, line, textB, 'd');
      return false;
    };
    try {
      if (a.format === 'ndjson' && b.format === 'ndjson') {
        // Records at the same position with the same text are the same record, unchanged: they are
        // counted here and never parsed, partitioned nor shaped (they shape both sides alike).
        const aligned = await inStep(a.path, b.path, (textA, textB, line) => {
          if (textA !== undefined && textA === textB && textA.trim() !== '') {
            counts.unchanged++;
            return true;
          }
          if (textA !== undefined && textB !== undefined) {
            if (!atSamePosition(textA, textB, line)) return false;
            counts.unchanged++;
            return true;
          }
          if (textA !== undefined) sideA.addText(textA, a.path, line);
          if (textB !== undefined) sideB.addText(textB, b.path, line);
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
      await comparePartition(join(dir, `a${p}`), join(dir, `b${p}`), options, counts, { path: a.path, shape: shapeA }, { path: b.path, shape: shapeB });
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

/** One side's records into its partition files (`<prefix><n>`), by key; its shape on the way. */
class Partitioner {
  private readonly files: number[] = [];
  /** Each partition's bytes not yet written: copied at once, so no record text outlives its read. */
  private readonly buffers: Buffer[];
  private readonly sizes: number[];
  /** Records written (the sequence number of the next). */
  count = 0;

  constructor(prefix: string, private readonly partitions: number, private readonly options: CompareRecordsOptions, private readonly shape: ShapeTracker) {
    this.buffers = Array.from({ length: partitions }, () => Buffer.allocUnsafe(FLUSH_AT));
    this.sizes = new Array<number>(partitions).fill(0);
    for (let p = 0; p < partitions; p++) this.files.push(openSync(`${prefix}${p}`, 'w'));
  }

  /**
   * An NDJSON line (blank: skipped). Partitioned unparsed where its key can be read from its text;
   * else parsed (not JSON: an input error naming the file and line) and shaped.
   */
  addText(text: string, path: string, line: number): void {
    if (text.trim() === '') return;
    const key = recordKeyOfText(text, this.options.rules);
    if (key !== undefined) this.write(key, line, text, 's');
    else this.add(parseRecord(text, path, line), text, line);
  }

  /** A parsed record: shaped, keyed and partitioned. */
  add(value: unknown, text: string, seq = this.count): void {
    this.shape.add(value);
    this.write(recordKey(value, this.options.rules), seq, text, 'p');
  }

  /**
   * Its mark (`s` not shaped yet, `p` shaped, `d` shaped and differing from the record at its position
   * on the other side), key length and sequence, then the key and the text: no escaping, one line a record.
   */
  write(key: string, seq: number, text: string, mark: 's' | 'p' | 'd'): void {
    if ((this.count & 0xfff) === 0) this.options.signal?.throwIfAborted();
    const p = partitionOf(key, this.partitions);
    const entry = `${mark}${key.length},${seq}:${key}${text}\n`;
    // At most 3 bytes a UTF-16 unit: flushed first when it might not fit; one larger than a buffer goes alone.
    if (this.sizes[p]! + entry.length * 3 > FLUSH_AT) this.flush(p);
    if (entry.length * 3 > FLUSH_AT) writeSync(this.files[p]!, entry);
    else this.sizes[p]! += this.buffers[p]!.write(entry, this.sizes[p]!);
    this.count++;
  }

  /** Written synchronously, up to 256 KiB at a time: the loop over a chunk's records never waits. */
  private flush(p: number): void {
    if (this.sizes[p] === 0) return;
    writeSync(this.files[p]!, this.buffers[p]!, 0, this.sizes[p]);
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
  const keyLength = Number(line.slice(1, comma));
  const start = colon + 1;
  const key = line.slice(start, start + keyLength);
  const mark = line.charCodeAt(0);
  const entry: Entry = { seq: Number(line.slice(comma + 1, colon)), text: line.slice(start + keyLength), shaped: mark !== 115 /* s */, differsInPlace: mark === 100 /* d */ };
  // A record without a key is keyed by its content.
  if (key.startsWith('c:')) entry.content = key.slice(2);
  return { key, entry };
}

function parseRecord(text: string, path: string, line: number): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new RecordFileError(`${path}:${line}: not a JSON record (${error instanceof Error ? error.message : String(error)})`);
  }
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
 * A record settled by its text alone is neither parsed nor shaped (it shapes both sides alike); every
 * other is parsed once (its value kept on its entry) and shaped if it was not yet.
 */
async function comparePartition(pathA: string, pathB: string, options: CompareRecordsOptions, counts: Counts, sideA: Side, sideB: Side): Promise<void> {
  const emit = options.onDifference;
  const seen = (entry: Entry, side: Side): unknown => {
    entry.value ??= parseRecord(entry.text, side.path, entry.seq);
    if (!entry.shaped) {
      side.shape.add(entry.value);
      entry.shaped = true;
    }
    return entry.value;
  };
  const content = (entry: Entry, side: Side): string => (entry.content ??= contentOf(seen(entry, side), options.rules));
  const added = async (key: string, entry: Entry): Promise<void> => {
    counts.added++;
    const after = seen(entry, sideB);
    if (emit) await emit({ kind: 'added', ...keyValueOf(key), after });
  };
  const a = await readPartition(pathA);
  const b = new Map<string, Entry[]>();
  for await (const batch of lineBatches(pathB)) {
    for (const line of batch) {
      if (line === '') continue;
      const { key, entry } = entryOf(line);
      const listA = a.get(key);
      const waiting = b.get(key);
      if (!listA && !waiting) await added(key, entry);
      else if (listA?.length === 1 && !waiting && listA[0]!.text === entry.text) {
        counts.unchanged++;
        a.delete(key);
      } else if (waiting) waiting.push(entry);
      else b.set(key, [entry]);
    }
  }
  for (const [key, listA] of a) {
    const listB = b.get(key) ?? [];
    b.delete(key);
    const { unchanged, restA, restB } = pairEqual(listA, listB, (entry) => content(entry, sideA), (entry) => content(entry, sideB));
    counts.unchanged += unchanged;
    const keyValue = keyValueOf(key);
    const paired = Math.min(restA.length, restB.length);
    for (let i = 0; i < paired; i++) {
      counts.changed++;
      const before = seen(restA[i]!, sideA);
      const after = seen(restB[i]!, sideB);
      if (emit) await emit({ kind: 'changed', ...keyValue, before, after, fields: fieldChanges(before, after, options.rules.ignore) });
    }
    for (const entry of restA.slice(paired)) {
      counts.removed++;
      const before = seen(entry, sideA);
      if (emit) await emit({ kind: 'removed', ...keyValue, before });
    }
    for (const entry of restB.slice(paired)) await added(key, entry);
  }
  for (const [key, listB] of b) for (const entry of listB) await added(key, entry);
}

/** Records of one key: equal contents pair first (earliest with earliest); the rest stay in order. */
function pairEqual(listA: readonly Entry[], listB: readonly Entry[], contentA: (entry: Entry) => string, contentB: (entry: Entry) => string): { unchanged: number; restA: Entry[]; restB: Entry[] } {
  if (listA.length === 1 && listB.length === 1) {
    const [a, b] = [listA[0]!, listB[0]!];
    // Equal texts are equal contents: most records of two similar sides are never parsed again; a
    // pair found to differ at its position is not compared again.
    if (a.differsInPlace && b.differsInPlace && a.seq === b.seq) return { unchanged: 0, restA: [a], restB: [b] };
    return a.text === b.text || contentA(a) === contentB(b) ? { unchanged: 1, restA: [], restB: [] } : { unchanged: 0, restA: [a], restB: [b] };
  }
  const waiting = new Map<string, number[]>();
  listB.forEach((entry, i) => {
    const at = waiting.get(contentB(entry));
    if (at) at.push(i);
    else waiting.set(contentB(entry), [i]);
  });
  const usedB = new Set<number>();
  const restA: Entry[] = [];
  let unchanged = 0;
  for (const entry of listA) {
    const i = waiting.get(contentA(entry))?.shift();
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
