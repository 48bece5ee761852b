// Two NDJSON sides read in step, line by line, as bytes (partitioned.ts states the rule). A pair at the
// same position is settled there when its bytes say so: the same text is the same record, unchanged.
// Every other record goes to its side's partitions: keyed from its bytes where they are certain
// (recordScan.ts), marked differing when a pair of one key surely differs, and shaped from its bytes
// where the flat-shape signature covers it. Whatever the bytes cannot tell is decoded and settled as
// text (records.ts), the one rule: a record is parsed only there.
import type { FlatShapes } from './flatShape';
import { LineReader, NextByte, type GrowingRead } from './lineReader';
import { MARK, type PartitionWriter } from './partitionFile';
import type { PendingPairs } from './pendingPairs';
import { parseRecord } from './recordFiles';
import { recordKey, sameContent, type RecordRules } from './records';
import { bytesAt, DifferenceProver, endsObject, fieldSpans, keyField, leadingKey, scanObject, skipSpace } from './recordScan';
import type { ShapeTracker } from './shape';

interface InStepSide {
  readonly path: string;
  readonly writer: PartitionWriter;
  readonly shape: ShapeTracker;
  readonly flat: FlatShapes;
  /** Its file is still being written: read as it grows. */
  readonly growing?: GrowingRead;
}

const KEY_KIND = 107; // k

/**
 * Reads both files to their ends; returns how many pairs were settled in step: unchanged, and changed
 * (pairs of one key that surely differ, held back while both sides' keys increase: `held`, absent when
 * every record must reach the partitions).
 */
export async function compareInStep(a: InStepSide, b: InStepSide, rules: RecordRules, held?: PendingPairs, signal?: AbortSignal): Promise<{ unchanged: number; changed: number }> {
  const readerA = await LineReader.open(a.path);
  try {
    const readerB = b.growing ? await LineReader.openGrowing(b.growing) : await LineReader.open(b.path);
    try {
      await readerA.fill();
      const step = new InStep(a, readerA, b, readerB, rules, held);
      let [doneA, doneB, line, settled] = [false, false, 0, 0];
      for (;;) {
        const hasA = !doneA && (readerA.next() || (await readerA.nextLine()));
        const hasB = !doneB && (readerB.next() || (await readerB.nextLine()));
        doneA = !hasA;
        doneB = !hasB;
        if (doneA && doneB) return { unchanged: settled, changed: step.settleHeld() };
        if ((++line & 0xfff) === 0) signal?.throwIfAborted();
        if (hasA && hasB) {
          if (step.pair(line)) settled++;
        } else if (hasA) step.single(a, readerA, line);
        else step.single(b, readerB, line);
      }
    } finally {
      await readerB.close();
    }
  } finally {
    await readerA.close();
  }
}

const decoded = (reader: LineReader): string => reader.buf.toString('utf8', reader.start, reader.end);

class InStep {
  private readonly fieldsA = fieldSpans();
  private readonly fieldsB = fieldSpans();
  /** Where each record's key value is (at [2], [3]; at [0], where its quoted name starts when it leads). */
  private readonly keyA = new Int32Array(4);
  private readonly keyB = new Int32Array(4);
  /** The key field's name as bytes, and quoted; undefined when the key cannot be read from bytes (none, or a path). */
  private readonly keyName: Uint8Array | undefined;
  private readonly quotedKey: Uint8Array;
  /** The quoted name's rarest byte in side A's first chunk, and its place in the quoted name. */
  private readonly keyByte: number;
  private readonly keyByteAt: number;
  private readonly keyFinderA: NextByte;
  private readonly keyFinderB: NextByte;
  private readonly prover: DifferenceProver;

  constructor(private readonly a: InStepSide, private readonly ra: LineReader, private readonly b: InStepSide, private readonly rb: LineReader, private readonly rules: RecordRules, private readonly held?: PendingPairs) {
    const name = rules.keyParts?.length === 1 ? rules.keyParts[0]! : undefined;
    this.keyName = name === undefined ? undefined : Buffer.from(name);
    this.quotedKey = Buffer.from(JSON.stringify(name ?? ''));
    this.keyByteAt = rarestAt(this.quotedKey, ra.unread);
    this.keyByte = this.quotedKey[this.keyByteAt]!;
    this.keyFinderA = new NextByte(this.keyByte);
    this.keyFinderB = new NextByte(this.keyByte);
    this.prover = new DifferenceProver(rules.ignore);
  }

  /** The pairs held back: changed when both sides' keys kept increasing (their count), else to the partitions (0). */
  settleHeld(): number {
    if (!this.held) return 0;
    if (this.a.writer.order.ordered && this.b.writer.order.ordered) return this.held.count;
    this.held.release(this.a.writer, this.b.writer);
    return 0;
  }

  /**
   * Whether the key leadingKey found is certainly the record's: the record ends its object, holds no
   * escape, and names the key nowhere else (found by the name's rarest byte, a chunk at a time).
   */
  private certain(reader: LineReader, finder: NextByte, key: Int32Array): boolean {
    const { buf, start, end } = reader;
    if (!endsObject(buf, key[3]!, end) || !reader.noBackslash(start, end)) return false;
    for (let at = reader.nextOf(finder, start + this.keyByteAt); at < end; at = reader.nextOf(finder, at + 1)) {
      const candidate = at - this.keyByteAt;
      if (candidate !== key[0] && bytesAt(buf, candidate, this.quotedKey)) return false;
    }
    return true;
  }

  /** The two lines at position `line`: true when settled here (the same record, unchanged). */
  pair(line: number): boolean {
    const { ra, rb } = this;
    const fa = skipSpace(ra.buf, ra.start, ra.end);
    const fb = skipSpace(rb.buf, rb.start, rb.end);
    // A line starting past ASCII may hold white space only JavaScript's trim() knows: read as text.
    if ((fa < ra.end && ra.buf[fa]! >= 0x80) || (fb < rb.end && rb.buf[fb]! >= 0x80)) return this.pairText(decoded(ra), decoded(rb), line);
    if (sameLine(ra, rb)) return fa < ra.end;
    if (fa === ra.end || fb === rb.end) {
      this.single(this.a, ra, line);
      this.single(this.b, rb, line);
      return false;
    }
    if (!this.keyName) return this.pairText(decoded(ra), decoded(rb), line);
    // Keys first, from the first field where that is certain: a record that moved needs nothing more.
    // (B's line starting with A's bytes up to the key's end and the byte after has A's key.)
    if (leadingKey(ra.buf, ra.start, ra.end, this.quotedKey, this.keyA) && !samePrefix(ra, rb, Math.min(this.keyA[3]! + 1, ra.end)) &&
      leadingKey(rb.buf, rb.start, rb.end, this.quotedKey, this.keyB) && !this.sameKey()) {
      if (this.certain(ra, this.keyFinderA, this.keyA) && this.certain(rb, this.keyFinderB, this.keyB)) return this.moved(line);
    }
    // A record of its side's last flat shape is read as that shape says (and is shaped already).
    const likeA = this.a.flat.scanLike(ra.buf, ra.start, ra.end, this.fieldsA);
    const likeB = this.b.flat.scanLike(rb.buf, rb.start, rb.end, this.fieldsB);
    const countA = likeA >= 0 ? likeA : scanObject(ra.buf, ra.start, ra.end, this.fieldsA);
    const countB = countA < 0 ? -1 : likeB >= 0 ? likeB : scanObject(rb.buf, rb.start, rb.end, this.fieldsB);
    if (!keyAt(ra.buf, this.fieldsA, countA, this.keyName, this.keyA) || !keyAt(rb.buf, this.fieldsB, countB, this.keyName, this.keyB)) return this.pairText(decoded(ra), decoded(rb), line);
    if (!this.sameKey()) return this.moved(line);
    return this.oneKey(line, countA, countB, likeA >= 0, likeB >= 0);
  }

  /**
   * Two records of one key at one position, scanned (`like`: read by their side's last flat shape):
   * shaped from the bytes; marked differing when that is sure, else compared as text.
   */
  private oneKey(line: number, countA: number, countB: number, likeA: boolean, likeB: boolean): boolean {
    const { ra, rb } = this;
    const uniqueA = likeA ? this.a.flat.unique : this.a.flat.add(ra.buf, this.fieldsA, countA, ra.start, ra.end, this.a.path, line);
    const uniqueB = likeB ? this.b.flat.unique : this.b.flat.add(rb.buf, this.fieldsB, countB, rb.start, rb.end, this.b.path, line);
    const sameNames = likeA && likeB && this.a.flat.sameSignature(this.b.flat);
    if (!this.prover.surelyDiffer(ra.buf, this.fieldsA, countA, rb.buf, this.fieldsB, countB, uniqueA && uniqueB, sameNames)) return this.pairText(decoded(ra), decoded(rb), line);
    const [orderA, orderB] = [this.a.writer.order, this.b.writer.order];
    if (this.held && orderA.ordered && orderB.ordered) {
      orderA.note(KEY_KIND, ra.buf, this.keyA[2]!, this.keyA[3]!);
      orderB.note(KEY_KIND, rb.buf, this.keyB[2]!, this.keyB[3]!);
      this.held.hold(ra.buf, this.keyA[2]!, this.keyA[3]!, line, ra.offset, ra.end - ra.start, rb.offset, rb.end - rb.start);
      return false;
    }
    this.a.writer.writeDiffering(ra.buf, this.keyA[2]!, this.keyA[3]!, line, ra.offset, ra.end - ra.start);
    this.b.writer.writeDiffering(rb.buf, this.keyB[2]!, this.keyB[3]!, line, rb.offset, rb.end - rb.start);
    return false;
  }

  private sameKey(): boolean {
    const [sA, eA, sB] = [this.keyA[2]!, this.keyA[3]!, this.keyB[2]!];
    if (eA - sA !== this.keyB[3]! - sB) return false;
    for (let k = 0; k < eA - sA; k++) if (this.ra.buf[sA + k] !== this.rb.buf[sB + k]) return false;
    return true;
  }

  /** Two records of different keys: both to their partitions as they are. */
  private moved(line: number): false {
    const { ra, rb } = this;
    this.a.writer.write(MARK.unshaped, KEY_KIND, ra.buf, this.keyA[2]!, this.keyA[3]!, line, ra.buf, ra.start, ra.end);
    this.b.writer.write(MARK.unshaped, KEY_KIND, rb.buf, this.keyB[2]!, this.keyB[3]!, line, rb.buf, rb.start, rb.end);
    return false;
  }

  /** A line with no line at its position on the other side (or beside a blank one). Blank: skipped. */
  single(side: InStepSide, reader: LineReader, line: number): void {
    const { buf, start, end } = reader;
    const first = skipSpace(buf, start, end);
    if (first === end) return;
    const finder = side === this.a ? this.keyFinderA : this.keyFinderB;
    const known = this.keyName !== undefined && buf[first]! < 0x80 &&
      ((leadingKey(buf, start, end, this.quotedKey, this.keyA) && this.certain(reader, finder, this.keyA)) || keyAt(buf, this.fieldsA, scanObject(buf, start, end, this.fieldsA), this.keyName, this.keyA));
    if (known) side.writer.write(MARK.unshaped, KEY_KIND, buf, this.keyA[2]!, this.keyA[3]!, line, buf, start, end);
    else this.addText(side, decoded(reader), line);
  }

  /**
   * Two records at the same position whose bytes did not tell, as text: settled when their keys and
   * contents are equal (unchanged); else both go to their partitions, parsed, shaped, and marked as
   * differing from each other when their keys are equal.
   */
  private pairText(textA: string, textB: string, line: number): boolean {
    if (textA.trim() === '' || textB.trim() === '') {
      this.addText(this.a, textA, line);
      this.addText(this.b, textB, line);
      return false;
    }
    if (textA === textB) return true;
    const valueA = parseRecord(textA, this.a.path, line);
    const valueB = parseRecord(textB, this.b.path, line);
    this.a.shape.add(valueA);
    this.b.shape.add(valueB);
    const keyA = recordKey(valueA, this.rules);
    const keyB = recordKey(valueB, this.rules);
    if (keyA === keyB && (keyA.startsWith('c:') || sameContent(valueA, valueB, this.rules))) return true;
    const mark = keyA === keyB ? MARK.differs : MARK.shaped;
    this.a.writer.writeText(mark, keyA, line, textA);
    this.b.writer.writeText(mark, keyB, line, textB);
    return false;
  }

  /** A record whose bytes did not tell its key, as text (blank: skipped): parsed, shaped and keyed. */
  private addText(side: InStepSide, text: string, line: number): void {
    if (text.trim() === '') return;
    const value = parseRecord(text, side.path, line);
    side.shape.add(value);
    side.writer.writeText(MARK.shaped, recordKey(value, this.rules), line, text);
  }
}

/** The key field's value span of a scanned record into out[2], out[3] (keyField's rule); false when none. */
function keyAt(buf: Uint8Array, fields: Int32Array, count: number, name: Uint8Array, out: Int32Array): boolean {
  const n = count >= 0 ? keyField(buf, fields, count, name) : -1;
  if (n < 0) return false;
  out[2] = fields[n * 4 + 2]!;
  out[3] = fields[n * 4 + 3]!;
  return true;
}

/** The place in `name` of its byte seen least often in `sample` (the quotes, seen everywhere, are left out). */
function rarestAt(name: Uint8Array, sample: Uint8Array): number {
  const seen = new Uint32Array(256);
  for (let i = 0; i < sample.length; i++) seen[sample[i]!]!++;
  let best = name.length > 2 ? 1 : 0;
  for (let k = 1; k < name.length - 1; k++) if (seen[name[k]!]! < seen[name[best]!]!) best = k;
  return best;
}

/** Whether B's line starts with A's bytes up to `until` (an index of A's buffer). */
function samePrefix(ra: LineReader, rb: LineReader, until: number): boolean {
  const length = until - ra.start;
  if (rb.end - rb.start < length) return false;
  for (let k = 0; k < length; k++) if (ra.buf[ra.start + k] !== rb.buf[rb.start + k]) return false;
  return true;
}

/** Whether the two current lines are the same bytes: their first bytes compared here (most differ early), the rest natively. */
function sameLine(ra: LineReader, rb: LineReader): boolean {
  const length = ra.end - ra.start;
  if (rb.end - rb.start !== length) return false;
  const head = Math.min(length, 32);
  for (let k = 0; k < head; k++) if (ra.buf[ra.start + k] !== rb.buf[rb.start + k]) return false;
  return head === length || ra.buf.compare(rb.buf, rb.start + head, rb.end, ra.start + head, ra.end) === 0;
}
