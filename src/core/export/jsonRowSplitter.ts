// A push scanner that turns a JSON page body, as its chunks arrive, into NDJSON lines of its rows,
// without building the page as objects. It is how a 100 000-row page goes to disk with flat memory:
// the rows array (a named top-level field, or the top-level array itself) is copied row by row into
// NDJSON bytes; every other top-level field (TableName, Remaining, BatchID...) is kept and parsed.
// Validation (one pass, the grammar JSON.parse accepts), speed, rows copied in runs, "anywhere" mode: README.md.

import { ERROR_LIST_KEYS, ROWS_SAMPLE } from '../paging/rows';
import { firstNonBlank, firstStop, HEX, LITERAL_HEADS, LITERALS, ONE_BYTE, SHORT_ESCAPES, stringStops } from '../json/grammar';
import { mayHoldSecretWord, wordLetters } from './secretKeys';
import { warmUpOnce } from './splitterWarmUp';
import { MalformedJsonError, type AnywhereOptions, type Lane, type SplitResult } from './splitResult';

export { MalformedJsonError };
import { ByteBlocks } from './byteBlocks';

export { ByteBlocks };

/** Grammar states: what the next byte may be (Str: in a string value, KeyStr: in a key). */
const enum G {
  Value, ArrayFirst, ObjectFirst, Key, Colon, After, Done,
  Str, KeyStr, Esc, Hex,
  Minus, Zero, Int, Dot, Frac, Exp, ExpSign, ExpInt,
  Lit,
}

const QUOTE = 0x22, BACKSLASH = 0x5c, COMMA = 0x2c, COLON = 0x3a, NEWLINE = 0x0a, RETURN = 0x0d, SPACE = 0x20, TAB = 0x09;
const OPEN_OBJ = 0x7b, CLOSE_OBJ = 0x7d, OPEN_ARR = 0x5b, CLOSE_ARR = 0x5d, MINUS = 0x2d, PLUS = 0x2b, DOT = 0x2e;
const ZERO = 0x30, NINE = 0x39;
const OPEN_BRACKET = Buffer.from('['), CLOSE_BRACKET = Buffer.from(']');
const IN_OBJECT = 1, IN_ARRAY = 2;
/** The state a value's first byte leads to (0, which is G.Value, for a byte no value starts with). */
const VALUE_START = new Uint8Array(256);
VALUE_START[OPEN_OBJ] = G.ObjectFirst;
VALUE_START[OPEN_ARR] = G.ArrayFirst;
VALUE_START[QUOTE] = G.Str;
VALUE_START[MINUS] = G.Minus;
VALUE_START[ZERO] = G.Zero;
for (let d = ZERO + 1; d <= NINE; d++) VALUE_START[d] = G.Int;
for (const c of 'tfn') VALUE_START[c.charCodeAt(0)] = G.Lit;
/**
 * Rows go out as they come, so a body may be larger than any memory limit; but one value is held whole
 * until it ends (a row, or a field such as TableName): past this size the body is refused.
 */
const MAX_HELD_VALUE_BYTES = 256 * 1048576;

/** What a value that starts at the watched depth is: a row, a top-level field, or nothing kept. */
const enum Held { None, Row, Field, Dropped }

const ERROR_LISTS: ReadonlySet<string> = new Set(ERROR_LIST_KEYS);

export class JsonRowSplitter {
  // The first field: the warm-up's splitters give the fields their shapes before this one has any.
  private readonly warmedUp = warmUpOnce((field, out) => new JsonRowSplitter(field, out));
  private offset = 0; // bytes consumed before the current chunk, for messages
  private readonly fields: Record<string, unknown> = {};
  private rowsFound = false;
  private rowCount = 0;
  /** Set when the body is not of the expected shape: it is kept whole and parsed at the end. */
  private whole: Buffer[] | undefined;

  // The grammar: state, open containers (IN_OBJECT / IN_ARRAY by depth), the string and literal in progress.
  private state = G.Value;
  private stack = new Uint8Array(64);
  private depth = 0;
  private isKey = false; // whether the escape being read (Esc, Hex) is in a key
  private hexLeft = 0;
  private literal: Buffer = LITERALS[0x74]!;
  private literalAt = 0;

  // Where the values of interest are: `watch` is the depth whose values are rows (inside the rows
  // array) or top-level fields (depth 1 of an object body); -1 when neither.
  private watch = -1;
  private rowsDepth = -1;
  private key = '';
  private keyPieces: Buffer[] | undefined; // the key being read, when it spans chunks
  private keyStart = -1;
  private keyLetters = 0;
  private keyWide = 0;
  private keyEscaped = false;
  /** Keys inside rows that may name a secret, decoded (see secretKeyCandidates). */
  private readonly candidates = new Set<string>();
  private readonly plainLetters = new Int32Array(64); // see mayHoldSecretWord
  // The value being kept (a row or a field): where it starts in this chunk (-1: in an earlier one), its
  // earlier pieces, and whether a row holds a raw line break.
  private held = Held.None;
  private heldStart = -1;
  private heldPieces: Buffer[] = [];
  private heldBytes = 0;
  private rowBreak = false;
  // Anywhere mode: the lane being read, every lane, whether rows' bytes are only counted (an object
  // body's arrays: the rule picks one at the end), the fields' kept bytes, and doubts (Dropped fields).
  private lane: Lane | undefined;
  private readonly allLanes: Lane[] = [];
  private discard = false;
  private kept = 0;
  private innerArray = false;
  private uncertain = false;
  private scalar = false;
  private started = false;
  /** The chunk being scanned (a fault copies its whole rows out first). */
  private chunk: Buffer | undefined;
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
   */
  constructor(private readonly rowsField: string | undefined, private readonly out: ByteBlocks, private readonly anywhere?: AnywhereOptions) {}

  /**
   * Every distinct key inside the rows so far (at any depth) that may name a secret, decoded: each key
   * holding all the letters of a word of SECRET_NAME_HINT, an escape or a non-ASCII byte. A key not in
   * this set holds none of those words, so isSecretName is false for it (the redacting sink asks only these).
   */
  get secretKeyCandidates(): ReadonlySet<string> {
    return this.candidates;
  }

  /** Rows written to `out` so far (each one a whole line: `out` never holds part of a row). */
  get rowsSoFar(): number {
    return this.rowCount;
  }

  /** Feeds the next chunk of the body. Throws MalformedJsonError as soon as the body cannot be JSON. */
  push(chunk: Buffer): void {
    if (this.whole) this.whole.push(Buffer.from(chunk));
    else if (this.anywhere && !this.started) this.firstChunk(chunk);
    else this.scan(chunk);
  }

  /** Anywhere mode: a body that is a string, number or literal is read as the one item of an array (not kept). */
  private firstChunk(chunk: Buffer): void {
    const c = firstNonBlank(chunk);
    this.started = c !== undefined;
    if (c !== undefined && c !== OPEN_OBJ && c !== OPEN_ARR) {
      this.scalar = true;
      this.discard = true;
      this.scan(OPEN_BRACKET);
      this.offset = 0;
    }
    this.scan(chunk);
  }

  /** Ends the body: throws when it is incomplete. */
  end(): SplitResult {
    if (this.scalar && this.state !== G.Done) {
      const at = this.offset;
      this.scan(CLOSE_BRACKET);
      this.offset = at;
    }
    if (this.whole) {
      const text = Buffer.concat(this.whole).toString('utf8');
      try {
        return { fields: {}, rowCount: 0, rowsFound: false, value: JSON.parse(text) as unknown };
      } catch (error) {
        throw new MalformedJsonError(`malformed JSON: ${(error as Error).message}`);
      }
    }
    if (this.state !== G.Done) throw new MalformedJsonError(`malformed JSON: the body ends early (after ${this.offset} bytes)`);
    if (this.anywhere) return { fields: this.fields, rowCount: this.scalar ? 0 : this.rowCount, rowsFound: this.rowsFound && !this.scalar, lanes: this.scalar ? [] : this.allLanes, uncertain: this.uncertain, scalar: this.scalar };
    return { fields: this.fields, rowCount: this.rowCount, rowsFound: this.rowsFound };
  }

  private fail(at: number, what: string): never {
    // The whole rows before the fault go out (a run of this chunk not copied yet): `out` ends at a row's end.
    if (this.chunk && this.runStart >= 0) this.flushRun(this.chunk);
    throw new MalformedJsonError(`malformed JSON at byte ${this.offset + at}: ${what}`);
  }

  private unexpected(at: number, c: number, where: string): never {
    const shown = c >= 0x20 && c < 0x7f ? `"${String.fromCharCode(c)}"` : `byte 0x${c.toString(16).padStart(2, '0')}`;
    return this.fail(at, `unexpected ${shown} ${where}`);
  }

  /**
   * The one pass: the grammar, byte by byte, with the rows and fields cut out as their values end.
   * One case per state; a case that ends a token goes on with the next byte when the token is the usual
   * one (`,"` after a value in an object, `":` after a key, `{"` opening an object), the same as one
   * more turn of the loop would. Strings, numbers and literals are read in tight loops of their own.
   * Between tokens, a byte no case takes falls through to the whitespace test, then is an error.
   */
  private scan(b: Buffer): void {
    this.chunk = b;
    const len = b.length;
    const words = new DataView(b.buffer, b.byteOffset, len);
    let state = this.state;
    let depth = this.depth;
    // The key being read: its letters (wordLetters) and its bytes OR-ed (a multi-byte character sets 0x80:
    // such a key is always asked about, since lower-casing can turn a non-ASCII letter into an ASCII one;
    // the Kelvin sign U+212A becomes "k", and "to\u212Aen" reads as "token").
    let letters = this.keyLetters;
    let wide = this.keyWide;
    // The literal being read and how many of its bytes came (locals, like the rest of the state: a path
    // taken only when a chunk ends inside a literal then touches no field, which V8 would see for the first time).
    let literal = this.literal;
    let literalAt = this.literalAt;
    let i = 0;
    bytes: while (i < len) {
      let c = b[i]!;
      switch (state) {
        case G.Str:
          // The hot loop: most of a page is string bytes.
          for (;;) {
            if (i + 4 <= len) {
              const stops = stringStops(words.getInt32(i, true));
              if (stops === 0) {
                i += 4;
                continue;
              }
              i += firstStop(stops);
              c = b[i]!;
              break;
            }
            if (i === len) break bytes;
            c = b[i]!;
            if (stringStops(c | ONE_BYTE) !== 0) break;
            i++;
          }
          i++;
          if (c === QUOTE) {
            state = G.After;
            if (depth === this.watch) this.valueEnd(b, i);
            else if (i + 1 < len && b[i] === COMMA && b[i + 1] === QUOTE && this.stack[depth - 1] === IN_OBJECT) {
              // The usual `","` inside a row: the next key starts at once.
              state = G.KeyStr;
              letters = 0;
              wide = 0;
              i += 2;
              this.keyBegins(i);
            }
          } else if (c === BACKSLASH) {
            state = G.Esc;
            this.isKey = false;
          } else this.fail(i - 1, 'a control character inside a string');
          continue;
        case G.KeyStr:
          // The same loop, gathering the key's letters to tell which keys may name a secret.
          for (;;) {
            if (i + 4 <= len) {
              const v = words.getInt32(i, true);
              const stops = stringStops(v);
              if (stops === 0) {
                letters |= wordLetters(v);
                wide |= v;
                i += 4;
                continue;
              }
              const n = firstStop(stops);
              const head = v & ((1 << (8 * n)) - 1); // the bytes before the stop (0 sets bit 0, no letter)
              letters |= wordLetters(head);
              wide |= head;
              i += n;
              c = b[i]!;
              break;
            }
            if (i === len) break bytes;
            c = b[i]!;
            if (stringStops(c | ONE_BYTE) !== 0) break;
            letters |= 1 << c;
            wide |= c;
            i++;
          }
          if (c === QUOTE) {
            if (depth === 1 && this.watch === 1) this.keyEnd(b, i);
            else if (depth > this.rowsDepth && this.rowsDepth > 0 && (this.keyEscaped || (wide & 0x80808080) !== 0 || mayHoldSecretWord(letters, this.plainLetters))) this.rowKey(b, i);
            i++;
            // The usual `":` read at once, and `":"` inside a row: a string value starts.
            if (i < len && b[i] === COLON) {
              state = G.Value;
              i++;
              if (i < len && b[i] === QUOTE && depth !== this.watch) {
                state = G.Str;
                i++;
              }
            } else state = G.Colon;
          } else if (c === BACKSLASH) {
            state = G.Esc;
            this.isKey = true;
            this.keyEscaped = true;
            i++;
          } else this.fail(i, 'a control character inside a string');
          continue;
        case G.After:
          if (c === COMMA) {
            i++;
            if (this.stack[depth - 1] !== IN_OBJECT) state = G.Value;
            else if (i < len && b[i] === QUOTE) {
              // The usual `,"`: the next key starts at once.
              state = G.KeyStr;
              letters = 0;
              wide = 0;
              this.keyBegins(++i);
            } else state = G.Key;
            continue;
          }
          if (c === CLOSE_OBJ || c === CLOSE_ARR) {
            depth = this.close(b, i, c, depth);
            state = depth === 0 ? G.Done : G.After;
            i++;
            continue;
          }
          break;
        case G.Colon:
          if (c === COLON) {
            state = G.Value;
            i++;
            continue;
          }
          break;
        case G.Key:
        case G.ObjectFirst:
          if (c === QUOTE) {
            state = G.KeyStr;
            letters = 0;
            wide = 0;
            this.keyBegins(++i);
            continue;
          }
          if (c === CLOSE_OBJ && state === G.ObjectFirst) {
            depth = this.close(b, i, c, depth);
            state = depth === 0 ? G.Done : G.After;
            i++;
            continue;
          }
          break;
        case G.Value:
        case G.ArrayFirst: {
          const next = VALUE_START[c]!;
          if (next === 0) {
            if (c === CLOSE_ARR && state === G.ArrayFirst) {
              depth = this.close(b, i, c, depth);
              state = depth === 0 ? G.Done : G.After;
              i++;
              continue;
            }
            break;
          }
          if (depth === 0 && !this.shapeExpected(c)) {
            // Not the shape the style expects: keep the body whole and parse it at the end instead.
            this.whole = [Buffer.from(b.subarray(i))];
            this.offset += len;
            return;
          }
          if (depth === this.watch) this.valueStart(b, i, c);
          state = next;
          i++;
          if (next === G.ObjectFirst || next === G.ArrayFirst) {
            if (depth === this.stack.length) {
              const grown = new Uint8Array(this.stack.length * 2);
              grown.set(this.stack);
              this.stack = grown;
            }
            this.stack[depth++] = next === G.ObjectFirst ? IN_OBJECT : IN_ARRAY;
            if (depth < 4) this.opened(c, depth);
            if (next === G.ObjectFirst && i < len && b[i] === QUOTE) {
              // The usual `{"`: the first key starts at once.
              state = G.KeyStr;
              letters = 0;
              wide = 0;
              this.keyBegins(++i);
            }
          } else if (next === G.Lit) {
            literal = LITERALS[c]!;
            const end = i - 1 + literal.length;
            if (end <= len && words.getInt32(i - 1, true) === LITERAL_HEADS[c] && b[end - 1] === literal[literal.length - 1]) {
              // The whole literal in this chunk: its first four bytes as one word, and its last byte.
              i = end;
              state = G.After;
              if (depth === this.watch) this.valueEnd(b, i);
            } else literalAt = 1;
          }
          continue;
        }
        case G.Done:
          break;
        case G.Int:
        case G.Frac:
        case G.ExpInt:
          while (c >= ZERO && c <= NINE) {
            if (++i === len) break bytes;
            c = b[i]!;
          }
          if (c === DOT && state === G.Int) {
            state = G.Dot;
            i++;
          } else if ((c === 0x65 || c === 0x45) && state !== G.ExpInt) {
            state = G.Exp;
            i++;
          } else {
            // The number ends before this byte, which is read again as what follows a value.
            state = G.After;
            if (depth === this.watch) this.valueEnd(b, i);
          }
          continue;
        case G.Zero:
          if (c === DOT) {
            state = G.Dot;
            i++;
          } else if (c === 0x65 || c === 0x45) {
            state = G.Exp;
            i++;
          } else if (c >= ZERO && c <= NINE) this.fail(i, 'a number with a leading zero');
          else {
            state = G.After;
            if (depth === this.watch) this.valueEnd(b, i);
          }
          continue;
        case G.Minus:
          if (c === ZERO) state = G.Zero;
          else if (c > ZERO && c <= NINE) state = G.Int;
          else this.unexpected(i, c, 'after "-"');
          i++;
          continue;
        case G.Dot:
          if (c < ZERO || c > NINE) this.unexpected(i, c, 'where a digit after "." was expected');
          state = G.Frac;
          i++;
          continue;
        case G.Exp:
          if (c === PLUS || c === MINUS) state = G.ExpSign;
          else if (c >= ZERO && c <= NINE) state = G.ExpInt;
          else this.unexpected(i, c, 'in an exponent');
          i++;
          continue;
        case G.ExpSign:
          if (c < ZERO || c > NINE) this.unexpected(i, c, 'where an exponent digit was expected');
          state = G.ExpInt;
          i++;
          continue;
        case G.Lit: {
          while (literalAt < literal.length) {
            if (i === len) break bytes;
            if (b[i] !== literal[literalAt]) this.unexpected(i, b[i]!, `in "${literal.toString('latin1')}"`);
            i++;
            literalAt++;
          }
          state = G.After;
          if (depth === this.watch) this.valueEnd(b, i);
          continue;
        }
        case G.Esc:
          if (c === 0x75) {
            state = G.Hex;
            this.hexLeft = 4;
          } else if (SHORT_ESCAPES[c] === 1) state = this.isKey ? G.KeyStr : G.Str;
          else this.unexpected(i, c, 'after a backslash in a string');
          i++;
          continue;
        case G.Hex:
          if (HEX[c] !== 1) this.unexpected(i, c, 'in a \\u escape');
          if (--this.hexLeft === 0) state = this.isKey ? G.KeyStr : G.Str;
          i++;
          continue;
      }
      // Between tokens, a byte no case took: whitespace, or not JSON.
      if (c === SPACE || c === NEWLINE || c === RETURN || c === TAB) {
        // A line break inside a row: the row is re-serialised onto one line.
        if (c !== SPACE && c !== TAB && depth > this.watch) this.rowBreak = true;
        i++;
        continue;
      }
      this.unexpectedBetween(i, c, state, depth);
    }
    this.state = state;
    this.depth = depth;
    this.keyLetters = letters;
    this.keyWide = wide;
    this.literal = literal;
    this.literalAt = literalAt;
    this.endOfChunk(b);
    this.offset += len;
  }

  /** A key's first byte is at `i` (its letters start empty in the caller). */
  private keyBegins(i: number): void {
    this.keyStart = i;
    this.keyPieces = undefined;
    this.keyEscaped = false;
  }

  /** The words for a byte that cannot come where it is, between tokens. */
  private unexpectedBetween(i: number, c: number, state: G, depth: number): never {
    if (state === G.Done) return this.fail(i, 'unexpected content after the end of the body');
    const where = state === G.After ? (this.stack[depth - 1] === IN_OBJECT ? 'after a field\'s value' : 'after a value in an array')
      : state === G.Colon ? 'where ":" after a field name was expected'
        : state === G.Key || state === G.ObjectFirst ? 'where a field name was expected' : 'where a value was expected';
    return this.unexpected(i, c, where);
  }

  /** Whether the body's first byte is the shape the style reads rows from ({ with a rows field, or [). */
  private shapeExpected(c: number): boolean {
    if (this.anywhere) return true;
    return this.rowsField !== undefined ? c === OPEN_OBJ : c === OPEN_ARR;
  }

  /** A container opened at `depth` (1 to 3): the body's own, or an array inside a top-level field's object. */
  private opened(c: number, depth: number): void {
    if (depth === 1) this.openBody(c);
    else if (depth === 3 && c === OPEN_ARR && this.stack[1] === IN_OBJECT && this.stack[0] === IN_OBJECT) this.innerArray = true;
  }

  /** The body's own bracket: an array body is the rows; an object body's top-level fields are watched. */
  private openBody(c: number): void {
    if (c === OPEN_ARR) {
      this.rowsFound = true;
      this.rowsDepth = 1;
      if (this.anywhere && !this.scalar) this.openLane('$');
    } else if (this.anywhere) this.discard = true;
    this.watch = 1;
  }

  /** A closing bracket at `i`: it must match the open container. Returns the new depth. */
  private close(b: Buffer, i: number, c: number, depth: number): number {
    const open = this.stack[depth - 1];
    if ((c === CLOSE_OBJ) !== (open === IN_OBJECT)) this.unexpected(i, c, `closing ${open === IN_OBJECT ? 'an object' : 'an array'}`);
    depth--;
    if (depth === this.rowsDepth - 1 && (this.rowsField !== undefined || (this.anywhere && depth === 1))) {
      // The rows array of an object body ends: its fields are watched again.
      this.rowsDepth = -1;
      this.watch = 1;
      this.lane = undefined;
    } else if (depth === this.watch) this.valueEnd(b, i + 1);
    return depth;
  }

  /** A value starts at `i` at the watched depth: a row, a field, or (a field named `rowsField`) the rows array. */
  private valueStart(b: Buffer, i: number, c: number): void {
    if (this.rowsDepth === this.watch) {
      this.held = Held.Row;
      this.rowBreak = false;
      const lane = this.lane;
      if (lane) {
        lane.count++;
        if (lane.sampled < ROWS_SAMPLE) {
          lane.sampled++;
          if (c === OPEN_OBJ) lane.objects++;
        }
      }
    } else if (this.anywhere && c === OPEN_ARR && !ERROR_LISTS.has(this.key)) {
      // An array one level down: a lane, its items counted, never kept.
      this.rowsFound = true;
      this.rowsDepth = 2;
      this.watch = 2;
      this.held = Held.None;
      this.openLane(this.key);
      return;
    } else if (c === OPEN_ARR && this.key === this.rowsField && !this.rowsFound) {
      this.rowsFound = true;
      this.rowsDepth = 2;
      this.watch = 2;
      this.held = Held.None;
      return;
    } else if (this.rowsFound && this.key === this.rowsField) {
      // JSON.parse would keep the last one; the rows of the first are already out.
      return this.fail(i, `the rows field "${this.key}" appears twice`);
    } else {
      this.held = Held.Field;
      this.innerArray = false;
    }
    this.heldStart = i;
    this.heldPieces = [];
    this.heldBytes = 0;
  }

  /** The value kept ends just before `end` in this chunk. */
  private valueEnd(b: Buffer, end: number): void {
    if (this.held === Held.Row) this.rowEnd(b, end);
    else if (this.held === Held.Field) {
      const raw = this.heldValue(b, end);
      let value: unknown;
      try {
        value = JSON.parse(raw.toString('utf8'));
      } catch (error) {
        throw new MalformedJsonError(`malformed JSON in field "${this.key}": ${(error as Error).message}`);
      }
      const anywhere = this.anywhere;
      if (anywhere && !anywhere.alwaysKept.has(this.key) && (this.kept += raw.length) > anywhere.keptBytes) value = anywhere.summarise(value);
      if (value !== undefined) this.define(this.key, value);
    } else if (this.held === Held.Dropped) {
      if (this.innerArray) this.uncertain = true;
      if (this.anywhere?.alwaysKept.has(this.key)) this.define(this.key, '(a value too large to keep)');
    }
    this.held = Held.None;
  }

  /** Defined, not assigned: a field named "__proto__" is an own field, as JSON.parse makes it. */
  private define(key: string, value: unknown): void {
    Object.defineProperty(this.fields, key, { value, enumerable: true, writable: true, configurable: true });
  }

  /** Anywhere mode: an array starts at `path`; its placeholder takes the key's place in the fields. */
  private openLane(path: string): void {
    const lane: Lane = { path, count: 0, sampled: 0, objects: 0, items: [] };
    this.lane = lane;
    this.allLanes.push(lane);
    if (path !== '$') this.define(path, lane.items);
  }

  private heldValue(b: Buffer, end: number): Buffer {
    if (this.heldStart >= 0) return b.subarray(this.heldStart, end);
    const raw = Buffer.concat([...this.heldPieces, b.subarray(0, end)]);
    this.heldPieces = [];
    return raw;
  }

  private rowEnd(b: Buffer, end: number): void {
    this.rowCount++;
    if (this.discard) {
      // A body that is one value (read as an array of it) has nothing after it.
      if (this.scalar && this.rowCount > 1) this.fail(this.heldStart, 'unexpected content after the end of the body');
      this.heldPieces = [];
      return;
    }
    if (this.heldStart >= 0 && !this.rowBreak) {
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
    const raw = this.heldValue(b, end);
    if (this.rowBreak) {
      // Pretty-printed: one line again (the bytes were validated; the parse only re-reads them).
      const line = Buffer.from(JSON.stringify(JSON.parse(raw.toString('utf8'))), 'utf8');
      this.out.append(line, 0, line.length);
    } else this.out.append(raw, 0, raw.length);
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

  /** A top-level key ends at the quote at `i`. */
  private keyEnd(b: Buffer, i: number): void {
    this.key = this.keyText(b, i);
  }

  /** A key inside the rows that may name a secret ends at the quote at `i`. */
  private rowKey(b: Buffer, i: number): void {
    this.candidates.add(this.keyText(b, i));
  }

  /** The key ending at the quote at `i`, decoded (validated already). */
  private keyText(b: Buffer, i: number): string {
    const raw = this.keyPieces ? Buffer.concat([...this.keyPieces, b.subarray(0, i)]) : b.subarray(this.keyStart, i);
    this.keyPieces = undefined;
    this.keyStart = -1;
    return raw.includes(BACKSLASH) ? (JSON.parse(`"${raw.toString('utf8')}"`) as string) : raw.toString('utf8');
  }

  /** The chunk ends: whole rows are copied out; a row, field or key still open keeps its bytes. */
  private endOfChunk(b: Buffer): void {
    this.flushRun(b);
    if (this.state === G.KeyStr || ((this.state === G.Esc || this.state === G.Hex) && this.isKey)) {
      const from = this.keyPieces ? 0 : this.keyStart;
      (this.keyPieces ??= []).push(Buffer.from(b.subarray(from)));
    }
    if (this.held === Held.Row && this.discard) this.heldStart = -1;
    else if (this.held !== Held.None && this.held !== Held.Dropped) {
      const from = Math.max(0, this.heldStart);
      this.heldPieces.push(Buffer.from(b.subarray(from)));
      this.heldBytes += b.length - from;
      this.heldStart = -1;
      const anywhere = this.anywhere;
      if (anywhere && this.held === Held.Field && this.heldBytes > anywhere.fieldBytes && !(anywhere.alwaysKept.has(this.key) && this.heldBytes <= MAX_HELD_VALUE_BYTES)) {
        // Too large to keep: read on, kept nowhere (see valueEnd).
        this.held = Held.Dropped;
        this.heldPieces = [];
        return;
      }
      if (this.heldBytes > MAX_HELD_VALUE_BYTES) {
        throw new MalformedJsonError(`a single value of more than ${MAX_HELD_VALUE_BYTES / 1048576} MiB (a row or a field outside the rows); reading stopped`);
      }
    }
  }
}
