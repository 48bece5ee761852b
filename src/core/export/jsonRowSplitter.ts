// A push scanner that turns a JSON page body, as its chunks arrive, into NDJSON lines of its rows,
// without building the page as objects. It is how a 100 000-row page goes to disk with flat memory:
// the rows array (a named top-level field, or the top-level array itself) is copied row by row into
// NDJSON bytes; every other top-level field (TableName, Remaining, BatchID...) is kept and parsed.
// Validation: the scanner checks the structure (brackets, strings, separators); the rows' own tokens
// are checked by JSON.parse once per chunk over the rows that chunk completed, so a malformed page is
// rejected like JSON.parse would reject it, at a fraction of the cost of parse + stringify.
// A row holding a raw line break (pretty-printed JSON) is re-serialised, so each row stays one line.

import { ByteBlocks } from './byteBlocks';

export { ByteBlocks };

const enum S { Start, KeyOrEnd, Key, Colon, Value, AfterValue, RowsStart, RowOrEnd, AfterRow, End }

const QUOTE = 0x22, BACKSLASH = 0x5c, COMMA = 0x2c, COLON = 0x3a, NEWLINE = 0x0a, RETURN = 0x0d;
const OPEN_OBJ = 0x7b, CLOSE_OBJ = 0x7d, OPEN_ARR = 0x5b, CLOSE_ARR = 0x5d;

const BOUNDARY = Buffer.from('},{');
const NEWLINE_BUFFER = Buffer.from('\n');
/**
 * Rows go out as they come, so a body may be larger than any memory limit; but one value is held whole
 * until it ends (a row, or a field such as TableName): past this size the body is refused.
 */
const MAX_HELD_VALUE_BYTES = 256 * 1048576;
/** Without a row boundary in this many bytes, fast mode gives way to the byte scanner. */
const MAX_CARRY = 1 << 20;

const isSpace = (c: number): boolean => c === 0x20 || c === NEWLINE || c === RETURN || c === 0x09;

export class MalformedJsonError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MalformedJsonError';
  }
}

export interface SplitResult {
  /** Every top-level field except the rows, parsed. */
  readonly fields: Record<string, unknown>;
  readonly rowCount: number;
  /** False when the body had no rows array where expected (the caller then reads `fields`). */
  readonly rowsFound: boolean;
  /** Set when the body was not of the expected shape (object vs array): the whole body, parsed. */
  readonly value?: unknown;
}

export class JsonRowSplitter {
  private state = S.Start;
  private offset = 0; // bytes consumed before the current chunk, for messages
  private readonly fields: Record<string, unknown> = {};
  private rowsFound = false;
  private rowCount = 0;
  // The value being scanned (a row or another field): depth, string state, pieces spanning chunks.
  private depth = 0;
  private inString = false;
  private escaped = false;
  private scalar = false;
  private hasBreak = false;
  private pieces: Buffer[] = [];
  private heldBytes = 0;
  private key = '';
  private keyPieces: Buffer[] = [];

  /**
   * @param rowsField the top-level field holding the rows, or undefined when the body is the array.
   * @param out where the NDJSON lines go.
   */
  constructor(private readonly rowsField: string | undefined, private readonly out: ByteBlocks) {}

  /** Rows written to `out` so far (each one a whole line: `out` never holds part of a row). */
  get rowsSoFar(): number {
    return this.rowCount;
  }

  /** Feeds the next chunk of the body. Throws MalformedJsonError as soon as the body cannot be JSON. */
  push(chunk: Buffer): void {
    if (this.whole) this.whole.push(Buffer.from(chunk));
    else if (this.fast) this.fastPush(chunk);
    else this.scan(chunk);
  }

  // Fast mode, for the usual case of compact rows that are objects: rows are not scanned byte by byte.
  // Candidate row boundaries are the bytes `},{` (found by the native indexOf); the rows up to the last
  // candidate are checked with ONE JSON.parse, and accepted only if it yields exactly one row more
  // than there were candidates — then every candidate is a real boundary (a `},{` inside a string or
  // a nested value would make the counts differ, or the parse fail). Its comma becomes the line break,
  // in place. Anything else (pretty-printed rows, rows that are not objects, a body whose rows end in
  // the middle) falls back to the byte scanner from the first row not yet written, so the result is
  // the same, only slower.
  private whole: Buffer[] | undefined;
  private fast = false;
  private fastAllowed = true;
  private carry: Buffer = Buffer.alloc(0);

  private fastPush(data: Buffer): void {
    if (this.rowCount === 0 && this.carry.length === 0) {
      let k = 0;
      while (k < data.length && isSpace(data[k]!)) k++;
      if (k === data.length) return; // only whitespace so far
      if (data[k] !== OPEN_OBJ) return this.fallback(data);
      data = data.subarray(k);
      this.offset += k;
    }
    // `[` + carry + data in one buffer, so the rows can be parsed without building a joined string.
    const combined = Buffer.allocUnsafe(1 + this.carry.length + data.length);
    combined[0] = OPEN_ARR;
    this.carry.copy(combined, 1);
    data.copy(combined, 1 + this.carry.length);
    const last = combined.lastIndexOf(BOUNDARY);
    if (last < 1) {
      if (combined.length > MAX_CARRY) return this.fallback(combined.subarray(1));
      this.carry = combined.subarray(1);
      return;
    }
    const region = combined.subarray(1, last + 1);
    if (region.indexOf(NEWLINE) >= 0 || region.indexOf(RETURN) >= 0) return this.fallback(combined.subarray(1));
    const commas: number[] = [];
    for (let at = region.indexOf(BOUNDARY); at >= 0; at = region.indexOf(BOUNDARY, at + 1)) commas.push(at + 1);
    // The comma after the region's last row briefly becomes `]`: the bytes [0, last+2) are then "[rows]".
    combined[last + 1] = CLOSE_ARR;
    let rows: unknown;
    try {
      rows = JSON.parse(combined.toString('utf8', 0, last + 2));
    } catch {
      rows = undefined;
    }
    combined[last + 1] = COMMA;
    if (!Array.isArray(rows) || rows.length !== commas.length + 1) return this.fallback(combined.subarray(1));
    for (const comma of commas) region[comma] = NEWLINE;
    this.out.pushSlice(region);
    this.out.pushSlice(NEWLINE_BUFFER);
    this.rowCount += rows.length;
    this.offset += last + 1;
    this.carry = combined.subarray(last + 2);
  }

  /** Leaves fast mode: the byte scanner takes over at the first row not yet written. */
  private fallback(rest: Buffer): void {
    this.fast = false;
    this.carry = Buffer.alloc(0);
    this.state = this.rowCount === 0 ? S.RowsStart : S.RowOrEnd;
    if (rest.length > 0) this.scan(rest);
  }

  private scan(chunk: Buffer): void {
    const len = chunk.length;
    let i = 0;
    // Start of the current value in this chunk (0 when it began in an earlier chunk), -1 when none.
    let valueStart = this.inValue() ? 0 : -1;
    let batchStart = -1; // first row lying wholly in this chunk, validated with its batch
    let batchEnd = -1;
    const fail = (what: string): never => {
      throw new MalformedJsonError(`malformed JSON at byte ${this.offset + i}: ${what}`);
    };

    while (i < len) {
      const c = chunk[i]!;
      if (this.inString && this.depth === 0) {
        // Inside a top-level string value (a field or a row): only the closing quote and escapes matter.
        if (this.escaped) this.escaped = false;
        else if (c === BACKSLASH) this.escaped = true;
        else if (c === QUOTE) {
          this.inString = false;
          i++;
          this.valueEnd(chunk, valueStart, i);
          valueStart = -1;
          continue;
        } else if (c < 0x20) fail('a control character inside a string');
        i++;
        continue;
      }
      if (this.depth > 0) {
        const end = this.scanNested(chunk, i);
        if (end < 0) {
          i = len;
          break;
        }
        i = end;
        if (this.state === S.RowOrEnd && this.pieces.length === 0) {
          if (batchStart < 0) batchStart = valueStart;
          batchEnd = i;
          this.copyRow(chunk, valueStart, i);
        } else this.valueEnd(chunk, valueStart, i);
        valueStart = -1;
        continue;
      }
      if (this.scalar) {
        if (c === COMMA || c === CLOSE_ARR || c === CLOSE_OBJ || isSpace(c)) {
          this.scalar = false;
          this.valueEnd(chunk, valueStart, i);
          valueStart = -1;
          continue; // the delimiter is read by the state below
        }
        i++;
        continue;
      }
      if (this.state === S.Key) {
        i = this.scanKey(chunk, i);
        continue;
      }
      if (isSpace(c)) {
        i++;
        continue;
      }
      switch (this.state) {
        case S.Start:
          if (c === OPEN_OBJ && this.rowsField !== undefined) this.state = S.KeyOrEnd;
          else if (c === OPEN_ARR && this.rowsField === undefined) {
            this.rowsFound = true;
            this.state = S.RowsStart;
          } else {
            // Not the shape the style expects: keep the body whole and parse it at the end instead.
            this.whole = [Buffer.from(chunk.subarray(i))];
            this.offset += len;
            return;
          }
          break;
        case S.KeyOrEnd:
          if (c === QUOTE) {
            this.state = S.Key;
            this.keyPieces = [];
          } else if (c === CLOSE_OBJ && !this.afterComma) this.state = S.End;
          else fail(`unexpected "${String.fromCharCode(c)}" where a field name was expected`);
          this.afterComma = false;
          break;
        case S.AfterValue:
          if (c === COMMA) {
            this.state = S.KeyOrEnd;
            this.afterComma = true;
          } else if (c === CLOSE_OBJ) this.state = S.End;
          else fail(`unexpected "${String.fromCharCode(c)}" after a field`);
          break;
        case S.Colon:
          if (c !== COLON) fail('expected ":" after a field name');
          this.state = S.Value;
          break;
        case S.Value:
          if (this.key === this.rowsField && c === OPEN_ARR && !this.rowsFound) {
            this.rowsFound = true;
            this.state = S.RowsStart;
            break;
          }
          valueStart = i;
          this.beginValue(c);
          break;
        case S.RowsStart:
        case S.RowOrEnd:
          if (c === CLOSE_ARR) {
            if (this.state === S.RowOrEnd) fail('a trailing "," before "]"');
            this.state = this.rowsField === undefined ? S.End : S.AfterValue;
            break;
          }
          this.state = S.RowOrEnd;
          valueStart = i;
          this.beginValue(c);
          break;
        case S.AfterRow:
          if (c === COMMA) this.state = S.RowOrEnd;
          else if (c === CLOSE_ARR) this.state = this.rowsField === undefined ? S.End : S.AfterValue;
          else fail('expected "," or "]" after a row');
          break;
        case S.End:
          fail('unexpected content after the end of the body');
      }
      i++;
      if (this.state === S.RowsStart && this.fastAllowed) {
        this.fastAllowed = false;
        this.fast = true;
        this.offset += i;
        if (i < len) this.fastPush(chunk.subarray(i));
        return;
      }
    }
    if (batchStart >= 0) this.validateBatch(chunk, batchStart, batchEnd);
    // A value still open at the end of the chunk continues in the next one.
    if (this.inValue() && valueStart >= 0) {
      this.pieces.push(Buffer.from(chunk.subarray(valueStart)));
      this.heldBytes += len - valueStart;
      if (this.heldBytes > MAX_HELD_VALUE_BYTES) {
        throw new MalformedJsonError(`a single value of more than ${MAX_HELD_VALUE_BYTES / 1048576} MiB (a row or a field outside the rows); reading stopped`);
      }
    }
    this.offset += len;
  }

  private afterComma = false;

  /**
   * The hot loop: scans an object or array value from `i` with its state in locals. Returns the index
   * just past its closing bracket, or -1 when the chunk ends first (state kept for the next chunk).
   * Token validity is left to JSON.parse (validateBatch / valueEnd); only structure is tracked here.
   */
  private scanNested(chunk: Buffer, start: number): number {
    let depth = this.depth;
    let inString = this.inString;
    let escaped = this.escaped;
    let hasBreak = this.hasBreak;
    const len = chunk.length;
    let i = start;
    for (; i < len; i++) {
      const c = chunk[i]!;
      if (inString) {
        if (escaped) escaped = false;
        else if (c === BACKSLASH) escaped = true;
        else if (c === QUOTE) inString = false;
      } else if (c === QUOTE) inString = true;
      else if (c === OPEN_OBJ || c === OPEN_ARR) depth++;
      else if (c === CLOSE_OBJ || c === CLOSE_ARR) {
        if (--depth === 0) {
          i++;
          break;
        }
      } else if (c === NEWLINE || c === RETURN) hasBreak = true;
    }
    this.depth = depth;
    this.inString = inString;
    this.escaped = escaped;
    this.hasBreak = hasBreak;
    return depth === 0 ? i : -1;
  }

  private inValue(): boolean {
    return this.depth > 0 || this.inString || this.scalar;
  }

  /** Ends the body: throws when it is incomplete. */
  end(): SplitResult {
    if (this.whole) {
      const text = Buffer.concat(this.whole).toString('utf8');
      try {
        return { fields: {}, rowCount: 0, rowsFound: false, value: JSON.parse(text) as unknown };
      } catch (error) {
        throw new MalformedJsonError(`malformed JSON: ${(error as Error).message}`);
      }
    }
    if (this.fast) this.fallback(this.carry);
    if (this.state !== S.End || this.inValue()) throw new MalformedJsonError(`malformed JSON: the body ends early (after ${this.offset} bytes)`);
    return { fields: this.fields, rowCount: this.rowCount, rowsFound: this.rowsFound };
  }

  private beginValue(c: number): void {
    this.pieces = [];
    this.heldBytes = 0;
    this.hasBreak = false;
    this.depth = 0;
    this.inString = false;
    this.scalar = false;
    if (c === OPEN_OBJ || c === OPEN_ARR) this.depth = 1;
    else if (c === QUOTE) this.inString = true;
    else if (c === 0x2d || (c >= 0x30 && c <= 0x39) || c === 0x74 || c === 0x66 || c === 0x6e) this.scalar = true;
    else throw new MalformedJsonError(`malformed JSON at byte ${this.offset}: unexpected "${String.fromCharCode(c)}" where a value was expected`);
  }

  /** Scans a field name from `i`; returns where scanning stopped. */
  private scanKey(chunk: Buffer, i: number): number {
    let j = i;
    while (j < chunk.length) {
      const c = chunk[j]!;
      if (this.escaped) this.escaped = false;
      else if (c === BACKSLASH) this.escaped = true;
      else if (c === QUOTE) {
        this.keyPieces.push(chunk.subarray(i, j));
        const raw = Buffer.concat(this.keyPieces).toString('utf8');
        this.key = raw.includes('\\') ? (JSON.parse(`"${raw}"`) as string) : raw;
        this.keyPieces = [];
        this.state = S.Colon;
        return j + 1;
      }
      j++;
    }
    this.keyPieces.push(Buffer.from(chunk.subarray(i)));
    return j;
  }

  /** A value finished at `end` of this chunk (started at `start`, or in earlier chunks when -1). */
  private valueEnd(chunk: Buffer, start: number, end: number): void {
    const raw = this.pieces.length === 0 ? chunk.subarray(start, end) : Buffer.concat([...this.pieces, chunk.subarray(Math.max(0, start), end)]);
    this.pieces = [];
    if (this.state === S.RowOrEnd) {
      let value: unknown;
      try {
        value = JSON.parse(raw.toString('utf8'));
      } catch (error) {
        throw new MalformedJsonError(`malformed JSON in row ${this.rowCount + 1}: ${(error as Error).message}`);
      }
      if (this.hasBreak) {
        const line = Buffer.from(JSON.stringify(value), 'utf8');
        this.out.append(line, 0, line.length);
        this.out.appendByte(NEWLINE);
      } else {
        this.out.append(raw, 0, raw.length);
        this.out.appendByte(NEWLINE);
      }
      this.rowCount++;
      this.state = S.AfterRow;
      return;
    }
    try {
      this.fields[this.key] = JSON.parse(raw.toString('utf8'));
    } catch (error) {
      throw new MalformedJsonError(`malformed JSON in field "${this.key}": ${(error as Error).message}`);
    }
    this.state = S.AfterValue;
  }

  /** Copies a row that lies wholly in this chunk; validated later with its batch. */
  private copyRow(chunk: Buffer, start: number, end: number): void {
    if (this.hasBreak) {
      const value = JSON.parse(chunk.toString('utf8', start, end)) as unknown;
      const line = Buffer.from(JSON.stringify(value), 'utf8');
      this.out.append(line, 0, line.length);
    } else this.out.append(chunk, start, end);
    this.out.appendByte(NEWLINE);
    this.rowCount++;
    this.state = S.AfterRow;
  }

  /** One JSON.parse over the rows this chunk completed (and their separators). */
  private validateBatch(chunk: Buffer, start: number, end: number): void {
    try {
      JSON.parse(`[${chunk.toString('utf8', start, end)}]`);
    } catch (error) {
      throw new MalformedJsonError(`malformed JSON in the rows near byte ${this.offset + start}: ${(error as Error).message}`);
    }
  }
}
