// What laneRows.ts must still know of an object body's keys once it lets the arrays the rule passed over
// go entirely (past the skeleton's budget: no placeholder, no record; a body may hold millions of them).
// The rows rule (rows.ts, asked here, never copied) picks the largest array, ties to the first in place.
// Lanes weighed in arrival order are weighed in place unless a key was given twice (JSON.parse keeps the
// LAST copy at the FIRST copy's place), so two things can make the answer depend on a lane let go:
// - a lane kept is given again later (its key, or the object holding it): it is void, and the rows may be
//   a lane let go while it was kept (all of them no stronger than it): it becomes the `lost` bound;
// - a lane let go whose key may have come before the kept one's (KeyOrder: a lower bound of a key's first
//   place) may stand before it, and win a tie: it becomes the `lost` bound.
// `lost` is the strongest of those by the rule (asked of the two alone, the earlier placed first); at the
// end, when the rule asked of `lost` placed first and the rows it chose prefers `lost`, the body is refused
// in words (RowsRefusedError: name the rows with items=), never answered with other rows. Exact keys are
// seen one chunk at a time (the chunk's key log) and, for the few lanes kept, as they come.
// A body that gives no key twice is refused only when the rows tie a lane let go that came after them and
// whose cells the keys before the rows all reached (KeyOrder's doubt): rare unless a million keys come
// before rows that tie later arrays (keyOrder.ts).
import { KeyOrder, mixedHashes } from './keyOrder';
import { placeholderRows, type RowsFound } from './rows';

/** Where a lane's keys were given: sequence numbers of the key events, their first places (lower bounds), hashes. */
export interface KeyPlace {
  readonly outerAt: number;
  readonly outerFirst: number;
  readonly outerHash: readonly [number, number];
  readonly innerAt: number;
  readonly innerFirst: number;
  readonly innerHash: readonly [number, number];
}

/** What the rule weighs of a lane: its keys (depth), count and sample. */
export interface Weighed {
  readonly keys: readonly string[];
  readonly count: number;
  readonly sampled: number;
  readonly objects: number;
}

const NO_HASH: readonly [number, number] = [0, 0];

/** A key JavaScript orders before the others of its object: an array index (0 … 2^32 - 2, as String() writes it). */
export function indexKey(key: string): boolean {
  const first = key.charCodeAt(0);
  if (!(first >= 0x30 && first <= 0x39)) return false;
  return /^(0|[1-9][0-9]{0,9})$/.test(key) && Number(key) < 4294967295;
}

export class LaneDoubts {
  private readonly order = new KeyOrder();
  private seq = 0;
  private outerAt = 0;
  private outerFirst = Infinity;
  private outerHash = NO_HASH;
  private innerAt = 0;
  private innerFirst = Infinity;
  private innerHash = NO_HASH;
  // The keys of this chunk: sequence number, depth, hashes.
  private logAt = new Float64Array(256);
  private logH = new Uint32Array(512);
  private logDepth = new Uint8Array(256);
  private logN = 0;
  /** A lane was let go entirely (past the budget): the skeleton no longer tells every array. */
  forgot = false;
  /** The strongest lane let go that may be the rows after all (see above). */
  lost: Weighed | undefined;

  /** A key one or two levels down was given (ArrayLanes' key event): its place noted. */
  key(depth: number, hashes: readonly [number, number]): void {
    const at = ++this.seq;
    let h = hashes;
    if (depth === 1) {
      this.outerAt = at;
      this.outerFirst = this.order.note(h, at);
      this.outerHash = h;
    } else {
      // An inner key's place is within one copy of its outer object.
      h = mixedHashes(hashes, this.outerAt);
      this.innerAt = at;
      this.innerFirst = this.order.note(h, at);
      this.innerHash = h;
    }
    this.log(depth, h, at);
  }

  /** The place of a lane opening now with `depth` keys. */
  place(depth: number): KeyPlace {
    const inner = depth === 2;
    return {
      outerAt: this.outerAt, outerFirst: this.outerFirst, outerHash: this.outerHash,
      innerAt: inner ? this.innerAt : 0, innerFirst: inner ? this.innerFirst : Infinity, innerHash: inner ? this.innerHash : NO_HASH,
    };
  }

  /** Whether the key just given voids the lane (a later copy of its key, or of its outer object). */
  voidsNow(keys: readonly string[], at: KeyPlace): boolean {
    const n = this.logN - 1;
    return n >= 0 && this.voids(keys, at, this.logDepth[n]!, this.logH[2 * n]!, this.logH[2 * n + 1]!, this.logAt[n]!);
  }

  /** Whether a key of this chunk after the lane's voids it. */
  givenAgain(keys: readonly string[], at: KeyPlace): boolean {
    for (let i = 0; i < this.logN; i++) if (this.voids(keys, at, this.logDepth[i]!, this.logH[2 * i]!, this.logH[2 * i + 1]!, this.logAt[i]!)) return true;
    return false;
  }

  /** The chunk was weighed: its keys are no longer looked through. */
  settled(): void {
    this.logN = 0;
  }

  /** Whether `x` may stand before `kept` in the body although it came after (a key of it given before). */
  maybeBefore(x: Weighed & { readonly at: KeyPlace }, kept: Weighed & { readonly at: KeyPlace }): boolean {
    if (x.keys.length !== kept.keys.length || x.keys.length > 2) return false;
    if (x.keys.length === 2 && x.at.outerAt === kept.at.outerAt) {
      return !indexKey(x.keys[1]!) && !indexKey(kept.keys[1]!) && x.at.innerFirst < kept.at.innerAt;
    }
    return !indexKey(x.keys[0]!) && !indexKey(kept.keys[0]!) && x.at.outerFirst < kept.at.outerAt;
  }

  /** `lane` may be the rows after all and its rows are gone: the bound of what was let go is the stronger of it and `lost`. */
  bound(lane: Weighed, find: (body: unknown) => RowsFound): void {
    const lost = this.lost;
    if (!lost) {
      this.lost = copyOf(lane);
      return;
    }
    const a = standIn(lost), b = standIn(lane);
    const body: Record<string, unknown> = {};
    put(body, 'a', lost.keys.length, a);
    put(body, 'b', lane.keys.length, b);
    const found = find(body);
    if (found.ok && found.rows === b) this.lost = copyOf(lane);
  }

  /** The bound the rule prefers, placed first, to the rows it chose (`found`, at `depth`): the lane let go that may be the rows. */
  refuses(found: RowsFound, depth: number, find: (body: unknown) => RowsFound): Weighed | undefined {
    const lost = this.lost;
    if (!lost) return undefined;
    const rows = standIn(lost);
    const body: Record<string, unknown> = {};
    put(body, 'a', lost.keys.length, rows);
    if (found.ok) put(body, 'b', Math.min(depth, 2), found.rows);
    const probe = find(body);
    return probe.ok && probe.rows === rows ? lost : undefined;
  }

  private voids(keys: readonly string[], at: KeyPlace, depth: number, h0: number, h1: number, seq: number): boolean {
    if (depth === 1) return seq > at.outerAt && h0 === at.outerHash[0] && h1 === at.outerHash[1];
    return keys.length === 2 && seq > at.innerAt && h0 === at.innerHash[0] && h1 === at.innerHash[1];
  }

  private log(depth: number, h: readonly [number, number], at: number): void {
    const n = this.logN;
    if (n === this.logAt.length) {
      const grow = <T extends Float64Array | Uint32Array | Uint8Array>(a: T, make: (n: number) => T): T => {
        const b = make(a.length * 2);
        b.set(a);
        return b;
      };
      this.logAt = grow(this.logAt, (m) => new Float64Array(m));
      this.logH = grow(this.logH, (m) => new Uint32Array(m));
      this.logDepth = grow(this.logDepth, (m) => new Uint8Array(m));
    }
    this.logAt[n] = at;
    this.logDepth[n] = depth;
    this.logH[2 * n] = h[0];
    this.logH[2 * n + 1] = h[1];
    this.logN = n + 1;
  }
}

function copyOf(lane: Weighed): Weighed {
  return { keys: lane.keys, count: lane.count, sampled: lane.sampled, objects: lane.objects };
}

function standIn(lane: Weighed): unknown[] {
  return placeholderRows([], lane.count, lane.sampled, lane.objects);
}

/** Sets `rows` at `key` (depth 1) or `key.key` (depth 2): neutral keys, no style's name, no error list. */
function put(body: Record<string, unknown>, key: string, depth: number, rows: readonly unknown[]): void {
  body[key] = depth >= 2 ? { [key]: rows } : rows;
}
