// What JSON.parse hides of a body, counted while its chunks are held (src/core/paging/heldBody.ts): one
// pass over the bytes as they arrive, its state carried across chunks (in a string, after a backslash, the
// open containers), JSON's grammar only as far as strings and brackets go (a body that is not JSON is
// JSON.parse's to refuse, then the streamed read's to say):
// - `deepest`: the deepest nesting of arrays and objects (the streamed read refuses past MAX_JSON_DEPTH);
// - `keysTwice`: whether an object of the body's skeleton may give a key twice. JSON.parse keeps one
//   property for it (its last value, at its first place); the streamed read interprets those keys itself
//   (its rows field, the arrays one and two levels down, an items= path) and refuses or places them
//   otherwise. The skeleton is every object reached from the body through objects only, down to
//   `keyDepth` (the body's own object is depth 1); keys deeper, or inside an array, are in a row or a
//   field the streamed read also parses with JSON.parse (read the same way), or written as bytes to a
//   file (where a reader parses them the same way too). Exact in the safe direction: each key of the
//   skeleton is remembered by two 32-bit hashes of its bytes and of its object, so a key given twice in
//   the same spelling always meets itself; a key holding an escape (spelt another way, the same key)
//   sets it outright; a chance meeting of two different keys only costs a streamed read.
// - the budget's figures: `bytes`; `values`, an upper bound of the values (containers and scalars: one
//   more than the commas and the opening brackets, keys not counted); `longest`, an upper bound of the
//   items of the longest array (one more than its commas; whatever array the rows rule picks, no more rows);
//   `wide`, the members of the objects past WIDE members (each a key JSON.parse makes a dictionary entry
//   of, about 250 bytes each once the run has read the body: the costliest value there is).
// One pass, byte by byte outside strings, a string's bytes skipped by indexOf (the next quote and the next
// backslash, each looked up once per chunk) unless it is a key of the skeleton.
import { MAX_JSON_DEPTH } from './depth';

const QUOTE = 0x22, BACKSLASH = 0x5c, OPEN_OBJ = 0x7b, OPEN_ARR = 0x5b, CLOSE_OBJ = 0x7d, CLOSE_ARR = 0x5d, COMMA = 0x2c;
const SLOTS = MAX_JSON_DEPTH + 2;
/** An object past this many members is wide: V8 holds it as a dictionary (past about 1 020 properties), each key at its own cost. */
const WIDE = 1000;

export class HeldScan {
  bytes = 0;
  values = 1;
  longest = 0;
  /** Members of the objects past WIDE members, summed (an upper bound: one more than their commas). */
  wide = 0;
  deepest = 0;
  keysTwice = false;
  private depth = 0;
  private inString = false;
  private escaped = false;
  // Per open container: an array, or an object of the skeleton (kind), and its commas so far.
  private readonly kind = new Uint8Array(SLOTS);
  private readonly commas = new Int32Array(SLOTS);
  // The skeleton's objects: a serial number each (the keys of one are told from another's), and whether its next string is a key.
  private readonly serial = new Int32Array(SLOTS);
  private readonly expectKey = new Uint8Array(SLOTS);
  private objects = 0;
  // The key being read (its hashes so far), or not.
  private inKey = false;
  private ha = 0;
  private hb = 0;
  private readonly seen = new KeySet();

  /** @param keyDepth the skeleton's depth (see the head of this file). */
  constructor(private readonly keyDepth = 2) {}

  /** Whether the body nests deeper than the streamed read reads (it then says so in its own words). */
  get tooDeep(): boolean {
    return this.deepest > MAX_JSON_DEPTH;
  }

  push(b: Buffer): void {
    const n = b.length;
    this.bytes += n;
    let i = 0;
    let nextQuote = -2;
    let nextBackslash = -2;
    while (i < n) {
      if (!this.inString) {
        i = this.outside(b, i, n);
        continue;
      }
      if (this.escaped) {
        this.escaped = false;
        i++;
        continue;
      }
      if (this.inKey) {
        i = this.key(b, i, n);
        continue;
      }
      if (nextQuote !== -1 && nextQuote < i) nextQuote = b.indexOf(QUOTE, i);
      if (nextBackslash !== -1 && nextBackslash < i) nextBackslash = b.indexOf(BACKSLASH, i);
      // A backslash before the next quote: the byte after it (a quote, perhaps in the next chunk) is skipped.
      if (nextBackslash !== -1 && (nextQuote === -1 || nextBackslash < nextQuote)) {
        this.escaped = true;
        i = nextBackslash + 1;
        continue;
      }
      if (nextQuote === -1) return;
      this.inString = false;
      i = nextQuote + 1;
    }
  }

  /** A key's bytes from `i`, hashed (FNV-1a, two offsets) until its closing quote; an escape: it may be spelt twice. */
  private key(b: Buffer, i: number, n: number): number {
    let a = this.ha, h = this.hb;
    for (; i < n; i++) {
      const c = b[i]!;
      if (c === QUOTE) {
        this.inKey = false;
        this.inString = false;
        if (!this.seen.add(a >>> 0, (h ^ (h >>> 15)) >>> 0)) this.keysTwice = true;
        return i + 1;
      }
      if (c === BACKSLASH) {
        this.keysTwice = true;
        this.inKey = false;
        this.escaped = true;
        return i + 1;
      }
      a = Math.imul(a ^ c, 0x01000193);
      h = Math.imul(h ^ c, 0x5bd1e995);
    }
    this.ha = a;
    this.hb = h;
    return i;
  }

  /** Reads outside strings from `i` until a string opens (past its quote) or the chunk ends. */
  private outside(b: Buffer, i: number, n: number): number {
    for (; i < n; i++) {
      const c = b[i]!;
      if (c === QUOTE) {
        this.inString = true;
        const d = this.depth;
        if (d <= this.keyDepth && this.kind[d] === OBJECT && this.expectKey[d] === 1) {
          this.expectKey[d] = 0;
          this.inKey = true;
          const s = this.serial[d]!;
          this.ha = Math.imul(0x811c9dc5 ^ s, 0x01000193);
          this.hb = Math.imul((0x01000193 ^ 0x9e3779b9) ^ s, 0x5bd1e995);
        }
        return i + 1;
      }
      if (c === COMMA) this.comma();
      else if (c === OPEN_OBJ || c === OPEN_ARR) this.open(c === OPEN_ARR);
      else if ((c === CLOSE_OBJ || c === CLOSE_ARR) && this.depth > 0) this.depth--;
    }
    return i;
  }

  private comma(): void {
    this.values++;
    const d = this.depth;
    if (d === 0 || d > MAX_JSON_DEPTH) return;
    const items = ++this.commas[d]! + 1;
    const kind = this.kind[d];
    if (kind === ARRAY) {
      if (items > this.longest) this.longest = items;
      return;
    }
    if (kind === OBJECT) this.expectKey[d] = 1;
    if (items > WIDE) this.wide += items === WIDE + 1 ? items : 1;
  }

  private open(array: boolean): void {
    this.values++;
    const d = ++this.depth;
    if (d > this.deepest) this.deepest = d;
    if (d > MAX_JSON_DEPTH) return;
    this.commas[d] = 0;
    if (array) {
      this.kind[d] = ARRAY;
      if (this.longest === 0) this.longest = 1;
      return;
    }
    // An object of the skeleton: the body's, or a member's value of one, down to keyDepth.
    const skeleton = d <= this.keyDepth && (d === 1 || this.kind[d - 1] === OBJECT);
    this.kind[d] = skeleton ? OBJECT : OTHER;
    if (!skeleton) return;
    this.serial[d] = ++this.objects;
    this.expectKey[d] = 1;
  }
}

const OTHER = 0, ARRAY = 1, OBJECT = 2;

/** Pairs of 32-bit hashes, remembered (open addressing, linear probing; grows at half full). */
class KeySet {
  private cells = new Uint32Array(2 * 1024);
  private size = 0;

  /** Adds the pair; false when it was there already. */
  add(a: number, b: number): boolean {
    // 0, 0 marks an empty cell: a pair that hashes to it is moved.
    if (a === 0 && b === 0) b = 1;
    if (2 * (this.size + 1) > this.cells.length / 2) this.grow();
    const mask = this.cells.length / 2 - 1;
    for (let at = a & mask; ; at = (at + 1) & mask) {
      const x = this.cells[2 * at]!, y = this.cells[2 * at + 1]!;
      if (x === 0 && y === 0) {
        this.cells[2 * at] = a;
        this.cells[2 * at + 1] = b;
        this.size++;
        return true;
      }
      if (x === a && y === b) return false;
    }
  }

  private grow(): void {
    const old = this.cells;
    this.cells = new Uint32Array(old.length * 2);
    this.size = 0;
    for (let i = 0; i < old.length; i += 2) if (old[i] !== 0 || old[i + 1] !== 0) this.add(old[i]!, old[i + 1]!);
  }
}
