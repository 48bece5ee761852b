// A record line read as bytes, without parsing it: the top-level fields of a JSON object (name and
// value spans), its key where the bytes alone are certain to give recordKey's answer, and whether two
// records' contents surely differ. Rule: whatever this cannot be sure of, it says so (-1, false), and
// the caller parses the record (records.ts keeps the rule; this only answers where it is certain).
// Why: two 1 000 000-row sides compare at the speed of reading them when records are not parsed
// (bench/compare.ts); JSON.parse and the strings it makes were most of the comparison's time.
import { isJsonNumber } from '../json/numberText';
import { compared } from './records';

/** Fields read from one record: 4 ints a field (name start, name end, value start, value end). */
export const MAX_FIELDS = 128;
export const fieldSpans = (): Int32Array => new Int32Array(MAX_FIELDS * 4);

const QUOTE = 34;
const BACKSLASH = 92;

/** The first byte at or after `i` that is not JSON white space (`end` when none). */
export function skipSpace(buf: Uint8Array, i: number, end: number): number {
  while (i < end) {
    const c = buf[i]!;
    if (c !== 32 && c !== 9 && c !== 10 && c !== 13) return i;
    i++;
  }
  return end;
}

/**
 * The top-level fields of the object in `buf[start, end)` into `out`; their count, or -1 when the text is
 * not one plain object this can read (an escaped field name, more than MAX_FIELDS fields, broken
 * nesting, anything after it). Values are delimited, not validated.
 */
export function scanObject(buf: Uint8Array, start: number, end: number, out: Int32Array): number {
  let i = skipSpace(buf, start, end);
  if (i >= end || buf[i] !== 123 /* { */) return -1;
  i = skipSpace(buf, i + 1, end);
  if (i < end && buf[i] === 125 /* } */) return skipSpace(buf, i + 1, end) === end ? 0 : -1;
  for (let n = 0; n < MAX_FIELDS; n++) {
    if (i >= end || buf[i] !== QUOTE) return -1;
    const nameStart = i + 1;
    let j = nameStart;
    while (j < end && buf[j] !== QUOTE) if (buf[j++] === BACKSLASH) return -1;
    i = skipSpace(buf, j + 1, end);
    if (i >= end || buf[i] !== 58 /* : */) return -1;
    const valueStart = skipSpace(buf, i + 1, end);
    const valueEnd = skipValue(buf, valueStart, end);
    if (valueEnd <= valueStart) return -1;
    out[n * 4] = nameStart;
    out[n * 4 + 1] = j;
    out[n * 4 + 2] = valueStart;
    out[n * 4 + 3] = valueEnd;
    i = skipSpace(buf, valueEnd, end);
    if (i < end && buf[i] === 44 /* , */) i = skipSpace(buf, i + 1, end);
    else if (i < end && buf[i] === 125) return skipSpace(buf, i + 1, end) === end ? n + 1 : -1;
    else return -1;
  }
  return -1;
}

/** The end of the JSON value at `i` (strings and nesting followed; not validated), or -1. */
function skipValue(buf: Uint8Array, i: number, end: number): number {
  let depth = 0;
  for (; i < end; i++) {
    const c = buf[i]!;
    if (c === QUOTE) {
      for (i++; i < end && buf[i] !== QUOTE; i++) if (buf[i] === BACKSLASH) i++;
      if (i >= end) return -1;
      if (depth === 0) return i + 1;
    } else if (c === 123 || c === 91) depth++;
    else if (c === 125 || c === 93) {
      if (depth === 0) return i;
      if (--depth === 0) return i + 1;
    } else if (depth === 0 && (c === 44 || c === 32 || c === 9 || c === 10 || c === 13)) return i;
  }
  return depth === 0 ? i : -1;
}

/** Whether field `n`'s name is the bytes `name`. */
function nameIs(buf: Uint8Array, fields: Int32Array, n: number, name: Uint8Array): boolean {
  const s = fields[n * 4]!;
  if (fields[n * 4 + 1]! - s !== name.length) return false;
  for (let k = 0; k < name.length; k++) if (buf[s + k] !== name[k]) return false;
  return true;
}

/**
 * The field holding the record's key: the last field named `name` (JSON.parse keeps the last), when its
 * value's bytes are the key's canonical text (records.ts keyOf): a string of printable ASCII without
 * escapes, an integer of at most 15 digits written as String(number) writes it, true or false. -1 otherwise.
 */
export function keyField(buf: Uint8Array, fields: Int32Array, count: number, name: Uint8Array): number {
  for (let n = count - 1; n >= 0; n--) {
    if (!nameIs(buf, fields, n, name)) continue;
    return keyToken(buf, fields[n * 4 + 2]!, fields[n * 4 + 3]!) ? n : -1;
  }
  return -1;
}

function keyToken(buf: Uint8Array, s: number, e: number): boolean {
  return plainString(buf, s, e) || canonicalInteger(buf, s, e) || isWord(buf, s, e, TRUE) || isWord(buf, s, e, FALSE);
}

const TRUE = Buffer.from('true');
const FALSE = Buffer.from('false');
const NULL = Buffer.from('null');

function isWord(buf: Uint8Array, s: number, e: number, word: Uint8Array): boolean {
  if (e - s !== word.length) return false;
  for (let k = 0; k < word.length; k++) if (buf[s + k] !== word[k]) return false;
  return true;
}

/** `"…"` of printable ASCII with no escape: its bytes are its JSON.stringify text. */
function plainString(buf: Uint8Array, s: number, e: number): boolean {
  if (e - s < 2 || buf[s] !== QUOTE || buf[e - 1] !== QUOTE) return false;
  for (let k = s + 1; k < e - 1; k++) {
    const c = buf[k]!;
    if (c < 0x20 || c > 0x7e || c === BACKSLASH || c === QUOTE) return false;
  }
  return true;
}

/** `0` or `-?[1-9][0-9]{0,14}`: exact as a double, and written back the same by String(). */
function canonicalInteger(buf: Uint8Array, s: number, e: number): boolean {
  const first = buf[s] === 45 /* - */ ? s + 1 : s;
  if (first >= e || e - first > 15) return false;
  if (buf[first] === 48 /* 0 */) return e - first === 1 && first === s;
  for (let k = first; k < e; k++) if (buf[k]! < 48 || buf[k]! > 57) return false;
  return true;
}

/**
 * The key's value span (out[2], out[3]) when the record starts `{"<name>":` and a key value (keyField's
 * kinds), and out[0] where the quoted name starts; false otherwise. Certain only once the name is known
 * to occur nowhere else in the record, the record to hold no escape and to end its object (`endsObject`).
 */
export function leadingKey(buf: Uint8Array, s: number, e: number, quotedName: Uint8Array, out: Int32Array): boolean {
  let i = skipSpace(buf, s, e);
  if (i >= e || buf[i] !== 123) return false;
  i = skipSpace(buf, i + 1, e);
  if (i + quotedName.length > e) return false;
  for (let k = 0; k < quotedName.length; k++) if (buf[i + k] !== quotedName[k]) return false;
  out[0] = i;
  i = skipSpace(buf, i + quotedName.length, e);
  if (i >= e || buf[i] !== 58) return false;
  const vs = skipSpace(buf, i + 1, e);
  const ve = skipValue(buf, vs, e);
  if (ve <= vs || !keyToken(buf, vs, ve)) return false;
  out[2] = vs;
  out[3] = ve;
  return true;
}

/** Whether the record's last byte but blanks, after `from`, closes its object. */
export function endsObject(buf: Uint8Array, from: number, e: number): boolean {
  let last = e - 1;
  while (last > from && (buf[last] === 32 || buf[last] === 9)) last--;
  return last > from && buf[last] === 125;
}

/** Whether `buf` holds `bytes` at `at`. */
export function bytesAt(buf: Uint8Array, at: number, bytes: Uint8Array): boolean {
  for (let k = 0; k < bytes.length; k++) if (buf[at + k] !== bytes[k]) return false;
  return true;
}

const NOT_PLAIN = Symbol('not plain');

/** A primitive value read from its bytes where that is certain (no escapes, ASCII); NOT_PLAIN otherwise. */
function plainValue(buf: Buffer, s: number, e: number): unknown {
  const c = buf[s];
  if (c === QUOTE) return plainString(buf, s, e) ? buf.toString('latin1', s + 1, e - 1) : NOT_PLAIN;
  if (c === 45 || (c !== undefined && c >= 48 && c <= 57)) {
    const text = buf.toString('latin1', s, e);
    if (!isJsonNumber(text)) return NOT_PLAIN;
    const value = Number(text);
    return Number.isFinite(value) ? value : NOT_PLAIN;
  }
  if (isWord(buf, s, e, TRUE)) return true;
  if (isWord(buf, s, e, FALSE)) return false;
  return isWord(buf, s, e, NULL) ? null : NOT_PLAIN;
}

function sameBytes(a: Uint8Array, as: number, ae: number, b: Uint8Array, bs: number, be: number): boolean {
  if (ae - as !== be - bs) return false;
  for (let k = 0; k < ae - as; k++) if (a[as + k] !== b[bs + k]) return false;
  return true;
}

/** Field `n` of A's name occurs once in A; the one field of B with that name, or -1. */
function onlyFieldNamed(bufA: Buffer, fa: Int32Array, countA: number, n: number, bufB: Buffer, fb: Int32Array, countB: number): number {
  const s = fa[n * 4]!;
  const e = fa[n * 4 + 1]!;
  for (let k = 0; k < countA; k++) if (k !== n && sameBytes(bufA, s, e, bufA, fa[k * 4]!, fa[k * 4 + 1]!)) return -1;
  let found = -1;
  for (let k = 0; k < countB; k++) {
    if (!sameBytes(bufA, s, e, bufB, fb[k * 4]!, fb[k * 4 + 1]!)) continue;
    if (found >= 0) return -1;
    found = k;
  }
  return found;
}

/**
 * Whether two records' contents (records.ts contentOf) surely differ: a top-level field named once on
 * each side, compared (not ignored), holds plain values that differ.
 * False means "not shown here", not "equal": the caller compares them the full way. Remembers, by
 * field position, whether a name takes part, so a run of records of one shape decodes no name.
 */
export class DifferenceProver {
  private readonly names: (Buffer | undefined)[] = [];
  private readonly namesCompared: boolean[] = [];

  constructor(private readonly ignore: ReadonlySet<string>) {}

  /**
   * `unique`: both records' names are known to be distinct (flatShape.ts), so no name is looked for
   * twice; `sameNames`: both have the same names in the same places (one flat signature), not compared again.
   */
  surelyDiffer(bufA: Buffer, fa: Int32Array, countA: number, bufB: Buffer, fb: Int32Array, countB: number, unique: boolean, sameNames = false): boolean {
    // Both of one flat shape: the first field whose integers differ (the usual answer) is found in one pass.
    if (sameNames && unique && this.integersDiffer(bufA, fa, countA, bufB, fb)) return true;
    // First the fields whose integers differ (their bytes say it, nothing is decoded), then the others.
    for (let pass = 0; pass < 2; pass++) {
      for (let n = 0; n < countA; n++) {
        const vs = fa[n * 4 + 2]!;
        const ve = fa[n * 4 + 3]!;
        const sameName = sameNames || (n < countB && sameBytes(bufA, fa[n * 4]!, fa[n * 4 + 1]!, bufB, fb[n * 4]!, fb[n * 4 + 1]!));
        if (sameName && sameBytes(bufA, vs, ve, bufB, fb[n * 4 + 2]!, fb[n * 4 + 3]!)) continue;
        if (pass === 0 && !canonicalInteger(bufA, vs, ve)) continue;
        const m = unique && sameName ? n : onlyFieldNamed(bufA, fa, countA, n, bufB, fb, countB);
        if (m >= 0 && this.differs(n, bufA, fa[n * 4]!, fa[n * 4 + 1]!, vs, ve, bufB, fb[m * 4 + 2]!, fb[m * 4 + 3]!)) return true;
      }
    }
    return false;
  }

  /** Whether some field, named alike at the same place on both sides, holds integers that differ and takes part. */
  private integersDiffer(bufA: Buffer, fa: Int32Array, count: number, bufB: Buffer, fb: Int32Array): boolean {
    for (let n = 0; n < count; n++) {
      const [vs, ve, ws, we] = [fa[n * 4 + 2]!, fa[n * 4 + 3]!, fb[n * 4 + 2]!, fb[n * 4 + 3]!];
      if (sameBytes(bufA, vs, ve, bufB, ws, we) || !canonicalInteger(bufA, vs, ve) || !canonicalInteger(bufB, ws, we)) continue;
      if (this.nameCompared(n, bufA, fa[n * 4]!, fa[n * 4 + 1]!)) return true;
    }
    return false;
  }

  private differs(n: number, bufA: Buffer, ns: number, ne: number, vs: number, ve: number, bufB: Buffer, ws: number, we: number): boolean {
    // Two integers as String() writes them: different bytes, different numbers.
    if (canonicalInteger(bufA, vs, ve) && canonicalInteger(bufB, ws, we)) return !sameBytes(bufA, vs, ve, bufB, ws, we) && this.nameCompared(n, bufA, ns, ne);
    const a = plainValue(bufA, vs, ve);
    const b = plainValue(bufB, ws, we);
    return a !== NOT_PLAIN && b !== NOT_PLAIN && a !== b && this.nameCompared(n, bufA, ns, ne);
  }

  /** Whether field `n` named `buf[ns, ne)` takes part in the comparison (is not ignored). */
  private nameCompared(n: number, buf: Buffer, ns: number, ne: number): boolean {
    const known = this.names[n];
    if (known && sameBytes(known, 0, known.length, buf, ns, ne)) return this.namesCompared[n]!;
    const name = buf.toString('utf8', ns, ne);
    this.names[n] = Buffer.from(buf.subarray(ns, ne));
    return (this.namesCompared[n] = compared(name, this.ignore));
  }
}
