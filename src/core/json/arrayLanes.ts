// Where the arrays one and two levels down of an object body are, as its bytes arrive: the places the
// rows rule (src/core/paging/rows.ts) weighs. The bytes are cut into what lies outside every such array
// (its own brackets included) and what lies inside one (a "lane"), so that the rows of each lane can be
// split out while they arrive and the rest of the body read without them. Structure only: brackets,
// strings (with their escapes) and the keys of the top two levels. The bytes are validated elsewhere
// (each part by the row splitter that reads it); on bytes that are not JSON this never throws and never
// loops, it only cuts where the brackets say.

import { TooDeepError } from '../export/splitResult';
import { keyHashes } from '../paging/keyOrder';
import { MAX_JSON_DEPTH } from './depth';

const QUOTE = 0x22, BACKSLASH = 0x5c, COMMA = 0x2c;
/** Bytes of a string looked at one by one before a native search for its end. */
const SHORT_STRING = 24;
const OPEN_OBJ = 0x7b, CLOSE_OBJ = 0x7d, OPEN_ARR = 0x5b, CLOSE_ARR = 0x5d;
/** The bytes the scan stops at outside strings. */
const STRUCTURAL = new Uint8Array(256);
for (const c of [QUOTE, COMMA, OPEN_OBJ, CLOSE_OBJ, OPEN_ARR, CLOSE_ARR]) STRUCTURAL[c] = 1;

/** What the cut hands on, in body order. */
export interface LaneEvents {
  /** Bytes outside every lane (a lane's brackets included). */
  outside(bytes: Buffer): void;
  /** A lane opens: the array at these keys from the top (one or two). Its content follows through `inside`. */
  open(keys: readonly string[]): void;
  inside(bytes: Buffer): void;
  /** The lane's closing bracket came (it is handed on through `outside`). */
  close(): void;
  /**
   * A key one (depth 1) or two levels down was read, as the hashes of its text (keyOrder.ts keyHashes, of
   * the decoded key when it holds an escape or a non-ASCII byte): every key, an array's or not, in body order.
   */
  key?(depth: number, hashes: [number, number]): void;
}

export class ArrayLanes {
  private depth = 0;
  /** Whether the container at each of the top three depths is an object. */
  private readonly objects = [false, false, false];
  /** At depths 1 and 2: the next string of that object is a key. */
  private readonly expectKey = [false, false, false];
  // The last key read at depths 1 and 2, decoded only when an array opens under it (most keys never
  // are): the chunk it ended in, its bytes there, its bytes from earlier chunks, its text once decoded.
  private readonly keyChunk: Buffer[] = [Buffer.alloc(0), Buffer.alloc(0)];
  private readonly keyFrom = [0, 0];
  private readonly keyTo = [0, 0];
  private readonly keyHead: (Buffer[] | undefined)[] = [undefined, undefined];
  private readonly keyText: (string | undefined)[] = ['', ''];
  private inString = false;
  private escaped = false;
  /** The depth (1 or 2) of the key being read, 0 when the string being read is no key of interest. */
  private keyDepth = 0;
  /** The key being read: where it starts in this chunk, its bytes from earlier chunks. */
  private readingFrom = 0;
  private readingHead: Buffer[] | undefined;
  /** The depth inside the lane's array while in a lane; 0 outside. */
  private laneDepth = 0;
  /** In the chunk being cut: where the bytes not handed on yet start, and the next backslash (-2: not looked for). */
  private from = 0;
  private nextBackslash = -2;
  private events: LaneEvents | undefined;

  /**
   * @param skip keys whose arrays are no lane (the business-error lists).
   * @param skipTop top-level keys whose arrays are no lane (the fields the business check reads).
   */
  constructor(private readonly skip: ReadonlySet<string>, private readonly skipTop: ReadonlySet<string> = skip) {}

  push(chunk: Buffer, events: LaneEvents): void {
    const len = chunk.length;
    this.events = events;
    this.from = 0;
    this.nextBackslash = -2;
    let i = 0;
    while (i < len) {
      if (this.inString) {
        i = this.string(chunk, i);
        continue;
      }
      const c = chunk[i]!;
      if (STRUCTURAL[c] === 1) {
        if (this.laneDepth > 0) this.inLane(chunk, i, c, events);
        else if (c === OPEN_ARR && this.laneOpens()) {
          this.emit(chunk, i + 1, events);
          this.depth++;
          this.laneDepth = 1;
          events.open(this.depth === 2 ? [this.key(0)] : [this.key(0), this.key(1)]);
        } else this.structural(c, i);
      }
      i++;
    }
    this.emit(chunk, len, events);
    if (this.inString && this.keyDepth > 0) {
      // A key that goes on in the next chunk: its bytes so far are kept.
      (this.readingHead ??= []).push(Buffer.from(chunk.subarray(this.readingFrom)));
      this.readingFrom = 0;
    }
    // A key that ended in this chunk and is not decoded yet: its bytes copied (a reader may reuse the chunk).
    for (let k = 0; k < 2; k++) {
      if (this.keyText[k] !== undefined || this.keyChunk[k] !== chunk) continue;
      this.keyChunk[k] = Buffer.from(chunk.subarray(this.keyFrom[k], this.keyTo[k]));
      this.keyFrom[k] = 0;
      this.keyTo[k] = this.keyChunk[k]!.length;
    }
  }

  /** Hands on the chunk's bytes from the last cut to `to`, inside or outside a lane. */
  private emit(chunk: Buffer, to: number, events: LaneEvents): void {
    if (to > this.from) {
      const part = chunk.subarray(this.from, to);
      if (this.laneDepth > 0) events.inside(part);
      else events.outside(part);
    }
    this.from = to;
  }

  /** Inside a string from `i`: where the scan goes on (past its closing quote, or the chunk's end). */
  private string(chunk: Buffer, i: number): number {
    const len = chunk.length;
    if (this.escaped) {
      // The byte after a backslash that ended the chunk before.
      this.escaped = false;
      return i + 1;
    }
    // Most strings are short (keys, small values): their end looked for byte by byte, a native search
    // (indexOf) only past SHORT_STRING bytes, where its call costs less than the loop.
    const stop = Math.min(len, i + SHORT_STRING);
    let j = i;
    while (j < stop && chunk[j] !== QUOTE && chunk[j] !== BACKSLASH) j++;
    if (j < stop && chunk[j] === QUOTE) return this.stringEnds(chunk, j);
    if (j < stop) return this.escape(j, len);
    if (j === len) return len;
    if (this.nextBackslash !== -1 && this.nextBackslash < j) this.nextBackslash = chunk.indexOf(BACKSLASH, j);
    const quote = chunk.indexOf(QUOTE, j);
    const backslash = this.nextBackslash;
    if (backslash !== -1 && (quote === -1 || backslash < quote)) return this.escape(backslash, len);
    if (quote === -1) return len;
    return this.stringEnds(chunk, quote);
  }

  /** An escape at `backslash`: the byte after it is no end of the string (it may be in the next chunk). */
  private escape(backslash: number, len: number): number {
    this.escaped = backslash + 1 === len;
    return Math.min(len, backslash + 2);
  }

  /** The string's closing quote is at `quote`. */
  private stringEnds(chunk: Buffer, quote: number): number {
    this.inString = false;
    if (this.keyDepth > 0) this.keyEnds(chunk, quote);
    return quote + 1;
  }

  /**
   * A structural byte inside a lane: only the lane's own closing bracket matters. A "}" at the lane's
   * depth closes nothing: it stays in the lane, whose splitter says it at its byte as the body holds it.
   */
  private inLane(chunk: Buffer, i: number, c: number, events: LaneEvents): void {
    if (c === QUOTE) this.inString = true;
    else if (c === OPEN_ARR || c === OPEN_OBJ) {
      // The cut sees a lane's bytes before its splitter does (whose depths start anew): the body's depth is said here.
      if (this.depth + this.laneDepth++ > MAX_JSON_DEPTH) throw new TooDeepError();
    }
    else if (c === CLOSE_ARR || (c === CLOSE_OBJ && this.laneDepth > 1)) {
      if (this.laneDepth === 1) {
        // The lane's own closing bracket: its content ends before it.
        this.emit(chunk, i, events);
        events.close();
        this.depth--;
      }
      this.laneDepth--;
    }
  }

  /** An array opening at the current depth is a lane: the value of a key one or two levels down. */
  private laneOpens(): boolean {
    const d = this.depth;
    if (d === 1) return this.objects[0]! && !this.skip.has(this.key(0)) && !this.skipTop.has(this.key(0));
    return d === 2 && this.objects[0]! && this.objects[1]! && !this.skip.has(this.key(1));
  }

  /** A structural byte outside lanes and strings. */
  private structural(c: number, i: number): void {
    const d = this.depth;
    if (c === QUOTE) {
      this.inString = true;
      if ((d === 1 || d === 2) && this.objects[d - 1] && this.expectKey[d]) {
        this.expectKey[d] = false;
        this.keyDepth = d;
        this.readingFrom = i + 1;
        this.readingHead = undefined;
      } else this.keyDepth = 0;
    } else if (c === OPEN_OBJ || c === OPEN_ARR) {
      if (d < 3) this.objects[d] = c === OPEN_OBJ;
      this.depth = d + 1;
      if (d + 1 <= 2) this.expectKey[d + 1] = c === OPEN_OBJ;
    } else if (c === CLOSE_OBJ || c === CLOSE_ARR) {
      if (d > 0) this.depth = d - 1;
    } else if (c === COMMA && (d === 1 || d === 2) && this.objects[d - 1]) this.expectKey[d] = true;
  }

  /** The key being read ends at the quote at `at`: kept undecoded. */
  private keyEnds(chunk: Buffer, at: number): void {
    const k = this.keyDepth - 1;
    this.keyChunk[k] = chunk;
    this.keyFrom[k] = this.readingFrom;
    this.keyTo[k] = at;
    this.keyHead[k] = this.readingHead;
    this.keyText[k] = undefined;
    this.readingHead = undefined;
    this.keyDepth = 0;
    if (this.events?.key) this.events.key(k + 1, this.hashes(k));
  }

  /** The hashes of the last key of depth k + 1: of its bytes as they came when plain ASCII, else of its decoded text. */
  private hashes(k: number): [number, number] {
    const chunk = this.keyChunk[k]!, from = this.keyFrom[k]!, to = this.keyTo[k]!;
    if (!this.keyHead[k]) {
      let plain = true;
      for (let i = from; i < to && plain; i++) plain = chunk[i]! < 0x80 && chunk[i] !== BACKSLASH;
      if (plain) return keyHashes(chunk, from, to);
    }
    const text = Buffer.from(this.key(k), 'utf8');
    return keyHashes(text, 0, text.length);
  }

  /** The last key of depth k + 1, decoded. */
  private key(k: number): string {
    const known = this.keyText[k];
    if (known !== undefined) return known;
    const last = this.keyChunk[k]!.subarray(this.keyFrom[k], this.keyTo[k]);
    const head = this.keyHead[k];
    const raw = head ? Buffer.concat([...head, last]) : last;
    let text = raw.toString('utf8');
    if (raw.includes(BACKSLASH)) {
      try {
        text = JSON.parse(`"${text}"`) as string;
      } catch {
        // Not JSON: the row splitter that reads these bytes says so.
      }
    }
    this.keyText[k] = text;
    return text;
  }
}
