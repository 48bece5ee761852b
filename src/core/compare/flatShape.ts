// A side's shape fed from record bytes where that adds nothing: a flat record (no nested value) whose
// field names and value types, in order, are the last flat record's adds no path and no type to the
// side's ShapeTracker, so it is not parsed. Rule: any other record is parsed and shaped as before.
// Why: most records of a walk share one shape; parsing each to learn it again was half the cost of a
// side whose records all differ (bench/compare.ts).
import { parseRecord } from './recordFiles';
import { MAX_FIELDS, skipSpace } from './recordScan';
import type { ShapeTracker } from './shape';

const NAME_END = 34; // '"' cannot stand unescaped in a field name: it ends one in the signature

export class FlatShapes {
  /** The last flat record's names and type letters; whether its names are distinct. */
  private last = Buffer.allocUnsafe(1024);
  private lastLength = -1;
  private lastUnique = false;
  /**
   * The last flat signature as a record without blanks writes it: per field, `{"name":` or `,"name":`
   * (template[literalAt[n], literalAt[n + 1] - 1)) and its type letter (types[n]); `}` at the end.
   */
  private template = Buffer.allocUnsafe(1024);
  private literalAt = new Int32Array(MAX_FIELDS + 1);
  private types = new Uint8Array(MAX_FIELDS);
  private fieldCount = 0;
  /** Bumped when the signature changes; the last sameSignature answer and the versions it was for. */
  private version = 0;
  private comparedWith: FlatShapes | undefined;
  private comparedAt = -1;
  private otherAt = -1;
  private comparedSame = false;

  constructor(private readonly shape: ShapeTracker) {}

  /**
   * Shapes record `buf[s, e)` (`line` of `path`), read by scanObject into `fields`, `count`: nothing to
   * do when it is flat with the last flat record's signature; else parsed (an input error where it is
   * not JSON) and shaped. True when the record is known flat with distinct field names.
   */
  add(buf: Buffer, fields: Int32Array, count: number, s: number, e: number, path: string, line: number): boolean {
    if (this.sameAsLast(buf, fields, count)) return this.lastUnique;
    this.shape.add(parseRecord(buf.toString('utf8', s, e), path, line));
    return this.remember(buf, fields, count);
  }

  /**
   * The record's fields into `fields` when it is flat with the last flat record's signature, read as
   * that signature says (its names compared, its values skipped by their types): its field count, or
   * -1 where it is not so (then scan it the general way, recordScan.ts). Its names are distinct when
   * `unique` says so.
   */
  scanLike(buf: Uint8Array, s: number, e: number, fields: Int32Array): number {
    if (this.lastLength < 0) return -1;
    const tight = this.scanTight(buf, s, e, fields);
    return tight >= 0 ? tight : this.scanSpaced(buf, s, e, fields);
  }

  /** scanLike for a record written without blanks, as its template says (most are): -1 otherwise. */
  private scanTight(buf: Uint8Array, s: number, e: number, fields: Int32Array): number {
    const { template, literalAt, types } = this;
    let i = s;
    for (let n = 0; n < this.fieldCount; n++) {
      const [ls, le] = [literalAt[n]!, literalAt[n + 1]! - 1];
      if (i + le - ls >= e) return -1;
      for (let k = ls; k < le; k++) if (buf[i++] !== template[k]) return -1;
      const type = types[n]!;
      const first = buf[i]!;
      let end: number;
      if (type === 115) end = first === 34 ? skipString(buf, i, e) : -1;
      else end = typeLetter(first) === type ? skipWord(buf, i, e) : -1;
      if (end < 0) return -1;
      fields[n * 4] = i - (le - ls) + 2;
      fields[n * 4 + 1] = i - 2;
      fields[n * 4 + 2] = i;
      fields[n * 4 + 3] = end;
      i = end;
    }
    return i === e - 1 && buf[i] === 125 && this.fieldCount > 0 ? this.fieldCount : -1;
  }

  private scanSpaced(buf: Uint8Array, s: number, e: number, fields: Int32Array): number {
    const last = this.last;
    let i = skipSpace(buf, s, e);
    if (this.lastLength < 0 || i >= e || buf[i] !== 123) return -1;
    let n = 0;
    for (let at = 0; at < this.lastLength; n++) {
      i = skipSpace(buf, i + 1, e);
      if (i >= e || buf[i] !== 34) return -1;
      const nameStart = i + 1;
      let k = nameStart;
      while (last[at] !== NAME_END) if (k >= e || buf[k++] !== last[at++]) return -1;
      if (k >= e || buf[k] !== 34) return -1;
      i = skipSpace(buf, k + 1, e);
      if (i >= e || buf[i] !== 58) return -1;
      const valueStart = skipSpace(buf, i + 1, e);
      const valueEnd = valueStart < e && typeLetter(buf[valueStart]!) === last[at + 1] ? skipTyped(buf, valueStart, e) : -1;
      if (valueEnd < 0) return -1;
      at += 2;
      fields[n * 4] = nameStart;
      fields[n * 4 + 1] = k;
      fields[n * 4 + 2] = valueStart;
      fields[n * 4 + 3] = valueEnd;
      i = skipSpace(buf, valueEnd, e);
      if (i >= e || buf[i] !== (at < this.lastLength ? 44 : 125)) return -1;
    }
    return skipSpace(buf, i + 1, e) === e ? n : -1;
  }

  /** The template of a flat record's fields (scanTight). */
  private keepTemplate(buf: Uint8Array, fields: Int32Array, count: number): void {
    let size = 1;
    for (let n = 0; n < count; n++) size += fields[n * 4 + 1]! - fields[n * 4]! + 5;
    if (size > this.template.length) this.template = Buffer.allocUnsafe(size * 2);
    const t = this.template;
    let at = 0;
    for (let n = 0; n < count; n++) {
      this.literalAt[n] = at;
      t[at++] = n === 0 ? 123 : 44;
      t[at++] = 34;
      for (let k = fields[n * 4]!; k < fields[n * 4 + 1]!; k++) t[at++] = buf[k]!;
      t[at++] = 34;
      t[at++] = 58;
      this.types[n] = typeLetter(buf[fields[n * 4 + 2]!]!);
      at++; // the value's place: literalAt[n + 1] - 1 ends the literal
    }
    this.literalAt[count] = at;
    this.fieldCount = count;
  }

  get unique(): boolean {
    return this.lastUnique;
  }

  /** Whether this side's last flat signature is `other`'s (then two records read by scanLike have the same names in the same places). */
  sameSignature(other: FlatShapes): boolean {
    if (this.lastLength < 0 || this.lastLength !== other.lastLength) return false;
    if (this.comparedWith === other && this.comparedAt === this.version && this.otherAt === other.version) return this.comparedSame;
    [this.comparedWith, this.comparedAt, this.otherAt] = [other, this.version, other.version];
    return (this.comparedSame = this.last.compare(other.last, 0, this.lastLength, 0, this.lastLength) === 0);
  }

  private sameAsLast(buf: Uint8Array, fields: Int32Array, count: number): boolean {
    const last = this.last;
    let at = 0;
    for (let n = 0; n < count; n++) {
      const s = fields[n * 4]!;
      const e = fields[n * 4 + 1]!;
      if (at + e - s + 2 > this.lastLength) return false;
      for (let k = s; k < e; k++) if (last[at++] !== buf[k]) return false;
      if (last[at++] !== NAME_END || last[at++] !== typeLetter(buf[fields[n * 4 + 2]!]!)) return false;
    }
    return at === this.lastLength;
  }

  /**
   * Keeps a flat record's signature (a record with a nested value leaves the last one in place); true
   * when it was kept and its names are distinct (in ASCII: distinct bytes, distinct names).
   */
  private remember(buf: Uint8Array, fields: Int32Array, count: number): boolean {
    let size = 0;
    for (let n = 0; n < count; n++) {
      if (typeLetter(buf[fields[n * 4 + 2]!]!) === 0) return false;
      size += fields[n * 4 + 1]! - fields[n * 4]! + 2;
    }
    if (size > this.last.length) this.last = Buffer.allocUnsafe(size);
    const names = new Set<string>();
    let ascii = true;
    let at = 0;
    for (let n = 0; n < count; n++) {
      const [s, e] = [fields[n * 4]!, fields[n * 4 + 1]!];
      names.add(Buffer.from(buf.subarray(s, e)).toString('latin1'));
      for (let k = s; k < e; k++) {
        ascii &&= buf[k]! < 0x80;
        this.last[at++] = buf[k]!;
      }
      this.last[at++] = NAME_END;
      this.last[at++] = typeLetter(buf[fields[n * 4 + 2]!]!);
    }
    this.lastLength = at;
    this.keepTemplate(buf, fields, count);
    this.version++;
    this.lastUnique = ascii && names.size === count;
    return this.lastUnique;
  }
}

/** s(tring), n(umber), b(oolean), l (null) from a value's first byte; 0 for an object or array. */
function typeLetter(first: number): number {
  if (first === 34) return 115;
  if (first === 123 || first === 91) return 0;
  if (first === 116 || first === 102) return 98;
  return first === 110 ? 108 : 110;
}

/** The end of a string (no escape), number or word at `i`; -1 for a string with an escape or unended. */
function skipTyped(buf: Uint8Array, i: number, e: number): number {
  return buf[i] === 34 ? skipString(buf, i, e) : skipWord(buf, i, e);
}

function skipString(buf: Uint8Array, i: number, e: number): number {
  for (let k = i + 1; k < e; k++) {
    const c = buf[k]!;
    if (c === 34) return k + 1;
    if (c === 92) return -1;
  }
  return -1;
}

/** As recordScan's skipValue: a word or number ends at a comma, a blank or a closing bracket. */
const ENDS_WORD = new Uint8Array(256);
for (const c of [44, 125, 93, 32, 9, 10, 13]) ENDS_WORD[c] = 1;

function skipWord(buf: Uint8Array, i: number, e: number): number {
  let k = i + 1;
  while (k < e && ENDS_WORD[buf[k]!] === 0) k++;
  return k;
}
