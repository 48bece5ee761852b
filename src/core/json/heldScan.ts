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
// One pass, character by character outside strings (a chunk read as Latin-1: one character a byte, its code
// the byte's), a string's characters skipped by indexOf (the next quote and the next backslash, each looked
// up again only once passed) unless it is a key of the skeleton.
// The same pass is THE measure of nesting: a whole text (jsonTextTooDeep, ./depth.ts) is fed to it as one
// chunk (nestedPast), nothing counted but the nesting, a newline also ending a string (JSON-like text being
// edited, read as jsonc-parser reads it). Brackets, quotes and backslashes are ASCII: a text's UTF-16 units
// and a body's bytes are read alike, and `past` is in the one or the other.
const QUOTE = 0x22, BACKSLASH = 0x5c, OPEN_OBJ = 0x7b, OPEN_ARR = 0x5b, CLOSE_OBJ = 0x7d, CLOSE_ARR = 0x5d, COMMA = 0x2c;
/** An object past this many members is wide: V8 holds it as a dictionary (past about 1 020 properties), each key at its own cost. */
const WIDE = 1000;

export class HeldScan {
  bytes = 0;
  values = 1;
  longest = 0;
  /** Members of the objects past WIDE members, summed (an upper bound: one more than their commas). */
  wide = 0;
  deepest = 0;
  /** Where the first bracket deeper than the limit is (its offset in all that was pushed), or -1. */
  past = -1;
  keysTwice = false;
  private depth = 0;
  private inString = false;
  private escaped = false;
  /** A newline ends a string too (a whole text's measure, nestedPast). */
  private lines = false;
  /** The offset of the chunk being read. */
  private start = 0;
  // Per open container: an array, or an object of the skeleton (kind), and its commas so far.
  private readonly kind: Uint8Array;
  private readonly commas: Int32Array;
  // The skeleton's objects: a serial number each (the keys of one are told from another's), and whether its next string is a key.
  private readonly serial: Int32Array;
  private readonly expectKey: Uint8Array;
  private objects = 0;
  // The key being read (its hashes so far), or not.
  private inKey = false;
  private ha = 0;
  private hb = 0;
  private seen: KeySet | undefined;

  /**
   * @param limit the deepest nesting read (the streamed read's, MAX_JSON_DEPTH): `tooDeep` past it.
   * @param keyDepth the skeleton's depth (see the head of this file); 0: no key is read.
   * @param counted the containers whose items are counted (`longest`, `wide`, the skeleton's keys): those
   *   down to this depth (a body deeper than `limit` is refused, its counts of no use); 0: none.
   */
  constructor(private readonly limit: number, private readonly keyDepth = 2, private readonly counted = limit) {
    const slots = Math.max(counted, keyDepth) + 2;
    this.kind = new Uint8Array(slots);
    this.commas = new Int32Array(slots);
    this.serial = new Int32Array(slots);
    this.expectKey = new Uint8Array(slots);
  }

  /**
   * Where a whole text (JSON, or JSON-like: a newline also ends a string) first nests deeper than `limit`:
   * the offset of that bracket, or -1. The text is one chunk, each UTF-16 unit read as a byte would be.
   */
  static nestedPast(text: string, limit: number): number {
    const scan = new HeldScan(limit, 0, 0);
    scan.lines = true;
    scan.read(text);
    return scan.past;
  }

  /** Whether the body nests deeper than the streamed read reads (it then says so in its own words). */
  get tooDeep(): boolean {
    return this.deepest > this.limit;
  }

  push(b: Buffer): void {
    // Latin-1: one character per byte, its code the byte's (a key hashes the same bytes).
    this.read(b.toString('latin1'));
  }

  private read(s: string): void {
    const n = s.length;
    this.start = this.bytes;
    this.bytes += n;
    let i = 0;
    let nextQuote = -2;
    let nextBackslash = -2;
    // A whole text's string also ends at a line break (a CR or an LF), as the JSON reader of texts ends it.
    let nextNewline = this.lines ? -2 : -1;
    let nextReturn = nextNewline;
    while (i < n) {
      if (!this.inString) {
        i = this.outside(s, i, n);
        continue;
      }
      if (this.escaped) {
        this.escaped = false;
        i++;
        continue;
      }
      if (this.inKey) {
        i = this.key(s, i, n);
        continue;
      }
      if (nextQuote !== -1 && nextQuote < i) nextQuote = s.indexOf('"', i);
      if (nextBackslash !== -1 && nextBackslash < i) nextBackslash = s.indexOf('\\', i);
      if (nextNewline !== -1 && nextNewline < i) nextNewline = s.indexOf('\n', i);
      if (nextReturn !== -1 && nextReturn < i) nextReturn = s.indexOf('\r', i);
      const lineEnd = nextReturn === -1 || (nextNewline !== -1 && nextNewline < nextReturn) ? nextNewline : nextReturn;
      const end = lineEnd === -1 || (nextQuote !== -1 && nextQuote < lineEnd) ? nextQuote : lineEnd;
      // A backslash before the string's end: the character after it (a quote, perhaps in the next chunk) is skipped.
      if (nextBackslash !== -1 && (end === -1 || nextBackslash < end)) {
        this.escaped = true;
        i = nextBackslash + 1;
        continue;
      }
      if (end === -1) return;
      this.inString = false;
      i = end + 1;
    }
  }

  /** A key's bytes from `i`, hashed (FNV-1a, two offsets) until its closing quote; an escape: it may be spelt twice. */
  private key(s: string, i: number, n: number): number {
    let a = this.ha, h = this.hb;
    for (; i < n; i++) {
      const c = s.charCodeAt(i);
      if (c === QUOTE) {
        this.inKey = false;
        this.inString = false;
        if (!(this.seen ??= new KeySet()).add(a >>> 0, (h ^ (h >>> 15)) >>> 0)) this.keysTwice = true;
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
  private outside(s: string, i: number, n: number): number {
    for (; i < n; i++) {
      const c = s.charCodeAt(i);
      if (c === QUOTE) {
        this.inString = true;
        const d = this.depth;
        if (d <= this.keyDepth && this.kind[d] === OBJECT && this.expectKey[d] === 1) {
          this.expectKey[d] = 0;
          this.inKey = true;
          const serial = this.serial[d]!;
          this.ha = Math.imul(0x811c9dc5 ^ serial, 0x01000193);
          this.hb = Math.imul((0x01000193 ^ 0x9e3779b9) ^ serial, 0x5bd1e995);
        }
        return i + 1;
      }
      if (c === COMMA) this.comma();
      else if (c === OPEN_OBJ || c === OPEN_ARR) this.open(c === OPEN_ARR, i);
      else if ((c === CLOSE_OBJ || c === CLOSE_ARR) && this.depth > 0) this.depth--;
    }
    return i;
  }

  private comma(): void {
    this.values++;
    const d = this.depth;
    if (d === 0 || d > this.counted) return;
    const items = ++this.commas[d]! + 1;
    const kind = this.kind[d];
    if (kind === ARRAY) {
      if (items > this.longest) this.longest = items;
      return;
    }
    if (kind === OBJECT) this.expectKey[d] = 1;
    if (items > WIDE) this.wide += items === WIDE + 1 ? items : 1;
  }

  /** A bracket opening at `i` of the chunk. */
  private open(array: boolean, i: number): void {
    this.values++;
    const d = ++this.depth;
    if (d > this.deepest) {
      this.deepest = d;
      if (d === this.limit + 1) this.past = this.start + i;
    }
    if (d > this.counted) return;
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
