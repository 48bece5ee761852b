// Where the rows of an items= path (`a.b.c`, any depth) can be in an object body, as its bytes arrive:
// the array at that path, and the array of a top-level key spelt as the whole path (the rows rule reads
// that key first: src/core/paging/rows.ts, readPath and pathKeys). Nothing else can hold the rows, so
// nothing else is cut out. The bytes are cut as arrayLanes.ts cuts them, with the same events: what lies
// inside such an array (a "lane", whose rows are split while they arrive) and what lies outside it (the
// body's skeleton). Only the objects on the path are followed and their keys read; everything else is
// structure skipped over (brackets, strings and their escapes). The bytes are validated elsewhere (each
// part by the row splitter that reads it): on bytes that are not JSON this never loops, and throws only
// the refusal below.
// A key of the path given again in an object on the path, after the rows' array came inside it, is
// refused (RowsRefusedError) at the body's end (`end`): JSON.parse would keep the last, but the rows of
// the first are on their way, as the row splitter refuses a rows field given twice
// (src/core/export/splitResult.ts). Unless the body gives the whole path as one top-level key, before or
// after: the rule reads that key first, so the arrays at the path are never the rows.
// `captures`: fields a paging step reads inside the objects on the path (next=data.next beside
// items=data.rows), each path leaving the items path at an object on it: their values are kept here
// (`captured`), so the object holding them need not be held whole; the names of the other keys of
// each object on the path are kept too (`namesAt`; past NAMES_NOT_HELD only counted, `moreAt`), to say
// which fields arrived and were not held.
import { RowsRefusedError, TooDeepError } from '../export/splitResult';
import { MAX_JSON_DEPTH } from './depth';
import { NAMES_NOT_HELD } from '../paging/notHeld';
import type { LaneEvents } from './arrayLanes';

const QUOTE = 0x22, BACKSLASH = 0x5c, COMMA = 0x2c;
const OPEN_OBJ = 0x7b, CLOSE_OBJ = 0x7d, OPEN_ARR = 0x5b, CLOSE_ARR = 0x5d;
/** The bytes the scan stops at outside strings. */
const STRUCTURAL = new Uint8Array(256);
for (const c of [QUOTE, COMMA, OPEN_OBJ, CLOSE_OBJ, OPEN_ARR, CLOSE_ARR]) STRUCTURAL[c] = 1;

/** What the key just read at the path's depth names: the next key of the path, the whole path as one key, or neither. */
const enum Named { Nothing, Next, Whole }

export class PathLanes {
  private depth = 0;
  /** Objects on the path are open at depths 1 to `onPath` (the body's own at 1); 0 before the body. */
  private onPath = 0;
  /** In the object at `onPath`, the next string is a key. */
  private expectKey = false;
  /** What the key just read names; its value starts at the next structural byte. */
  private named = Named.Nothing;
  /** For each depth on the path: its object has held the path's array. */
  private readonly held: boolean[];
  private started = false;
  /** The whole path came as one top-level key: the rule takes it, never an array at the path. */
  private wholeSeen = false;
  /** Why the body is refused at its end (a key of the path given again after its array), unless wholeSeen. */
  private twice: string | undefined;
  /** The capture being read: which, the depth of its object, its bytes from earlier chunks, where it starts in this chunk. */
  private capture: { index: number; depth: number; pieces: Buffer[]; from: number } | undefined;
  /** The values read at the captures (the last of each, as JSON.parse keeps), by where they are: a capture's first `keys`. */
  readonly captured = new Map<string, { readonly keys: readonly string[]; readonly value: unknown }>();
  /** For each depth of 2 and more on the path: the keys of its (last) object, decoded. */
  private readonly names: string[][];
  /** For each depth of 2 and more: how many keys of its (last) object came past the NAMES_NOT_HELD named. */
  private readonly more: number[];
  private inString = false;
  private escaped = false;
  /** Reading a key of the object at `onPath`: where it starts in this chunk, its bytes from earlier chunks, its byte in the body. */
  private readingKey = false;
  private keyFrom = 0;
  private keyHead: Buffer[] | undefined;
  private keyAt = 0;
  /** The depth inside the lane's array while in a lane; 0 outside. */
  private laneDepth = 0;
  /** In the chunk being cut: where the bytes not handed on yet start, and the next backslash (-2: not looked for). */
  private from = 0;
  private nextBackslash = -2;
  /** The body's bytes before this chunk. */
  private base = 0;
  private readonly keyBytes: readonly Buffer[];
  private readonly wholeBytes: Buffer;

  /**
   * @param whole the items= path as written (also a key of its own at the top).
   * @param keys the keys it walks down (pathKeys), two or more.
   */
  constructor(private readonly whole: string, private readonly keys: readonly string[], private readonly captures: readonly (readonly string[])[] = []) {
    this.held = Array.from({ length: keys.length + 1 }, () => false);
    this.names = Array.from({ length: keys.length + 1 }, () => []);
    this.more = Array.from({ length: keys.length + 1 }, () => 0);
    this.keyBytes = keys.map((k) => Buffer.from(k));
    this.wholeBytes = Buffer.from(whole);
  }

  /** The keys of the (last) object at `depth` (2 and more) on the path. */
  namesAt(depth: number): readonly string[] {
    return this.names[depth] ?? [];
  }

  /** How many keys of the (last) object at `depth` came after the first NAMES_NOT_HELD (namesAt): counted, not named. */
  moreAt(depth: number): number {
    return this.more[depth] ?? 0;
  }

  /** The body ended: throws RowsRefusedError for a key of the path given again after its rows, when they were the rows. */
  end(): void {
    if (this.twice !== undefined && !this.wholeSeen) throw new RowsRefusedError(this.twice);
  }

  /** Cuts the next chunk of the body. */
  push(chunk: Buffer, events: LaneEvents): void {
    const len = chunk.length;
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
        else this.structural(chunk, i, c, events);
      }
      i++;
    }
    this.emit(chunk, len, events);
    if (this.capture) {
      this.capture.pieces.push(Buffer.from(chunk.subarray(this.capture.from)));
      this.capture.from = 0;
    }
    if (this.inString && this.readingKey) {
      // A key that goes on in the next chunk: its bytes so far are kept.
      (this.keyHead ??= []).push(Buffer.from(chunk.subarray(this.keyFrom)));
      this.keyFrom = 0;
    }
    this.base += len;
  }

  /** Hands on the chunk's bytes from the last cut to `to`, inside or outside the lane. */
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
    if (this.nextBackslash !== -1 && this.nextBackslash < i) this.nextBackslash = chunk.indexOf(BACKSLASH, i);
    const quote = chunk.indexOf(QUOTE, i);
    const backslash = this.nextBackslash;
    if (backslash !== -1 && (quote === -1 || backslash < quote)) {
      // An escape: the byte after the backslash is no end of the string.
      this.escaped = backslash + 1 === len;
      return Math.min(len, backslash + 2);
    }
    if (quote === -1) return len;
    this.inString = false;
    if (this.readingKey) this.keyEnds(chunk, quote);
    return quote + 1;
  }

  /** A structural byte inside the lane: only the lane's own closing bracket matters. */
  private inLane(chunk: Buffer, i: number, c: number, events: LaneEvents): void {
    if (c === QUOTE) this.inString = true;
    else if (c === OPEN_ARR || c === OPEN_OBJ) {
      // The cut sees a lane's bytes before its splitter does (whose depths start anew): the body's depth is said here.
      if (this.depth + this.laneDepth++ > MAX_JSON_DEPTH) throw new TooDeepError();
    }
    else if (c === CLOSE_ARR || c === CLOSE_OBJ) {
      if (this.laneDepth === 1) {
        // The lane's own closing bracket: its content ends before it.
        this.emit(chunk, i, events);
        events.close();
        this.depth--;
      }
      this.laneDepth--;
    }
  }

  /** A structural byte outside the lane and strings. */
  private structural(chunk: Buffer, i: number, c: number, events: LaneEvents): void {
    const d = this.depth;
    this.captureEnds(chunk, i, c, d);
    if (this.named !== Named.Nothing && d === this.onPath) {
      // The value of the key just read starts here (or a number or literal ended).
      const named = this.named;
      this.named = Named.Nothing;
      if (c === OPEN_ARR && (named === Named.Whole || d === this.keys.length)) return this.laneOpens(chunk, i, named, events);
      if (c === OPEN_OBJ && named === Named.Next && d < this.keys.length) {
        // The next object on the path.
        this.depth = d + 1;
        this.onPath = d + 1;
        this.held[d + 1] = false;
        this.names[d + 1] = [];
        this.more[d + 1] = 0;
        this.expectKey = true;
        return;
      }
    }
    if (c === QUOTE) {
      this.inString = true;
      if (d === this.onPath && this.expectKey) {
        this.expectKey = false;
        this.readingKey = true;
        this.keyFrom = i + 1;
        this.keyHead = undefined;
        this.keyAt = this.base + i;
      }
    } else if (c === OPEN_OBJ || c === OPEN_ARR) {
      if (!this.started && c === OPEN_OBJ) {
        // The body's own object: the path starts in it.
        this.onPath = 1;
        this.held[1] = false;
        this.expectKey = true;
      }
      this.started = true;
      this.depth = d + 1;
    } else if (c === CLOSE_OBJ || c === CLOSE_ARR) {
      if (d > 0 && d === this.onPath) {
        this.onPath = d - 1;
        this.expectKey = false;
      }
      if (d > 0) this.depth = d - 1;
    } else if (d > 0 && d === this.onPath) this.expectKey = true;
  }

  /** The array at the path (or at the whole path as one top-level key) opens at `i`: a lane. */
  private laneOpens(chunk: Buffer, i: number, named: Named, events: LaneEvents): void {
    this.emit(chunk, i + 1, events);
    this.depth++;
    this.laneDepth = 1;
    if (named === Named.Whole) return events.open([this.whole]);
    for (let d = 1; d <= this.onPath; d++) this.held[d] = true;
    events.open(this.keys);
  }

  /** The key being read ends at the quote at `at`: what it names. */
  private keyEnds(chunk: Buffer, at: number): void {
    this.readingKey = false;
    const last = chunk.subarray(this.keyFrom, at);
    const raw = this.keyHead ? Buffer.concat([...this.keyHead, last]) : last;
    this.keyHead = undefined;
    const d = this.onPath;
    if (same(raw, this.keyBytes[d - 1]!, this.keys[d - 1]!)) {
      if (this.held[d]) {
        this.twice ??= `the rows path "${this.whole}" is given twice in the body ("${this.keys[d - 1]!}" again at byte ${this.keyAt}): JSON.parse would keep the last, but the rows of the first were already read, so neither is taken`;
      }
      this.named = Named.Next;
    } else {
      this.named = d === 1 && same(raw, this.wholeBytes, this.whole) ? Named.Whole : Named.Nothing;
      if (this.named === Named.Whole) this.wholeSeen = true;
    }
    if (d >= 2) this.keyOfPathObject(raw, d, chunk, at);
  }

  /** A key of the object at `depth` (2 or more) on the path: its name noted; the value of a capture's kept from after its quote at `at`. */
  private keyOfPathObject(raw: Buffer, depth: number, chunk: Buffer, at: number): void {
    const name = keyText(raw);
    if (name === undefined) return;
    const names = this.names[depth]!;
    if (names.length < NAMES_NOT_HELD) names.push(name);
    else this.more[depth]!++;
    const index = this.captures.findIndex((c) => c.length >= depth && c[depth - 1] === name && name !== this.keys[depth - 1] && c.slice(0, depth - 1).every((k, j) => k === this.keys[j]));
    if (index !== -1) this.capture = { index, depth, pieces: [], from: at + 1 };
  }

  /** A comma or brace `c` at `i` at the capture's depth `d` ends its value: its bytes (`: value`) parsed. */
  private captureEnds(chunk: Buffer, i: number, c: number, d: number): void {
    if (!this.capture || d !== this.capture.depth || (c !== COMMA && c !== CLOSE_OBJ)) return;
    const { index, depth, pieces, from } = this.capture;
    this.capture = undefined;
    const text = Buffer.concat([...pieces, chunk.subarray(from, i)]).toString('utf8');
    const keys = this.captures[index]!.slice(0, depth);
    try {
      this.captured.set(keys.join('\u0000'), { keys, value: JSON.parse(text.slice(text.indexOf(':') + 1)) as unknown });
    } catch {
      // Not JSON: the row splitter that reads these bytes says so.
    }
  }
}

/** A key's raw bytes, escapes decoded (undefined when they are no JSON string). */
function keyText(raw: Buffer): string | undefined {
  if (!raw.includes(BACKSLASH)) return raw.toString('utf8');
  try {
    return JSON.parse(`"${raw.toString('utf8')}"`) as string;
  } catch {
    return undefined;
  }
}

/** Whether a key's raw bytes spell `text` (`bytes` its UTF-8), escapes decoded. */
function same(raw: Buffer, bytes: Buffer, text: string): boolean {
  if (!raw.includes(BACKSLASH)) return raw.equals(bytes);
  try {
    return (JSON.parse(`"${raw.toString('utf8')}"`) as string) === text;
  } catch {
    // Not JSON: the row splitter that reads these bytes says so.
    return false;
  }
}
