// Two NDJSON sides read in step, line by line, as bytes (partitioned.ts states the rule). A pair at the
// same position is settled there when its bytes say so: the same text is the same record, unchanged.
// Every other record goes to its side's partitions: keyed from its bytes where they are certain
// (recordScan.ts), marked differing when a pair of one key surely differs, and shaped from its bytes
// where the flat-shape signature covers it. Whatever the bytes cannot tell is decoded and settled as
// text (records.ts), the one rule: a record is parsed only there.
import type { FlatShapes } from './flatShape';
import { LineReader } from './lineReader';
import { MARK, type PartitionWriter } from './partitionFile';
import { parseRecord } from './recordFiles';
import { recordKey, recordKeyOfText, sameContent, type RecordRules } from './records';
import { DifferenceProver, fieldSpans, keyField, leadingKey, scanObject, skipSpace } from './recordScan';
import type { ShapeTracker } from './shape';

export interface InStepSide {
  readonly path: string;
  readonly writer: PartitionWriter;
  readonly shape: ShapeTracker;
  readonly flat: FlatShapes;
}

const KEY_KIND = 107; // k

/** Reads both files to their ends; returns how many pairs were settled (unchanged) in step. */
export async function compareInStep(a: InStepSide, b: InStepSide, rules: RecordRules, signal?: AbortSignal): Promise<number> {
  const readerA = await LineReader.open(a.path);
  try {
    const readerB = await LineReader.open(b.path);
    try {
      const step = new InStep(a, readerA, b, readerB, rules);
      let [doneA, doneB, line, settled] = [false, false, 0, 0];
      for (;;) {
        const hasA = !doneA && (readerA.next() || (await readerA.nextLine()));
        const hasB = !doneB && (readerB.next() || (await readerB.nextLine()));
        doneA = !hasA;
        doneB = !hasB;
        if (doneA && doneB) return settled;
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
  /** Where each record's key value is (at [2], [3]). */
  private readonly keyA = new Int32Array(4);
  private readonly keyB = new Int32Array(4);
  /** The key field's name as bytes, and quoted; undefined when the key cannot be read from bytes (none, or a path). */
  private readonly keyName: Uint8Array | undefined;
  private readonly quotedKey: Uint8Array;
  private readonly prover: DifferenceProver;
  private readonly noEscapeA: (s: number, e: number) => boolean;
  private readonly noEscapeB: (s: number, e: number) => boolean;

  constructor(private readonly a: InStepSide, private readonly ra: LineReader, private readonly b: InStepSide, private readonly rb: LineReader, private readonly rules: RecordRules) {
    const name = rules.keyParts?.length === 1 ? rules.keyParts[0]! : undefined;
    this.keyName = name === undefined ? undefined : Buffer.from(name);
    this.quotedKey = Buffer.from(JSON.stringify(name ?? ''));
    this.prover = new DifferenceProver(rules.ignore);
    this.noEscapeA = (s, e) => ra.noBackslash(s, e);
    this.noEscapeB = (s, e) => rb.noBackslash(s, e);
  }

  /** The two lines at position `line`: true when settled here (the same record, unchanged). */
  pair(line: number): boolean {
    const { ra, rb } = this;
    const fa = skipSpace(ra.buf, ra.start, ra.end);
    const fb = skipSpace(rb.buf, rb.start, rb.end);
    // A line starting past ASCII may hold white space only JavaScript's trim() knows: read as text.
    if ((fa < ra.end && ra.buf[fa]! >= 0x80) || (fb < rb.end && rb.buf[fb]! >= 0x80)) return this.pairText(decoded(ra), decoded(rb), line);
    if (ra.end - ra.start === rb.end - rb.start && ra.buf.compare(rb.buf, rb.start, rb.end, ra.start, ra.end) === 0) return fa < ra.end;
    if (fa === ra.end || fb === rb.end) {
      this.single(this.a, ra, line);
      this.single(this.b, rb, line);
      return false;
    }
    if (!this.keyName) return this.pairText(decoded(ra), decoded(rb), line);
    // Keys first, from the first field where that is certain: a record that moved needs nothing more.
    const leading = leadingKey(ra.buf, ra.start, ra.end, this.quotedKey, this.noEscapeA, this.keyA) && leadingKey(rb.buf, rb.start, rb.end, this.quotedKey, this.noEscapeB, this.keyB);
    if (leading && !this.sameKey()) return this.moved(line);
    const countA = scanObject(ra.buf, ra.start, ra.end, this.fieldsA);
    const countB = countA >= 0 ? scanObject(rb.buf, rb.start, rb.end, this.fieldsB) : -1;
    if (countB < 0 || (!leading && !(keyAt(ra.buf, this.fieldsA, countA, this.keyName, this.keyA) && keyAt(rb.buf, this.fieldsB, countB, this.keyName, this.keyB)))) return this.pairText(decoded(ra), decoded(rb), line);
    if (!leading && !this.sameKey()) return this.moved(line);
    // One key at one position: shaped from the bytes; marked differing when that is sure, else compared as text.
    const uniqueA = this.a.flat.add(ra.buf, this.fieldsA, countA, ra.start, ra.end, this.a.path, line);
    const uniqueB = this.b.flat.add(rb.buf, this.fieldsB, countB, rb.start, rb.end, this.b.path, line);
    if (!this.prover.surelyDiffer(ra.buf, this.fieldsA, countA, rb.buf, this.fieldsB, countB, uniqueA && uniqueB)) return this.pairText(decoded(ra), decoded(rb), line);
    this.a.writer.writeDiffering(ra.buf, this.keyA[2]!, this.keyA[3]!, line, ra.offset, ra.end - ra.start);
    this.b.writer.writeDiffering(rb.buf, this.keyB[2]!, this.keyB[3]!, line, rb.offset, rb.end - rb.start);
    return false;
  }

  private sameKey(): boolean {
    const [sA, eA, sB, eB] = [this.keyA[2]!, this.keyA[3]!, this.keyB[2]!, this.keyB[3]!];
    return eA - sA === eB - sB && this.ra.buf.compare(this.rb.buf, sB, eB, sA, eA) === 0;
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
    const known = this.keyName !== undefined && buf[first]! < 0x80 && (leadingKey(buf, start, end, this.quotedKey, (s, e) => reader.noBackslash(s, e), this.keyA) || keyAt(buf, this.fieldsA, scanObject(buf, start, end, this.fieldsA), this.keyName, this.keyA));
    if (known) side.writer.write(MARK.unshaped, KEY_KIND, buf, this.keyA[2]!, this.keyA[3]!, line, buf, start, end);
    else this.addText(side, decoded(reader), line);
  }

  /**
   * Two records at the same position, as text: settled when their keys and contents are equal
   * (unchanged); else both go to their partitions, unparsed where their keys, read from their texts,
   * differ (a record that moved), else parsed, shaped, and marked as differing from each other.
   */
  private pairText(textA: string, textB: string, line: number): boolean {
    if (textA.trim() === '' || textB.trim() === '') {
      this.addText(this.a, textA, line);
      this.addText(this.b, textB, line);
      return false;
    }
    if (textA === textB) return true;
    let keyA = recordKeyOfText(textA, this.rules);
    let keyB = recordKeyOfText(textB, this.rules);
    if (keyA !== undefined && keyB !== undefined && keyA !== keyB) {
      this.a.writer.writeText(MARK.unshaped, keyA, line, textA);
      this.b.writer.writeText(MARK.unshaped, keyB, line, textB);
      return false;
    }
    const valueA = parseRecord(textA, this.a.path, line);
    const valueB = parseRecord(textB, this.b.path, line);
    this.a.shape.add(valueA);
    this.b.shape.add(valueB);
    keyA ??= recordKey(valueA, this.rules);
    keyB ??= recordKey(valueB, this.rules);
    if (keyA === keyB && (keyA.startsWith('c:') || sameContent(valueA, valueB, this.rules))) return true;
    this.a.writer.writeText(MARK.differs, keyA, line, textA);
    this.b.writer.writeText(MARK.differs, keyB, line, textB);
    return false;
  }

  /** A record as text (blank: skipped): keyed from its text where that is certain, else parsed and shaped. */
  private addText(side: InStepSide, text: string, line: number): void {
    if (text.trim() === '') return;
    const key = recordKeyOfText(text, this.rules);
    if (key !== undefined) side.writer.writeText(MARK.unshaped, key, line, text);
    else {
      const value = parseRecord(text, side.path, line);
      side.shape.add(value);
      side.writer.writeText(MARK.shaped, recordKey(value, this.rules), line, text);
    }
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
