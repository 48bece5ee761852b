// A push scanner that turns a JSON page body, as its chunks arrive, into NDJSON lines of its rows,
// without building the page as objects. It is how a 100 000-row page goes to disk with flat memory:
// the rows array (a named top-level field, or the top-level array itself) is copied row by row into
// NDJSON bytes; every other top-level field (TableName, Remaining, BatchID...) is kept and parsed.
// Validation: ONE pass over the bytes checks the whole body against the JSON grammar (RFC 8259, the
// grammar JSON.parse accepts: strings, escapes, numbers, literals, nesting, separators), with its state
// carried across chunk boundaries, so nothing is copied or parsed twice to validate it: a malformed
// page is rejected where JSON.parse would reject it. test/paging/jsonRowSplitter.test.ts holds this
// scanner to JSON.parse on a corpus of valid and broken bodies, cut at every byte.
// Speed (bench/scannerRate.ts): strings, most of a page, are read four bytes at a time (stringStops
// flags the bytes that end a run: the same rule as byte by byte, which the chunk's last bytes use), and
// the usual sequences (`":"`, `","`, `{"`, a whole literal) go on at once instead of one turn per byte.
// Rows go out as their own bytes (a comma between rows becomes the line break), copied in runs; a row
// holding a raw line break (pretty-printed JSON) is re-serialised, so each row stays one line.

import { SECRET_NAME_HINT } from '../secrets/vocabulary';
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
const IN_OBJECT = 1, IN_ARRAY = 2;
/** The literal a value's first byte starts, by that byte (an array: an object with number keys is a slow dictionary). */
const LITERALS: Buffer[] = Array.from({ length: 256 }, () => Buffer.alloc(0));
/** The first four bytes of each literal as one word (little-endian, as a DataView reads them), by its first byte. */
const LITERAL_HEADS = new Int32Array(256);
for (const word of ['true', 'false', 'null']) {
  LITERALS[word.charCodeAt(0)] = Buffer.from(word);
  LITERAL_HEADS[word.charCodeAt(0)] = Buffer.from(word).readInt32LE(0);
}
/** The bytes a short escape may name after a backslash: " \ / b f n r t (u is handled apart). */
const SHORT_ESCAPES = new Uint8Array(256);
for (const c of '"\\/bfnrt') SHORT_ESCAPES[c.charCodeAt(0)] = 1;
/** The state a value's first byte leads to (0, which is G.Value, for a byte no value starts with). */
const VALUE_START = new Uint8Array(256);
VALUE_START[OPEN_OBJ] = G.ObjectFirst;
VALUE_START[OPEN_ARR] = G.ArrayFirst;
VALUE_START[QUOTE] = G.Str;
VALUE_START[MINUS] = G.Minus;
VALUE_START[ZERO] = G.Zero;
for (let d = ZERO + 1; d <= NINE; d++) VALUE_START[d] = G.Int;
for (const c of 'tfn') VALUE_START[c.charCodeAt(0)] = G.Lit;
const HEX = new Uint8Array(256);
for (const c of '0123456789abcdefABCDEF') HEX[c.charCodeAt(0)] = 1;

// Strings are read four bytes at a time: `v` holds four bytes of the body (little-endian, the first in
// the low byte), and a few integer operations flag those that end a run of plain string bytes.

/**
 * The 0x80 bit of each byte of `v` that is `"`, `\` or a control character (< 0x20): 0 when all four
 * stand for themselves in a string (0x7f and every byte from 0x80 do, as in JSON.parse). A borrow may
 * also flag a byte above a flagged one, so only the lowest flag is sure, and only it is used.
 */
function stringStops(v: number): number {
  const quote = v ^ 0x22222222;
  const backslash = v ^ 0x5c5c5c5c;
  return (((quote - 0x01010101) & ~quote) | ((backslash - 0x01010101) & ~backslash) | ((v - 0x20202020) & ~v)) & 0x80808080;
}
/** Which byte (0 to 3) of a word the lowest flag of a non-zero stringStops mask is on. */
function firstStop(stops: number): number {
  return (31 - Math.clz32(stops & -stops)) >> 3;
}
/** One byte `c` as a word (`c | ONE_BYTE`) whose other bytes stop nothing: the last bytes of a chunk. */
const ONE_BYTE = 0x41414100;

/**
 * A key's letters as a bit set: each byte sets bit (byte & 31), which is the same for a letter in
 * either case (a: 1 ... z: 26). Other ASCII bytes set a bit too, so the set may say more than the
 * letters, never less: it only tells which keys cannot hold a secret word.
 */
function wordLetters(v: number): number {
  return (1 << v) | (1 << (v >>> 8)) | (1 << (v >>> 16)) | (1 << (v >>> 24)); // a shift counts its low 5 bits
}
/** The letters of each word that may name a secret (SECRET_NAME_HINT, plain words joined by |). */
const SECRET_WORD_LETTERS = Int32Array.from(SECRET_NAME_HINT.source.split('|'), (word) => {
  if (!/^[a-z]+$/.test(word)) throw new Error('SECRET_NAME_HINT must be plain lower-case words joined by |');
  let bits = 0;
  for (const c of word) bits |= 1 << c.charCodeAt(0);
  return bits;
});

/**
 * Rows go out as they come, so a body may be larger than any memory limit; but one value is held whole
 * until it ends (a row, or a field such as TableName): past this size the body is refused.
 */
const MAX_HELD_VALUE_BYTES = 256 * 1048576;

/**
 * Whether a key with these letters could hold a word of SECRET_NAME_HINT. `plain` keeps letter sets known
 * to hold none, by a hash of the set (a page's keys have few of them); an empty slot holds 0, the set of
 * no byte, which holds no word indeed (any other value, -1 for every bit too, may be a key's set).
 */
function mayHoldSecretWord(letters: number, plain: Int32Array): boolean {
  const slot = Math.imul(letters, 0x9e3779b1) >>> 26;
  if (plain[slot] === letters) return false;
  for (let w = 0; w < SECRET_WORD_LETTERS.length; w++) if ((letters & SECRET_WORD_LETTERS[w]!) === SECRET_WORD_LETTERS[w]) return true;
  plain[slot] = letters;
  return false;
}

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

/** What a value that starts at the watched depth is: a row, a top-level field, or nothing kept. */
const enum Held { None, Row, Field }

export class JsonRowSplitter {
  // The first field: the warm-up's splitters give the fields their shapes before this one has any.
  private readonly warmedUp = warmUpOnce();
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
  // Whole rows of this chunk not yet copied: [runStart, runEnd), commas between them at `commas`.
  private runStart = -1;
  private runEnd = -1;
  private readonly commas: number[] = [];
  private commaCount = 0;

  /**
   * @param rowsField the top-level field holding the rows, or undefined when the body is the array.
   * @param out where the NDJSON lines go.
   */
  constructor(private readonly rowsField: string | undefined, private readonly out: ByteBlocks) {}

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
    else this.scan(chunk);
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
    if (this.state !== G.Done) throw new MalformedJsonError(`malformed JSON: the body ends early (after ${this.offset} bytes)`);
    return { fields: this.fields, rowCount: this.rowCount, rowsFound: this.rowsFound };
  }

  private fail(at: number, what: string): never {
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
            if (depth === 1) this.openBody(c);
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
    return this.rowsField !== undefined ? c === OPEN_OBJ : c === OPEN_ARR;
  }

  /** The body's own bracket: an array body is the rows; an object body's top-level fields are watched. */
  private openBody(c: number): void {
    if (c === OPEN_ARR) {
      this.rowsFound = true;
      this.rowsDepth = 1;
    }
    this.watch = 1;
  }

  /** A closing bracket at `i`: it must match the open container. Returns the new depth. */
  private close(b: Buffer, i: number, c: number, depth: number): number {
    const open = this.stack[depth - 1];
    if ((c === CLOSE_OBJ) !== (open === IN_OBJECT)) this.unexpected(i, c, `closing ${open === IN_OBJECT ? 'an object' : 'an array'}`);
    depth--;
    if (depth === this.rowsDepth - 1 && this.rowsField !== undefined) {
      // The rows array of an object body ends: its fields are watched again.
      this.rowsDepth = -1;
      this.watch = 1;
    } else if (depth === this.watch) this.valueEnd(b, i + 1);
    return depth;
  }

  /** A value starts at `i` at the watched depth: a row, a field, or (a field named `rowsField`) the rows array. */
  private valueStart(b: Buffer, i: number, c: number): void {
    if (this.rowsDepth === this.watch) {
      this.held = Held.Row;
      this.rowBreak = false;
    } else if (c === OPEN_ARR && this.key === this.rowsField && !this.rowsFound) {
      this.rowsFound = true;
      this.rowsDepth = 2;
      this.watch = 2;
      this.held = Held.None;
      return;
    } else if (this.rowsFound && this.key === this.rowsField) {
      // JSON.parse would keep the last one; the rows of the first are already out.
      return this.fail(i, `the rows field "${this.key}" appears twice`);
    } else this.held = Held.Field;
    this.heldStart = i;
    this.heldPieces = [];
    this.heldBytes = 0;
  }

  /** The value kept ends just before `end` in this chunk. */
  private valueEnd(b: Buffer, end: number): void {
    if (this.held === Held.Row) this.rowEnd(b, end);
    else if (this.held === Held.Field) {
      const raw = this.heldValue(b, end);
      try {
        // Defined, not assigned: a field named "__proto__" is an own field, as JSON.parse makes it.
        Object.defineProperty(this.fields, this.key, { value: JSON.parse(raw.toString('utf8')), enumerable: true, writable: true, configurable: true });
      } catch (error) {
        throw new MalformedJsonError(`malformed JSON in field "${this.key}": ${(error as Error).message}`);
      }
    }
    this.held = Held.None;
  }

  private heldValue(b: Buffer, end: number): Buffer {
    if (this.heldStart >= 0) return b.subarray(this.heldStart, end);
    const raw = Buffer.concat([...this.heldPieces, b.subarray(0, end)]);
    this.heldPieces = [];
    return raw;
  }

  private rowEnd(b: Buffer, end: number): void {
    this.rowCount++;
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
    if (this.held !== Held.None) {
      const from = Math.max(0, this.heldStart);
      this.heldPieces.push(Buffer.from(b.subarray(from)));
      this.heldBytes += b.length - from;
      this.heldStart = -1;
      if (this.heldBytes > MAX_HELD_VALUE_BYTES) {
        throw new MalformedJsonError(`a single value of more than ${MAX_HELD_VALUE_BYTES / 1048576} MiB (a row or a field outside the rows); reading stopped`);
      }
    }
  }
}

/**
 * Once a process, before its first splitter: a small page with every kind of token, pushed whole and in
 * chunks of 1 to 7 bytes, so that every path of scan (a chunk ending inside a key, a string's last bytes,
 * a literal, a number, an escape) has run once. V8 optimises scan from what it has seen run; without
 * this, the first network chunk to end in each such place throws the optimised code away and scan runs
 * unoptimised while it is compiled again: four times in a 100 MB response, about 15 ms of the main
 * thread and 30 ms of compile threads (bench/singleResponse.ts). The sample's results are not used.
 */
let warmUpDone = false;
function warmUpOnce(): boolean {
  if (warmUpDone) return true;
  warmUpDone = true;
  const sample = Buffer.from('{"T":"x","Result":[{"ab":"c\\n\\u00e9d","kk":-12.25e+10,"id":12345,"t":true,"f":false,"n":null,"o":[0,{}]},"long string value"],"R":0}');
  for (const size of [sample.length, 1, 2, 3, 5, 6, 7]) {
    const splitter = new JsonRowSplitter('Result', new ByteBlocks(64));
    for (let at = 0; at < sample.length; at += size) splitter.push(sample.subarray(at, at + size));
    splitter.end();
  }
  return true;
}
