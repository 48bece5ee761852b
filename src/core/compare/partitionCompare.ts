// One partition of both sides compared (the rule is partitioned.ts's): the records of a key pair up,
// equal contents first (earliest with earliest), the rest in the order they came (changed); what is
// left is removed (A only) or added (B only).
// How: both partition files are read whole as bytes and grouped by key (partitionFile.ts). The groups
// whose answer the bytes give are settled on the bytes: one record a side with the same text
// (unchanged), one a side both found differing at the same position (changed), a key on one side only
// (removed, added). A record so settled is parsed only to be shaped when the flat-shape signature does
// not already cover it, and to be reported when someone listens. Every other group is decoded and
// settled on the records' contents (records.ts).
import { parseKeepingNumbers } from '../json/numberText';
import { fieldChanges } from './fieldChanges';
import type { FlatShapes } from './flatShape';
import type { CompareRecordsOptions, RecordDifference } from './partitioned';
import { MARK, type PartitionIndex } from './partitionFile';
import { parseRecord } from './recordFiles';
import { contentOf } from './records';
import { fieldSpans, scanObject } from './recordScan';
import type { ShapeTracker } from './shape';

interface PartitionSide {
  /** The side's input file (named in an error). */
  readonly path: string;
  readonly shape: ShapeTracker;
  readonly flat: FlatShapes;
  readonly index: PartitionIndex;
}

type Counts = { added: number; removed: number; changed: number; unchanged: number };

interface Entry {
  readonly seq: number;
  readonly text: string;
  content?: string;
  value?: unknown;
  shaped: boolean;
  readonly differsInPlace: boolean;
}

const fields = fieldSpans();

const textStart = (index: PartitionIndex, i: number): number => index.keyEnd[i]!;
const textOf = (index: PartitionIndex, i: number): string => index.text(i);
const differsInPlace = (mark: number): boolean => mark === MARK.differs || mark === MARK.differsInInput;
const keyOf = (index: PartitionIndex, i: number): string => `${String.fromCharCode(index.kind(i))}:${index.buf.toString('utf8', index.keyStart[i], index.keyEnd[i])}`;

/** Shapes record `i` of a side if it was not shaped yet: from its bytes where they tell, else parsed. */
function shapeRecord(side: PartitionSide, i: number): void {
  const index = side.index;
  if (index.mark(i) !== MARK.unshaped) return;
  const [s, e, seq] = [textStart(index, i), index.textEnd[i]!, index.seq[i]!];
  const count = scanObject(index.buf, s, e, fields);
  if (count >= 0) side.flat.add(index.buf, fields, count, s, e, side.path, seq);
  else side.shape.add(parseRecord(textOf(index, i), side.path, seq));
}

/** Whether two records' texts are the same (a record that differs from the one at its position: not known here). */
function sameText(a: PartitionIndex, i: number, b: PartitionIndex, j: number): boolean {
  if (differsInPlace(a.mark(i)) || differsInPlace(b.mark(j))) return false;
  const as = textStart(a, i);
  const bs = textStart(b, j);
  const length = a.textEnd[i]! - as;
  return b.textEnd[j]! - bs === length && a.buf.compare(b.buf, bs, bs + length, as, as + length) === 0;
}

export async function comparePartition(a: PartitionSide, b: PartitionSide, options: CompareRecordsOptions, counts: Counts): Promise<void> {
  const emit = options.onDifference;
  const ia = a.index;
  const ib = b.index;
  const matched = new Uint8Array(ib.count);
  for (let n = 0; n < ia.groupCount; n++) {
    const g = ia.groups[n]!;
    const h = ib.find(ia, g);
    if (h >= 0) matched[h] = 1;
    if (h >= 0 && ia.groupSize[g] === 1 && ib.groupSize[h] === 1) {
      if (sameText(ia, g, ib, h)) {
        counts.unchanged++;
        continue;
      }
      if (!emit && differsInPlace(ia.mark(g)) && differsInPlace(ib.mark(h)) && ia.seq[g] === ib.seq[h]) {
        counts.changed++;
        continue;
      }
    }
    if (h < 0 && !emit) {
      for (let i = g; i >= 0; i = ia.nextOfKey[i]!) shapeRecord(a, i);
      counts.removed += ia.groupSize[g]!;
      continue;
    }
    await settleGroup(a, g, b, h, options, counts);
  }
  for (let n = 0; n < ib.groupCount; n++) {
    const h = ib.groups[n]!;
    if (matched[h]) continue;
    if (emit) await settleGroup(a, -1, b, h, options, counts);
    else {
      for (let j = h; j >= 0; j = ib.nextOfKey[j]!) shapeRecord(b, j);
      counts.added += ib.groupSize[h]!;
    }
  }
}

function entriesOf(index: PartitionIndex, head: number): Entry[] {
  const out: Entry[] = [];
  for (let i = head; i >= 0; i = index.nextOfKey[i]!) {
    const mark = index.mark(i);
    const entry: Entry = { seq: index.seq[i]!, text: textOf(index, i), shaped: mark !== MARK.unshaped, differsInPlace: differsInPlace(mark) };
    // A record without a key is keyed by its content.
    if (index.kind(i) === 99 /* c */) entry.content = index.buf.toString('utf8', index.keyStart[i], index.keyEnd[i]);
    out.push(entry);
  }
  return out;
}

/** A key's records of both sides (a group of -1: none on that side), decoded and settled on their contents. */
async function settleGroup(a: PartitionSide, g: number, b: PartitionSide, h: number, options: CompareRecordsOptions, counts: Counts): Promise<void> {
  const emit = options.onDifference;
  const seen = (entry: Entry, side: PartitionSide): unknown => {
    entry.value ??= parseRecord(entry.text, side.path, entry.seq);
    if (!entry.shaped) {
      side.shape.add(entry.value);
      entry.shaped = true;
    }
    return entry.value;
  };
  const content = (entry: Entry, side: PartitionSide): string => (entry.content ??= contentOf(seen(entry, side), options.rules));
  const listA = g < 0 ? [] : entriesOf(a.index, g);
  const listB = h < 0 ? [] : entriesOf(b.index, h);
  const keyValue = keyValueOf(g < 0 ? keyOf(b.index, h) : keyOf(a.index, g));
  const { unchanged, restA, restB } = pairEqual(listA, listB, (entry) => content(entry, a), (entry) => content(entry, b));
  counts.unchanged += unchanged;
  const paired = Math.min(restA.length, restB.length);
  for (let i = 0; i < paired; i++) {
    counts.changed++;
    const before = seen(restA[i]!, a);
    const after = seen(restB[i]!, b);
    if (emit) await emit({ kind: 'changed', ...keyValue, before, after, fields: fieldChanges(before, after, options.rules.ignore) });
  }
  for (const entry of restA.slice(paired)) {
    counts.removed++;
    const before = seen(entry, a);
    if (emit) await emit({ kind: 'removed', ...keyValue, before });
  }
  for (const entry of restB.slice(paired)) {
    counts.added++;
    const after = seen(entry, b);
    if (emit) await emit({ kind: 'added', ...keyValue, after } satisfies RecordDifference);
  }
}

/** Records of one key: equal contents pair first (earliest with earliest); the rest stay in order. */
function pairEqual(listA: readonly Entry[], listB: readonly Entry[], contentA: (entry: Entry) => string, contentB: (entry: Entry) => string): { unchanged: number; restA: Entry[]; restB: Entry[] } {
  if (listA.length === 0 || listB.length === 0) return { unchanged: 0, restA: [...listA], restB: [...listB] };
  if (listA.length === 1 && listB.length === 1) {
    const [x, y] = [listA[0]!, listB[0]!];
    // Equal texts are equal contents; a pair found to differ at its position is not compared again.
    if (x.differsInPlace && y.differsInPlace && x.seq === y.seq) return { unchanged: 0, restA: [x], restB: [y] };
    return x.text === y.text || contentA(x) === contentB(y) ? { unchanged: 1, restA: [], restB: [] } : { unchanged: 0, restA: [x], restB: [y] };
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
  return key.startsWith('k:') ? { key: parseKeepingNumbers(key.slice(2)) } : {};
}
