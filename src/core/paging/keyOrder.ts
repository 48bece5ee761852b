// Where a key of an object body was first given, remembered in a fixed size whatever the number of keys
// (a body may hold millions): JSON.parse keeps a key given twice at its FIRST place, so a lane whose key
// came before may stand earlier than it arrived, and the rows rule breaks ties by place (rows.ts step 5).
// A "first-seen sketch": each key sets SKETCH_HASHES cells to the smallest sequence number that reached
// them; the largest of its cells is a lower bound of its first place (never later than the truth), and
// an unseen key reads Infinity as soon as one of its cells is empty. So `firstAt(key) >= n` proves the
// key first came at or after n; a smaller figure is a doubt (the key may have come before, or its cells
// were all reached earlier by other keys: likelier the more keys came before n, see laneRows.ts).
// Fixed memory: SKETCH_CELLS 32-bit cells (4 MiB), made at the first key: it saturates past about a
// million keys, after which a tie with rows first reached that late is always a doubt.

export const SKETCH_CELLS = 1 << 20;
const SKETCH_HASHES = 3;
const MASK = SKETCH_CELLS - 1;

/** Two 32-bit hashes of a key's text (FNV-1a with two offsets): one key, whatever its escapes, one pair. */
export function keyHashes(bytes: Buffer, from: number, to: number): [number, number] {
  let a = 0x811c9dc5, b = 0x01000193 ^ 0x9e3779b9;
  for (let i = from; i < to; i++) {
    const c = bytes[i]!;
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
  }
  b ^= b >>> 15;
  return [a >>> 0, (b | 1) >>> 0];
}

/** A pair of hashes mixed with a number (an inner key within one copy of its outer object). */
export function mixedHashes(h: readonly [number, number], n: number): [number, number] {
  const m = Math.imul(n ^ (n >>> 16), 0x45d9f3b);
  return [(h[0] ^ m) >>> 0, (Math.imul(h[1] ^ (m >>> 7), 0x27d4eb2d) | 1) >>> 0];
}

export class KeyOrder {
  private cells: Uint32Array | undefined;

  /**
   * The key is given at `at` (0 … 2^32 - 2): noted, and a lower bound of where it was first given before
   * returned (Infinity: never before). One pass over its cells: a body may give millions of keys.
   */
  note(h: readonly [number, number], at: number): number {
    const cells = (this.cells ??= new Uint32Array(SKETCH_CELLS));
    let first = 0;
    let unseen = false;
    for (let k = 0; k < SKETCH_HASHES; k++) {
      const i = (h[0] + k * h[1]) & MASK;
      const cell = cells[i]!;
      if (cell === 0) unseen = true;
      else if (cell - 1 > first) first = cell - 1;
      if (cell === 0 || cell > at + 1) cells[i] = at + 1;
    }
    return unseen ? Infinity : first;
  }
}
