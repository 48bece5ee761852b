// A push scanner that turns a JSON page body, as its chunks arrive, into NDJSON lines of its rows,
// without building the page as objects. It is how a 100 000-row page goes to disk with flat memory:
// the rows array (a named top-level field, or the top-level array itself) is copied row by row into
// NDJSON bytes; every other top-level field (TableName, Remaining, BatchID...) is kept and parsed.
// This file is the rows and fields; the grammar that finds where they start and end is jsonScanner.ts,
// which keys may name a secret secretKeys.ts. Rows copied in runs, "anywhere" mode: README.md.

import { ERROR_LIST_KEYS, ROWS_SAMPLE } from '../paging/rows';
import { forgetFieldNotHeld, markFieldNotHeld, TOO_LARGE_TO_KEEP } from '../paging/notHeld';
import { firstNonBlank } from '../json/grammar';
import { setOwnField } from '../json/ownField';
import { ByteBlocks } from './byteBlocks';
import { appendCompactRow } from './compactRow';
import { parseField, parseJsonText } from './jsonFault';
import { JsonScanner } from './jsonScanner';
import { LONG_ROW, LongRowParts } from './longRowParts';
import { warmUpOnce } from './splitterWarmUp';
import { MalformedJsonError, RowsFieldTwiceError, type AnywhereOptions, type Lane, type SplitResult } from './splitResult';

export { ByteBlocks, MalformedJsonError };

const NEWLINE = 0x0a, OPEN_OBJ = 0x7b, OPEN_ARR = 0x5b;
/** Ends a number that ends the body (the grammar reads a top-level value itself: jsonScanner valueEnds). */
const BLANK = Buffer.from(' ');
/** Rows go out as they come, but one value (a row, a field) is held whole until it ends: past this, the body is refused. */
const MAX_HELD_VALUE_BYTES = 256 * 1048576;
/** A business words field (AnywhereOptions.wordsKept) is kept up to this; past it, marked not held (the check says so). */
const MAX_KEPT_FIELD_BYTES = 16 * 1048576;

/** What a value that starts at the watched depth is: a row, a top-level field, or nothing kept. */
const enum Held { None, Row, Field, Dropped }

const ERROR_LISTS: ReadonlySet<string> = new Set(ERROR_LIST_KEYS);

export class JsonRowSplitter extends JsonScanner {
  // The first field of its own: the warm-up's splitters give the fields their shapes before this one has any.
  private readonly warmedUp = warmUpOnce((field, out) => new JsonRowSplitter(field, out));
  private readonly fields: Record<string, unknown> = {};
  private rowsFound = false;
  private rowCount = 0;
  /** Set when the body is not of the expected shape: it is kept whole and parsed at the end. */
  private whole: Buffer[] | undefined;
  /** Where in the body the bytes kept whole start. */
  private wholeAt = 0;
  /** The top-level key last read (the field whose value comes next). */
  private key = '';
  /** The brackets opened at depths 1 and 2, `{` or `[`: the body's own, and the last one inside it. */
  private body = 0;
  private second = 0;
  /** Keys inside rows that may name a secret, decoded (see secretKeyCandidates). */
  private readonly candidates = new Set<string>();
  // The value being kept (a row or a field): where it starts in this chunk (-1: in an earlier one), its
  // earlier pieces and their size.
  private held = Held.None;
  private heldStart = -1;
  private heldPieces: Buffer[] = [];
  private heldBytes = 0;
  /** Where a row too long to hold goes in parts, when someone takes them (letLongRowsOut). */
  private long: LongRowParts | undefined;
  // Anywhere mode: the lane being read, every lane, whether rows' bytes are only counted (rowsCounted, an object
  // body's arrays: the rule picks one at the end), the fields' kept bytes, and doubts (Dropped fields).
  private lane: Lane | undefined;
  private readonly allLanes: Lane[] = [];
  private discard: boolean;
  private kept = 0;
  private innerArray = false;
  private uncertain = false;
  private scalar = false;
  private started = false;
  // Whole rows of this chunk not yet copied: [runStart, runEnd), commas between them at `commas`.
  private runStart = -1;
  private runEnd = -1;
  private readonly commas: number[] = [];
  private commaCount = 0;

  /**
   * @param rowsField the top-level field holding the rows, or undefined when the body is the array.
   * @param out where the NDJSON lines go.
   * @param anywhere "anywhere" mode: every array one level down is read as a lane (counted, its rows
   * not copied) and the top-level array's rows go to `out`; the caller asks the rows rule at the end.
   * @param rowsCounted the rows are only counted (nobody reads their bytes): never held, a row of any size costs nothing.
   */
  constructor(private readonly rowsField: string | undefined, private readonly out: ByteBlocks, private readonly anywhere?: AnywhereOptions, rowsCounted = false) {
    super();
    this.discard = rowsCounted;
  }

  /**
   * Every distinct key inside the rows so far (at any depth) that may name a secret, decoded: each key
   * holding all the letters of a word of SECRET_NAME_HINT, an escape or a non-ASCII byte. A key not in
   * this set holds none of those words, so isSecretName is false for it (the redacting sink asks only these).
   */
  get secretKeyCandidates(): ReadonlySet<string> {
    return this.candidates;
  }

  /** From now on a row past LONG_ROW.bytes leaves in parts as it arrives, not held (longRowParts.ts): where they go. */
  letLongRowsOut(): LongRowParts {
    return (this.long ??= new LongRowParts());
  }

  /** Rows written to `out` so far (each one a whole line: `out` never holds part of a row), and the long rows ended. */
  get rowsSoFar(): number {
    return this.rowCount;
  }

  /** Feeds the next chunk of the body. Throws MalformedJsonError as soon as the body cannot be JSON. */
  push(chunk: Buffer): void {
    if (this.whole) this.whole.push(Buffer.from(chunk));
    else if (this.anywhere && !this.started) this.firstChunk(chunk);
    else this.scan(chunk);
  }

  /** Anywhere mode: a body that is a string, number or literal is read by the grammar as it is (not kept; nothing may follow it). */
  private firstChunk(chunk: Buffer): void {
    const c = firstNonBlank(chunk);
    this.started = c !== undefined;
    this.scalar = c !== undefined && c !== OPEN_OBJ && c !== OPEN_ARR;
    this.scan(chunk);
  }

  /** Ends the body: throws when it is incomplete. */
  end(): SplitResult {
    if (this.scalar && !this.complete) {
      // A number at the body's end is complete only once a byte follows it; any other value here ends early.
      const at = this.offset;
      try {
        this.scan(BLANK);
      } catch {
        throw new MalformedJsonError({ endedEarly: true, offset: at });
      }
      this.offset = at;
    }
    if (this.whole) {
      const bytes = Buffer.concat(this.whole);
      try {
        return { fields: {}, rowCount: 0, rowsFound: false, value: parseJsonText(bytes.toString('utf8'), bytes) };
      } catch (error) {
        // Said at its byte in the body (the held bytes start at the body's first value).
        throw error instanceof MalformedJsonError && error.fault ? error.at(this.wholeAt + error.fault.offset) : error;
      }
    }
    if (!this.complete) throw new MalformedJsonError({ endedEarly: true, offset: this.offset });
    if (!this.anywhere) return { fields: this.fields, rowCount: this.rowCount, rowsFound: this.rowsFound };
    const scalar = this.scalar;
    return { fields: this.fields, rowCount: scalar ? 0 : this.rowCount, rowsFound: this.rowsFound && !scalar, lanes: scalar ? [] : this.allLanes, uncertain: this.uncertain, scalar };
  }

  /** The body's first byte: not the shape the style reads rows from ({ with a rows field, or [) keeps it whole, parsed at the end. */
  protected bodyStarts(b: Buffer, i: number, c: number): boolean {
    if (this.anywhere || c === (this.rowsField !== undefined ? OPEN_OBJ : OPEN_ARR)) return true;
    this.whole = [Buffer.from(b.subarray(i))];
    this.wholeAt = this.offset + i;
    return false;
  }

  /** A container opened at `depth` (1 to 3): the body's own, or an array inside a top-level field's object. */
  protected opened(c: number, depth: number): void {
    if (depth === 1) this.openBody(c);
    else if (depth === 2) this.second = c;
    else if (c === OPEN_ARR && this.body === OPEN_OBJ && this.second === OPEN_OBJ) this.innerArray = true;
  }

  /** The body's own bracket: an array body is the rows; an object body's top-level fields are watched. */
  private openBody(c: number): void {
    this.body = c;
    if (c === OPEN_ARR) {
      this.rowsFound = true;
      this.rowsDepth = 1;
      if (this.anywhere) this.openLane('$');
    } else if (this.anywhere) this.discard = true;
    this.watch = 1;
  }

  /** A container closed, leaving `depth` open: the end of the rows array, or of a watched value. */
  protected closed(b: Buffer, end: number, depth: number): void {
    if (depth === this.rowsDepth - 1 && (this.rowsField !== undefined || (this.anywhere && depth === 1))) {
      // The rows array of an object body ends: its fields are watched again.
      this.rowsDepth = -1;
      this.watch = 1;
      this.lane = undefined;
    } else if (depth === this.watch) this.valueEnd(b, end);
  }

  protected fieldKey(key: string): void {
    this.key = key;
  }

  protected rowKey(key: string): void {
    this.candidates.add(key);
  }

  /** A value starts at `i` at the watched depth: a row, a field, or (a field named `rowsField`) the rows array. */
  protected valueStart(b: Buffer, i: number, c: number): void {
    if (this.rowsDepth === this.watch) this.rowStart(c);
    else if (this.anywhere && c === OPEN_ARR && !ERROR_LISTS.has(this.key) && (this.anywhere.lane?.(this.key) ?? true)) {
      // An array one level down: a lane, its items counted, never kept.
      this.rowsBegin();
      this.openLane(this.key);
      return;
    } else if (c === OPEN_ARR && this.key === this.rowsField && !this.rowsFound) {
      this.rowsBegin();
      return;
    } else if (this.rowsFound && this.key === this.rowsField) {
      // JSON.parse would keep the last one; the rows of the first are already out.
      const field = this.key;
      return this.fail(i, (at) => new RowsFieldTwiceError(field, at));
    } else {
      this.held = Held.Field;
      this.innerArray = false;
    }
    this.heldStart = i;
    this.heldPieces = [];
    this.heldBytes = 0;
  }

  /** A row starts with `c`: held, and counted in its lane. */
  private rowStart(c: number): void {
    this.held = Held.Row;
    this.lineBreak = false;
    const lane = this.lane;
    if (!lane) return;
    lane.count++;
    if (lane.sampled < ROWS_SAMPLE) {
      lane.sampled++;
      if (c === OPEN_OBJ) lane.objects++;
    }
  }

  /** The rows array (or a lane) starts one level down: its items are watched. */
  private rowsBegin(): void {
    this.rowsFound = true;
    this.rowsDepth = 2;
    this.watch = 2;
    this.held = Held.None;
  }

  /** The value kept ends just before `end` in this chunk. */
  protected valueEnd(b: Buffer, end: number): void {
    if (this.held === Held.Row) this.rowEnd(b, end);
    else if (this.held === Held.Field) this.fieldEnd(this.heldValue(b, end));
    else if (this.held === Held.Dropped) {
      if (this.innerArray) this.uncertain = true;
      this.notHeld();
    }
    this.held = Held.None;
  }

  /** A top-level field's bytes, parsed and kept (in anywhere mode, past the budget, only as summarised). */
  private fieldEnd(raw: Buffer): void {
    const anywhere = this.anywhere;
    const past = anywhere !== undefined && !anywhere.alwaysKept.has(this.key) && (this.kept += raw.length) > anywhere.keptBytes;
    // Past the budget, bytes without a `[` hold no array, so nothing a summary keeps: not parsed (validated already).
    const value = past && (!anywhere.summarise || !raw.includes(OPEN_ARR)) ? undefined : parseField(raw, this.key);
    const kept = past && value !== undefined ? anywhere.summarise?.(value) : value;
    if (kept !== undefined) this.define(this.key, kept);
    else this.notHeld();
  }

  /**
   * The field just read is not held: named when a check reads it by name or an earlier copy was kept, else
   * maybe only counted. JSON.parse keeps a key's last copy: an earlier one kept (a field, or a lane's place,
   * whose rows the rule would then pick) gives way to the word, so no rule reads the copy the body replaced.
   */
  private notHeld(): void {
    const key = this.key, anywhere = this.anywhere;
    const earlier = Object.hasOwn(this.fields, key), always = anywhere?.alwaysKept.has(key) === true;
    markFieldNotHeld(this.fields, key, earlier || always || anywhere?.named?.has(key) === true);
    if (earlier || always) setOwnField(this.fields, key, TOO_LARGE_TO_KEEP);
  }

  /** Set as JSON.parse sets it, its not-held mark forgotten. */
  private define(key: string, value: unknown): void {
    forgetFieldNotHeld(this.fields, key);
    // A field named "__proto__" an own field too (ownField.ts).
    setOwnField(this.fields, key, value);
  }

  /**
   * Anywhere mode: an array starts at `path`; its placeholder takes the key's place in the fields, handed
   * to `laneOpened` when the caller keeps the lanes (else listed in the result), and costs the budget.
   */
  private openLane(path: string): void {
    const lane: Lane = { path, count: 0, sampled: 0, objects: 0, items: [] };
    this.lane = lane;
    const opened = this.anywhere?.laneOpened;
    if (path === '$' || !opened) this.allLanes.push(lane);
    if (path === '$') return;
    // Past the budget the caller sets it only if the rule keeps it (keepLane): most such arrays go at once.
    if (!opened || !this.pastBudget) this.define(path, lane.items);
    opened?.(lane.items);
  }

  /** Anywhere mode: the array at the top-level `key` (placeholder `items`) is kept past the budget: set as JSON.parse sets it. */
  keepLane(key: string, items: unknown[]): void {
    if (!Object.hasOwn(this.fields, key) || this.fields[key] !== items) this.define(key, items);
  }

  /** Anywhere mode: `bytes` more held for the skeleton besides its fields (a lane's record). */
  chargeLane(bytes: number): void {
    this.kept += bytes;
  }

  /** Anywhere mode: the skeleton holds more than its budget (fields past it are summarised or not held). */
  get pastBudget(): boolean {
    return this.anywhere !== undefined && this.kept > this.anywhere.keptBytes;
  }

  /**
   * Anywhere mode: the array at the top-level `key` whose placeholder is `items` is let go (the rule can
   * never pick it): no longer in the fields, noted as a field not held (counted past the first names).
   */
  forgetLane(key: string, items: unknown[]): void {
    if (Object.hasOwn(this.fields, key)) {
      // Another copy of the key stands there (JSON.parse keeps the last): not this array's place.
      if (this.fields[key] !== items) return;
      delete this.fields[key];
    }
    const anywhere = this.anywhere;
    markFieldNotHeld(this.fields, key, anywhere?.alwaysKept.has(key) === true || anywhere?.named?.has(key) === true);
  }

  private heldValue(b: Buffer, end: number): Buffer {
    if (this.heldStart >= 0) return b.subarray(this.heldStart, end);
    const raw = Buffer.concat([...this.heldPieces, b.subarray(0, end)]);
    this.heldPieces = [];
    return raw;
  }

  private rowEnd(b: Buffer, end: number): void {
    this.rowCount++;
    if (this.discard) return void (this.heldPieces = []);
    if (this.long?.active) return this.long.end(Buffer.from(b.subarray(0, end)), this.out.take(), this.rowCount - 1);
    if (this.heldStart >= 0 && !this.lineBreak) {
      // A row of this chunk: it joins the run when only its comma separates it from the run.
      if (this.runStart >= 0 && this.heldStart === this.runEnd + 1) this.commas[this.commaCount++] = this.runEnd;
      else {
        this.flushRun(b);
        this.runStart = this.heldStart;
      }
      this.runEnd = end;
      return;
    }
    this.flushRun(b);
    const tail = b.subarray(Math.max(0, this.heldStart), end);
    // Pretty-printed: one line again, every byte but the blanks between tokens as it came (compactRow.ts).
    if (this.lineBreak) appendCompactRow(this.out, [...this.heldPieces, Buffer.from(tail)]);
    else {
      // A row begun in an earlier chunk: its pieces (copies of their own) go out unjoined, so it is held once.
      for (const piece of this.heldPieces) this.out.pushSlice(piece);
      this.out.append(tail, 0, tail.length);
    }
    this.heldPieces = [];
    this.out.appendByte(NEWLINE);
  }

  /** Copies the run of whole rows, each comma between them made a line break. */
  private flushRun(b: Buffer): void {
    if (this.runStart < 0) return;
    this.out.appendRun(b, this.runStart, this.runEnd, this.commas, this.commaCount, NEWLINE);
    this.out.appendByte(NEWLINE);
    this.runStart = -1;
    this.commaCount = 0;
  }

  /** The body is refused: the whole rows before the fault go out (`out` ends at a row's end). */
  protected beforeFault(b: Buffer): void {
    this.flushRun(b);
  }

  /** The chunk ends: whole rows are copied out; a row or field still open keeps its bytes. */
  protected chunkEnds(b: Buffer): void {
    this.flushRun(b);
    if (this.held === Held.Row && this.discard) this.heldStart = -1;
    else if (this.held === Held.Row || this.held === Held.Field) this.keepHeld(b);
  }

  /** The bytes of the row or field still open go on to the next chunk, within their bounds. */
  private keepHeld(b: Buffer): void {
    const piece = Buffer.from(b.subarray(Math.max(0, this.heldStart)));
    this.heldStart = -1;
    if (this.long?.active) return this.long.add(piece);
    this.heldPieces.push(piece);
    this.heldBytes += piece.length;
    const anywhere = this.anywhere;
    if (anywhere && this.held === Held.Field && this.heldBytes > anywhere.fieldBytes && !(anywhere.alwaysKept.has(this.key) && this.heldBytes <= (anywhere.wordsKept?.has(this.key) ? MAX_KEPT_FIELD_BYTES : MAX_HELD_VALUE_BYTES))) {
      // Too large to keep: read on, kept nowhere (see valueEnd).
      this.held = Held.Dropped;
      this.heldPieces = [];
      return;
    }
    if (this.held === Held.Row && this.long && this.heldBytes > LONG_ROW.bytes) {
      this.long.begin(this.heldPieces);
      this.heldPieces = [];
      return;
    }
    if (this.heldBytes > MAX_HELD_VALUE_BYTES) throw new MalformedJsonError(`a single value of more than ${MAX_HELD_VALUE_BYTES / 1048576} MiB (a row or a field outside the rows); reading stopped`);
  }
}
