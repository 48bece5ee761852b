// CSV lines written from the rows' own NDJSON bytes, once the header is fixed (csvSink.ts's fast path):
// a row that is an object whose keys come in the header's order (any may be missing) holding scalars (a
// string without escapes, a number, true, false, null) — or, in the single `value` column, a scalar — is
// written as it is read, each cell's bytes copied as csvField writes the value parseKeepingNumbers makes
// of them (a number is its text as the service wrote it, 1E400 or 12345678901234567890 too).
// Anything else goes to the exact path (`exact`: parseKeepingNumbers of the line, csvRow): a nested value, an
// escape, a control byte, keys in another order, a key not in the header (it goes to `_extra`) or given
// twice (JSON.parse keeps the last), a row that is not an object, a batch that is not valid UTF-8 (its
// replacement characters are the exact path's). The bytes are the same either way
// (test/unit/csvFromNdjson.test.ts holds the two to each other).
import { isUtf8 } from 'node:buffer';
import { firstStop, stringStops } from '../json/grammar';
import { isJsonNumber, isNumberChar } from '../json/numberText';

const QUOTE = 0x22, BACKSLASH = 0x5c, COMMA = 0x2c, COLON = 0x3a, OPEN_BRACE = 0x7b, CLOSE_BRACE = 0x7d, NEWLINE = 0x0a, MINUS = 0x2d, DOT = 0x2e, ZERO = 0x30, NINE = 0x39;

/** Bytes that end a run of a string's plain bytes: its closing quote, an escape, a comma (the cell is quoted), a control byte. */
const STRING_STOP = new Uint8Array(256);
for (let c = 0; c < 0x20; c++) STRING_STOP[c] = 1;
STRING_STOP[QUOTE] = STRING_STOP[BACKSLASH] = STRING_STOP[COMMA] = 1;
/** JSON whitespace between tokens (a line end never is one: lines are cut at it). */
const SPACE = new Uint8Array(256);
SPACE[0x20] = SPACE[0x09] = SPACE[0x0d] = 1;
/** Bytes a number's text is made of (numberText.ts's isNumberChar, as a table). */
const NUMBER_BYTE = new Uint8Array(256);
for (let c = 0; c < 256; c++) NUMBER_BYTE[c] = isNumberChar(c) ? 1 : 0;
/** A string starting with one of these may be a formula (TAB and CR never reach here raw). */
const FORMULA_BYTE = new Uint8Array(256);
for (const c of '=+-@') FORMULA_BYTE[c.charCodeAt(0)] = 1;
const TRUE = Buffer.from('true'), FALSE = Buffer.from('false'), NULL = Buffer.from('null');

export interface CsvFromNdjsonOptions {
  /** The header's columns; `_extra` (always empty here: a row with a key not in the header goes to `exact`). */
  readonly columns: readonly string[];
  readonly extraColumn: string;
  /** True when the file has the single `value` column (no header row was an object). */
  readonly valueColumn: boolean;
  /** Whether a string cell gets csvField's leading apostrophe (false when formulas are written raw). */
  readonly apostrophe: ((text: string) => boolean) | undefined;
  /** The exact path: a row's line (JSON text) as its CSV line, without the line end. */
  readonly exact: (line: string) => string;
}

/** Writes rows' NDJSON lines as CSV lines (see the top); one per header (its columns fixed). */
export class CsvFromNdjson {
  private readonly width: number;
  /**
   * Per column: its name's bytes as a key without escapes writes it, and its closing quote, as
   * little-endian words (the last one's unused bytes 0; empty for a name a key writes with escapes: its
   * key is read whole), that last word's mask, and the name's length in bytes.
   */
  private readonly keyWords: Int32Array[];
  private readonly lastMasks: Int32Array;
  private readonly keyLengths: Int32Array;
  private readonly byKey = new Map<string, number>();
  /** The column of a row's k-th key in the row before: the next row's k-th key is tried against it first. */
  private readonly lastOrder: Int32Array;
  /** Where the last key or value read ends. */
  private cursor = 0;
  private out: Buffer = Buffer.allocUnsafe(0);
  /** The batch's bytes and the output, read and written four bytes at a time. */
  private words: DataView | undefined;
  private outWords: DataView | undefined;
  private at = 0;

  constructor(private readonly options: CsvFromNdjsonOptions) {
    const { columns } = options;
    this.width = columns.length;
    const extra = columns.indexOf(options.extraColumn);
    this.lastMasks = new Int32Array(this.width);
    this.keyLengths = new Int32Array(this.width);
    this.keyWords = columns.map((name, column) => {
      const key = Buffer.from(name, 'utf8');
      this.keyLengths[column] = key.length;
      if (key.some((byte) => STRING_STOP[byte] === 1 && byte !== COMMA)) return new Int32Array(0);
      const quoted = Buffer.concat([key, Buffer.from('"')]);
      const padded = Buffer.alloc(Math.ceil(quoted.length / 4) * 4);
      quoted.copy(padded);
      const rest = quoted.length % 4;
      this.lastMasks[column] = rest === 0 ? -1 : (1 << (rest * 8)) - 1;
      return Int32Array.from({ length: padded.length / 4 }, (_, w) => padded.readInt32LE(w * 4));
    });
    columns.forEach((c, i) => {
      if (i !== extra && !this.byKey.has(c)) this.byKey.set(c, i);
    });
    this.lastOrder = new Int32Array(this.width + 1).fill(-1);
  }

  /** NDJSON pieces (a line may be split between them; blank lines are none) as CSV bytes, in new buffers. */
  encode(pieces: readonly Buffer[]): Buffer[] {
    let size = 0;
    for (const piece of pieces) size += piece.length;
    this.setOut(Buffer.allocUnsafe(size + (size >>> 1) + 1024));
    this.at = 0;
    // Each piece's whole lines where they lie; only a line cut between pieces is copied: its parts
    // gathered until its line break, then joined once (a line across many pieces is copied once, not per piece).
    const cut: Buffer[] = [];
    for (let p = 0; p < pieces.length; p++) {
      let piece = pieces[p]!;
      if (cut.length > 0) {
        const lineEnd = piece.indexOf(NEWLINE);
        cut.push(lineEnd < 0 ? piece : piece.subarray(0, lineEnd + 1));
        if (lineEnd < 0 && p < pieces.length - 1) continue;
        this.lines(Buffer.concat(cut));
        cut.length = 0;
        piece = lineEnd < 0 ? piece.subarray(piece.length) : piece.subarray(lineEnd + 1);
      }
      const whole = p === pieces.length - 1 ? piece.length : piece.lastIndexOf(NEWLINE) + 1;
      this.lines(piece.subarray(0, whole));
      if (whole < piece.length) cut.push(piece.subarray(whole));
    }
    const written = this.out.subarray(0, this.at);
    this.setOut(Buffer.allocUnsafe(0));
    this.words = undefined;
    return written.length === 0 ? [] : [written];
  }

  /** Whole NDJSON lines (the last may lack its line break) written after the output so far. */
  private lines(bytes: Buffer): void {
    const valid = isUtf8(bytes);
    this.words = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
    for (let start = 0; start < bytes.length;) {
      // A row written here tells where its line ends (no search for it: a batch of numbers is 250 000 lines).
      let end = valid ? this.fast(bytes, start) : -1;
      if (end < 0) {
        end = bytes.indexOf(NEWLINE, start);
        if (end < 0) end = bytes.length;
        this.slow(bytes, start, end);
      }
      start = end + 1;
    }
  }


  /** The exact path for one line (blank lines are none). */
  private slow(b: Buffer, start: number, end: number): void {
    const line = b.toString('utf8', start, end);
    if (line.trim() === '') return;
    const text = `${this.options.exact(line)}\r\n`;
    this.room(Buffer.byteLength(text, 'utf8'));
    this.at += this.out.write(text, this.at, 'utf8');
  }

  private room(bytes: number): void {
    if (this.at + bytes <= this.out.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.out.length * 2, this.at + bytes));
    this.out.copy(grown, 0, 0, this.at);
    this.setOut(grown);
  }

  private setOut(out: Buffer): void {
    this.out = out;
    this.outWords = new DataView(out.buffer, out.byteOffset, out.length);
  }

  /**
   * The row of the line from `start` written: where the line ends (its line break, or the end of the
   * bytes); or -1, nothing written, the line left to the exact path. A row never reaches past its line
   * here (a line break in it is a control byte: no string, key, number or literal holds one).
   */
  private fast(b: Buffer, start: number): number {
    const end = b.length;
    let i = start;
    while (SPACE[b[i]!] === 1) i++;
    if (i === end || b[i] === NEWLINE) return -1; // a blank line: the exact path's to skip
    // Room for the rest of the bytes (a bound of this row's), and per cell for what it may grow by.
    this.room(end - start + this.width * 32 + 2);
    const o = this.options.valueColumn ? this.cell(b, i, end, this.at) : this.streamed(b, i, end);
    if (o < 0) return -1;
    i = this.cursor;
    while (SPACE[b[i]!] === 1) i++;
    if (i !== end && b[i] !== NEWLINE) return -1;
    this.out[o] = 0x0d;
    this.out[o + 1] = NEWLINE;
    this.at = o + 2;
    return i;
  }

  /**
   * The usual row, written as it is read: an object whose keys come in the header's order (some may be
   * missing), its cells copied to the output at once: where they end there (the row's end in `cursor`),
   * or -1 for any other row.
   */
  private streamed(b: Buffer, start: number, end: number): number {
    if (b[start] !== OPEN_BRACE) return -1;
    const out = this.out;
    let o = this.at;
    let previous = -1;
    let i = start + 1;
    while (SPACE[b[i]!] === 1) i++;
    if (b[i] !== CLOSE_BRACE) {
      for (let k = 0; ; k++) {
        const column = this.key(b, i, end, k);
        if (column <= previous) return -1;
        for (let c = previous < 0 ? 0 : previous; c < column; c++) out[o++] = COMMA;
        previous = column;
        i = this.cursor;
        while (SPACE[b[i]!] === 1) i++;
        if (b[i] !== COLON) return -1;
        i++;
        while (SPACE[b[i]!] === 1) i++;
        o = this.cell(b, i, end, o);
        if (o < 0) return -1;
        i = this.cursor;
        while (SPACE[b[i]!] === 1) i++;
        if (b[i] === CLOSE_BRACE) break;
        if (b[i] !== COMMA) return -1;
        i++;
        while (SPACE[b[i]!] === 1) i++;
      }
    }
    this.cursor = i + 1;
    for (let c = previous < 0 ? 0 : previous; c < this.width - 1; c++) out[o++] = COMMA;
    return o;
  }

  /**
   * The scalar at b[i] written as its cell at out[o]: where the cell ends there (the value's end in
   * `cursor`), or -1 (not one this path writes).
   */
  private cell(b: Buffer, i: number, end: number, o: number): number {
    const c = b[i]!;
    if (c === QUOTE) return FORMULA_BYTE[b[i + 1]!] === 1 && this.options.apostrophe ? this.formulaCell(b, i, end, o) : this.stringCell(b, i + 1, end, o);
    if (c === MINUS || (c >= ZERO && c <= NINE)) return this.numberCell(b, i, o);
    const literal = c === 0x74 ? TRUE : c === 0x66 ? FALSE : c === 0x6e ? NULL : undefined;
    if (!literal || i + literal.length > end || !sameBytes(b, i, literal)) return -1;
    this.cursor = i + literal.length;
    return literal === NULL ? o : copyBytes(literal, 0, literal.length, this.out, o);
  }

  /** A string's bytes from b[i] (past its opening quote) copied as its cell: quoted when it holds a comma. */
  private stringCell(b: Buffer, i: number, end: number, o: number): number {
    const out = this.out;
    const from = o;
    let commas = 0;
    // Four bytes at a time (read and written as one word) up to the word that holds the string's end.
    const words = this.words!, outWords = this.outWords!;
    const last = b.length - 4;
    for (;;) {
      if (i > last) {
        for (let byte = b[i]; byte !== undefined && (STRING_STOP[byte] === 0 || byte === COMMA); byte = b[++i]) {
          if (byte === COMMA) commas = 1;
          out[o++] = byte;
        }
        break;
      }
      const v = words.getInt32(i, true);
      const stops = stringStops(v);
      const comma = v ^ 0x2c2c2c2c;
      // A borrow flags a byte only above a comma: flags below the string's end are there only if a comma is.
      const commaFlags = (comma - 0x01010101) & ~comma & 0x80808080;
      outWords.setInt32(o, v, true);
      if (stops === 0) {
        commas |= commaFlags;
        i += 4;
        o += 4;
        continue;
      }
      commas |= commaFlags & ((stops & -stops) - 1);
      const n = firstStop(stops);
      i += n;
      o += n;
      break;
    }
    if (b[i] !== QUOTE || i >= end) return -1;
    this.cursor = i + 1;
    if (commas === 0) return o;
    out.copyWithin(from + 1, from, o);
    out[from] = QUOTE;
    out[o + 1] = QUOTE;
    return o + 2;
  }

  /**
   * A number's cell: its text copied as it is read (the service's text, as the exact path writes it:
   * parseKeepingNumbers keeps a text String() would change); -1 when it is no JSON number.
   */
  private numberCell(b: Buffer, i: number, o: number): number {
    const out = this.out;
    const from = i;
    if (b[i] === MINUS) out[o++] = b[i++]!;
    const intStart = i;
    let c = b[i];
    while (c !== undefined && c >= ZERO && c <= NINE) {
      out[o++] = c;
      c = b[++i];
    }
    // The usual number checked as it is copied; anything past it (an exponent, a sign, a bad form) by the grammar.
    let plain = i - intStart === 1 || (i > intStart && b[intStart] !== ZERO);
    if (c === DOT) {
      out[o++] = c;
      c = b[++i];
      const fracStart = i;
      while (c !== undefined && c >= ZERO && c <= NINE) {
        out[o++] = c;
        c = b[++i];
      }
      if (i === fracStart) plain = false;
    }
    if (c !== undefined && NUMBER_BYTE[c] === 1) {
      plain = false;
      while (NUMBER_BYTE[b[i]!] === 1) out[o++] = b[i++]!;
    }
    this.cursor = i;
    return plain || isJsonNumber(b.toString('latin1', from, i)) ? o : -1;
  }

  /** A string cell that starts like a formula: read whole, then written with csvField's apostrophe where it needs one. */
  private formulaCell(b: Buffer, i: number, end: number, o: number): number {
    const from = i + 1;
    i = from;
    let comma = false;
    for (;;) {
      while (STRING_STOP[b[i]!] === 0) i++;
      if (b[i] !== COMMA) break;
      comma = true;
      i++;
    }
    if (b[i] !== QUOTE || i >= end) return -1;
    this.cursor = i + 1;
    const out = this.out;
    if (comma) out[o++] = QUOTE;
    if (this.options.apostrophe!(b.toString('utf8', from, i))) out[o++] = 0x27;
    o = copyBytes(b, from, i, out, o);
    if (comma) out[o++] = QUOTE;
    return o;
  }

  /** The header column of the row's k-th key, at b[i] (its end in `cursor`), or -1: not a key, or not one in the header. */
  private key(b: Buffer, i: number, end: number, k: number): number {
    if (b[i] !== QUOTE) return -1;
    const keyStart = i + 1;
    // The key of the row before at this place, when it is that again (the usual row), else read on.
    const hint = this.lastOrder[k]!;
    if (hint >= 0 && this.sameKey(b, keyStart, hint)) {
      this.cursor = keyStart + this.keyLengths[hint]! + 1;
      return hint;
    }
    i = keyStart;
    while (STRING_STOP[b[i]!] === 0 || b[i] === COMMA) i++;
    if (b[i] !== QUOTE || i >= end) return -1;
    this.cursor = i + 1;
    return this.column(b, keyStart, i, k);
  }

  /** Whether b holds column's name and its closing quote from `at` (compared a word at a time; false near the batch's end: read whole then). */
  private sameKey(b: Buffer, at: number, column: number): boolean {
    const words = this.keyWords[column]!;
    const last = words.length - 1;
    if (last < 0 || at + words.length * 4 > b.length) return false;
    const bytes = this.words!;
    for (let w = 0; w < last; w++) if (bytes.getInt32(at + w * 4, true) !== words[w]) return false;
    return (bytes.getInt32(at + last * 4, true) & this.lastMasks[column]!) === words[last];
  }

  /** The header column of the key b[start, end) (the k-th of its row), or -1: not in the header. */
  private column(b: Buffer, start: number, end: number, k: number): number {
    const column = this.byKey.get(b.toString('utf8', start, end)) ?? -1;
    if (column >= 0) this.lastOrder[k] = column;
    return column;
  }
}

/** Whether b holds `key`'s bytes from `at` (a loop: a native compare costs more than a short key). */
function sameBytes(b: Buffer, at: number, key: Buffer): boolean {
  for (let j = 0; j < key.length; j++) if (b[at + j] !== key[j]) return false;
  return true;
}

/** b[start, end) copied to `out` at `at`; where it ends there (a loop for a short cell: a native copy costs more). */
function copyBytes(b: Buffer, start: number, end: number, out: Buffer, at: number): number {
  if (end - start > 64) return at + b.copy(out, at, start, end);
  for (let i = start; i < end; i++) out[at++] = b[i]!;
  return at;
}
