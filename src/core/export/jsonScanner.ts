// The JSON grammar the row splitter reads a body with: one pass over the bytes as chunks arrive, its state
// carried across chunks, refusing (MalformedJsonError, at the byte's offset) what JSON.parse would refuse.
// It knows nothing of rows: it tells its subclass (jsonRowSplitter.ts) where the values at the watched
// depth start and end, the watched object's keys, containers opened and closed, and the keys inside the
// rows that may name a secret (secretKeys.ts). One handler per grammar state; `scan` only dispatches.
// The byte tables and the four-bytes-at-a-time string test are src/core/json/grammar.ts.

import { firstStop, HEX, LITERAL_HEADS, LITERALS, ONE_BYTE, SHORT_ESCAPES, stringStops } from '../json/grammar';
import { KeyReader } from './keyReader';
import { MAX_JSON_DEPTH } from '../json/depth';
import { MalformedJsonError, TooDeepError } from './splitResult';

/** Grammar states: what the next byte may be (Str: in a string value, KeyStr: in a key). */
const enum G {
  Value, ArrayFirst, ObjectFirst, Key, Colon, After, Done,
  Str, KeyStr, Esc, Hex,
  Minus, Zero, Int, Dot, Frac, Exp, ExpSign, ExpInt,
  Lit,
}

const QUOTE = 0x22, BACKSLASH = 0x5c, COMMA = 0x2c, COLON = 0x3a, NEWLINE = 0x0a, RETURN = 0x0d, SPACE = 0x20, TAB = 0x09;
const OPEN_OBJ = 0x7b, CLOSE_OBJ = 0x7d, OPEN_ARR = 0x5b, CLOSE_ARR = 0x5d, MINUS = 0x2d, PLUS = 0x2b, DOT = 0x2e;
const ZERO = 0x30, NINE = 0x39, LOWER_E = 0x65, UPPER_E = 0x45, LOWER_U = 0x75;
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

const isDigit = (c: number): boolean => c >= ZERO && c <= NINE;
/** The words of no chunk yet (scan sets its own): one for every scanner, not one made each. */
const NO_WORDS = new DataView(new ArrayBuffer(0));

export abstract class JsonScanner {
  /** Bytes consumed before the current chunk, for messages. */
  protected offset = 0;
  /** The depth whose values are reported (valueStart, valueEnd) and whose object's keys are (fieldKey); -1: none. */
  protected watch = -1;
  /** The depth of the rows' items (-1: no rows): keys deeper than it are asked whether they may name a secret (rowKey). */
  protected rowsDepth = -1;
  /** Set when a line break comes between tokens deeper than the watched depth (a pretty-printed value); cleared by the subclass. */
  protected lineBreak = false;
  /** The chunk being scanned (a fault lets the subclass copy out what it holds of it first). */
  protected chunk: Buffer | undefined;

  // The grammar: state, open containers (IN_OBJECT / IN_ARRAY by depth), the escape and literal in progress.
  private state = G.Value;
  private stack = new Uint8Array(64);
  private depth = 0;
  private words: DataView<ArrayBufferLike> = NO_WORDS;
  private isKey = false; // whether the escape being read (Esc, Hex) is in a key
  private hexLeft = 0;
  private literal: Buffer = LITERALS[0x74]!;
  private literalAt = 0;
  private readonly keyReader = new KeyReader();

  /** The body's first value starts at `i` with `c`: false when the subclass keeps the body whole instead (no more scanning). */
  protected abstract bodyStarts(b: Buffer, i: number, c: number): boolean;
  /** A value starts at `i` (its first byte `c`) at the watched depth. */
  protected abstract valueStart(b: Buffer, i: number, c: number): void;
  /** The value at the watched depth ends just before `end`. */
  protected abstract valueEnd(b: Buffer, end: number): void;
  /** A container opened at `depth` 1 to 3 (with `c`, `{` or `[`). */
  protected abstract opened(c: number, depth: number): void;
  /** A container closed just before `end`, leaving `depth` open. */
  protected abstract closed(b: Buffer, end: number, depth: number): void;
  /** A key of the object at the watched depth, decoded. */
  protected abstract fieldKey(key: string): void;
  /** A key inside the rows that may name a secret, decoded. */
  protected abstract rowKey(key: string): void;
  /** The chunk ends (its values still open keep their bytes); `b` is no longer read after this. */
  protected abstract chunkEnds(b: Buffer): void;
  /** The body is refused at a byte of `b`: what the subclass holds of it goes out first. */
  protected abstract beforeFault(b: Buffer): void;

  /** Whether the whole body has been read (its last container closed). */
  protected get complete(): boolean {
    return this.state === G.Done;
  }

  /**
   * The one pass over a chunk: each turn, the current state's handler reads on from `i` and returns where
   * it stopped. A handler that ends a token goes on with the next when it is the usual one (`,"` after a
   * value in an object, `":` after a key, `{"` opening an object), as one more turn would.
   */
  protected scan(b: Buffer): void {
    this.chunk = b;
    this.words = new DataView(b.buffer, b.byteOffset, b.length);
    const len = b.length;
    let i = 0;
    while (i < len) {
      switch (this.state) {
        case G.Str: i = this.stringBody(b, i); break;
        case G.KeyStr: i = this.keyBody(b, i); break;
        case G.After: i = this.afterValue(b, i); break;
        case G.Value: case G.ArrayFirst: i = this.valueHead(b, i); break;
        case G.Key: case G.ObjectFirst: i = this.keyHead(b, i); break;
        case G.Int: case G.Frac: case G.ExpInt: i = this.digits(b, i); break;
        default: i = this.lessUsual(b, i);
      }
    }
    if (this.inKey()) this.keyReader.keep(b);
    this.chunkEnds(b);
    this.offset += len;
  }

  private inKey(): boolean {
    return this.state === G.KeyStr || ((this.state === G.Esc || this.state === G.Hex) && this.isKey);
  }

  /** The states a compact page passes through less often: a colon apart, escapes, a literal cut by a chunk, a number's one-byte states, the end. */
  private lessUsual(b: Buffer, i: number): number {
    switch (this.state) {
      case G.Colon: return b[i] === COLON ? this.to(G.Value, i + 1) : this.between(b, i);
      case G.Esc: case G.Hex: return this.escapeByte(b, i);
      case G.Lit: return this.literalRest(b, i);
      case G.Done: return this.between(b, i);
      default: return this.numberByte(b, i); // Minus, Zero, Dot, Exp, ExpSign
    }
  }

  protected fail(at: number, what: string | ((at: number) => MalformedJsonError)): never {
    if (this.chunk) this.beforeFault(this.chunk);
    throw typeof what === 'string' ? new MalformedJsonError({ endedEarly: false, offset: this.offset + at, what }) : what(this.offset + at);
  }

  private unexpected(at: number, c: number, where: string): never {
    const shown = c >= 0x20 && c < 0x7f ? `"${String.fromCharCode(c)}"` : `byte 0x${c.toString(16).padStart(2, '0')}`;
    return this.fail(at, `unexpected ${shown} ${where}`);
  }

  private to(state: G, i: number): number {
    this.state = state;
    return i;
  }

  /** In a string value: the hot loop (most of a page is string bytes), four bytes at a time while four are left. */
  private stringBody(b: Buffer, i: number): number {
    const len = b.length;
    const words = this.words;
    let c: number;
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
      if (i === len) return len;
      c = b[i]!;
      if (stringStops(c | ONE_BYTE) !== 0) break;
      i++;
    }
    if (c === BACKSLASH) {
      this.isKey = false;
      return this.to(G.Esc, i + 1);
    }
    if (c !== QUOTE) this.fail(i, 'a control character inside a string');
    i = this.valueEnds(b, i + 1);
    // The usual `","` inside a row: the next key starts at once.
    if (i + 1 < len && b[i] === COMMA && b[i + 1] === QUOTE && this.stack[this.depth - 1] === IN_OBJECT) return this.keyBegins(b, i + 2);
    return i;
  }

  /** In a key: the same loop as a string's (keyReader.ts), gathering what tells which keys may name a secret. */
  private keyBody(b: Buffer, i: number): number {
    i = this.keyReader.run(b, this.words, i);
    if (i === b.length) return i;
    const c = b[i]!;
    if (c === BACKSLASH) {
      this.isKey = true;
      this.keyReader.escaped = true;
      return this.to(G.Esc, i + 1);
    }
    if (c !== QUOTE) this.fail(i, 'a control character inside a string');
    this.keyEnds(b, i);
    return this.afterKey(b, i + 1);
  }

  /** A key's first byte is at `i`: read on at once (a key never leads back here before the handler returns). */
  private keyBegins(b: Buffer, i: number): number {
    this.keyReader.begin(i);
    this.state = G.KeyStr;
    return this.keyBody(b, i);
  }

  /** A key ends at the quote at `i`: told when it is a watched object's, or a row's that may name a secret. */
  private keyEnds(b: Buffer, i: number): void {
    const depth = this.depth;
    if (depth === this.watch) this.fieldKey(this.keyReader.text(b, i));
    else if (this.rowsDepth > 0 && depth > this.rowsDepth && this.keyReader.mayNameSecret()) this.rowKey(this.keyReader.text(b, i));
  }

  /** After a key's quote: the usual `":` read at once, and `":"` starts a string (not at the watched depth, where values are told). */
  private afterKey(b: Buffer, i: number): number {
    if (i >= b.length || b[i] !== COLON) return this.to(G.Colon, i);
    i++;
    if (i < b.length && b[i] === QUOTE && this.depth !== this.watch) return this.to(G.Str, i + 1);
    return this.to(G.Value, i);
  }

  /** Where a key or (first in an object) its end may come. */
  private keyHead(b: Buffer, i: number): number {
    const c = b[i]!;
    if (c === QUOTE) return this.keyBegins(b, i + 1);
    if (c === CLOSE_OBJ && this.state === G.ObjectFirst) return this.close(b, i, c);
    return this.between(b, i);
  }

  /** After a value: a comma (the usual `,"` starts the next key at once) or the container's end. */
  private afterValue(b: Buffer, i: number): number {
    const c = b[i]!;
    if (c === CLOSE_OBJ || c === CLOSE_ARR) return this.close(b, i, c);
    if (c !== COMMA) return this.between(b, i);
    i++;
    if (this.stack[this.depth - 1] !== IN_OBJECT) return this.to(G.Value, i);
    if (i < b.length && b[i] === QUOTE) return this.keyBegins(b, i + 1);
    return this.to(G.Key, i);
  }

  /** Where a value or (first in an array) its end may come. */
  private valueHead(b: Buffer, i: number): number {
    const c = b[i]!;
    const next = VALUE_START[c]! as G;
    if (next === G.Value) {
      if (c === CLOSE_ARR && this.state === G.ArrayFirst) return this.close(b, i, c);
      return this.between(b, i);
    }
    if (this.depth === 0 && !this.bodyStarts(b, i, c)) return b.length;
    if (this.depth === this.watch) this.valueStart(b, i, c);
    this.state = next;
    if (next === G.ObjectFirst || next === G.ArrayFirst) return this.open(b, i + 1, c, next);
    if (next === G.Lit) return this.literalHead(b, i + 1, c);
    return i + 1;
  }

  /** A container opened just before `i`; the usual `{"` starts its first key at once. */
  private open(b: Buffer, i: number, c: number, next: G): number {
    if (this.depth === this.stack.length) {
      const grown = new Uint8Array(this.stack.length * 2);
      grown.set(this.stack);
      this.stack = grown;
    }
    this.stack[this.depth++] = next === G.ObjectFirst ? IN_OBJECT : IN_ARRAY;
    if (this.depth > MAX_JSON_DEPTH) throw new TooDeepError();
    if (this.depth < 4) this.opened(c, this.depth);
    if (next === G.ObjectFirst && i < b.length && b[i] === QUOTE) return this.keyBegins(b, i + 1);
    return i;
  }

  /** A closing bracket at `i`: it must match the open container. */
  private close(b: Buffer, i: number, c: number): number {
    const open = this.stack[this.depth - 1];
    if ((c === CLOSE_OBJ) !== (open === IN_OBJECT)) this.unexpected(i, c, `closing ${open === IN_OBJECT ? 'an object' : 'an array'}`);
    const depth = --this.depth;
    this.state = depth === 0 ? G.Done : G.After;
    this.closed(b, i + 1, depth);
    return i + 1;
  }

  /** A value ended just before `i`. */
  private valueEnds(b: Buffer, i: number): number {
    // A string, number or literal that is the whole body (jsonFault.ts reads one; the splitter never does).
    this.state = this.depth === 0 ? G.Done : G.After;
    if (this.depth === this.watch) this.valueEnd(b, i);
    return i;
  }

  /** A literal's first byte `c` was just before `i`: the whole literal at once when this chunk holds it (its first four bytes as one word, and its last byte). */
  private literalHead(b: Buffer, i: number, c: number): number {
    const literal = LITERALS[c]!;
    this.literal = literal;
    const end = i - 1 + literal.length;
    if (end <= b.length && this.words.getInt32(i - 1, true) === LITERAL_HEADS[c] && b[end - 1] === literal[literal.length - 1]) return this.valueEnds(b, end);
    this.literalAt = 1;
    return i;
  }

  /** The rest of a literal, byte by byte (it was cut by the chunk's end). */
  private literalRest(b: Buffer, i: number): number {
    const literal = this.literal;
    while (this.literalAt < literal.length) {
      if (i === b.length) return i;
      if (b[i] !== literal[this.literalAt]) this.unexpected(i, b[i]!, `in "${literal.toString('latin1')}"`);
      i++;
      this.literalAt++;
    }
    return this.valueEnds(b, i);
  }

  /**
   * A number's digits (Int, Frac, ExpInt; none after a leading 0), then what may follow them; a byte that
   * ends the number is read again as what follows a value.
   */
  private digits(b: Buffer, i: number): number {
    let c = b[i]!;
    while (isDigit(c)) {
      if (++i === b.length) return i;
      c = b[i]!;
    }
    if (c === DOT && (this.state === G.Int || this.state === G.Zero)) return this.to(G.Dot, i + 1);
    if ((c === LOWER_E || c === UPPER_E) && this.state !== G.ExpInt) return this.to(G.Exp, i + 1);
    return this.valueEnds(b, i);
  }

  /** A number's one-byte states: after "-", a leading 0, ".", "e", and an exponent's sign. */
  private numberByte(b: Buffer, i: number): number {
    const c = b[i]!;
    switch (this.state) {
      case G.Minus:
        if (c === ZERO) return this.to(G.Zero, i + 1);
        if (!isDigit(c)) this.unexpected(i, c, 'after "-"');
        return this.to(G.Int, i + 1);
      case G.Zero:
        if (isDigit(c)) this.fail(i, 'a number with a leading zero');
        return this.digits(b, i);
      case G.Dot:
        if (!isDigit(c)) this.unexpected(i, c, 'where a digit after "." was expected');
        return this.to(G.Frac, i + 1);
      case G.Exp:
        if (c === PLUS || c === MINUS) return this.to(G.ExpSign, i + 1);
        if (!isDigit(c)) this.unexpected(i, c, 'in an exponent');
        return this.to(G.ExpInt, i + 1);
      default: // G.ExpSign
        if (!isDigit(c)) this.unexpected(i, c, 'where an exponent digit was expected');
        return this.to(G.ExpInt, i + 1);
    }
  }

  /** After a backslash (Esc), or in the four hex digits of a \u escape (Hex). */
  private escapeByte(b: Buffer, i: number): number {
    const c = b[i]!;
    const back = this.isKey ? G.KeyStr : G.Str;
    if (this.state === G.Hex) {
      if (HEX[c] !== 1) this.unexpected(i, c, 'in a \\u escape');
      return --this.hexLeft === 0 ? this.to(back, i + 1) : i + 1;
    }
    if (c === LOWER_U) {
      this.hexLeft = 4;
      return this.to(G.Hex, i + 1);
    }
    if (SHORT_ESCAPES[c] !== 1) this.unexpected(i, c, 'after a backslash in a string');
    return this.to(back, i + 1);
  }

  /** Between tokens, a byte the state's handler did not take: whitespace, or not JSON. */
  private between(b: Buffer, i: number): number {
    const c = b[i]!;
    if (c === SPACE || c === TAB) return i + 1;
    if (c === NEWLINE || c === RETURN) {
      // A line break inside a watched value: a row is re-serialised onto one line.
      if (this.depth > this.watch) this.lineBreak = true;
      return i + 1;
    }
    if (this.state === G.Done) return this.fail(i, 'unexpected content after the end of the body');
    return this.unexpected(i, c, this.expected());
  }

  /** What the current state expected, in words. */
  private expected(): string {
    switch (this.state) {
      case G.After: return this.stack[this.depth - 1] === IN_OBJECT ? 'after a field\'s value' : 'after a value in an array';
      case G.Colon: return 'where ":" after a field name was expected';
      case G.Key: case G.ObjectFirst: return 'where a field name was expected';
      default: return 'where a value was expected';
    }
  }
}
