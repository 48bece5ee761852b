// The rows of every array one or two levels down of an object body (a "lane": src/core/json/arrayLanes.ts),
// split out as they arrive and kept only while the one rows rule (rows.ts, asked through `find`) may
// still choose their array:
// - a lane is cheap until it is worth it (lane.ts): held while small, split at its close; split as it
//   arrives once it grows past LAZY_BYTES;
// - each lane's rows are split by the row splitter as its own array (`{"r":[…]}`), counted, and the
//   first ROWS_SAMPLE of them weighed as the rule weighs them (objects or not);
// - after each chunk, the rule is asked of the lanes still kept and those closed in it (their
//   placeholders, in body order, at their depths; of lanes it cannot tell apart, the first and last):
//   the lanes it does not choose are dropped (their rows can never be THE rows), so at most a few lanes
//   hold rows at once;
// - a lane's rows are held in memory up to 1 MiB; past it they go to the tentative page of the sink (the
//   first such lane, written as it arrives: --out grows with the download) or, when that is taken, to a
//   spill file (0600, removed after);
// - at the end the caller asks the rule of the whole skeleton and names the lane: its tentative page is
//   kept, or its kept rows written; every other lane's rows go. A body cut short asks the rule of the
//   lanes alone, with the rows fully received.
import { recycleBlocks } from '../export/byteBlocks';
import { RowsRefusedError } from '../export/splitResult';
import type { HeldPage } from '../export/sink';
import { ownField, setOwnField } from '../json/ownField';
import { openSpill, type Spill } from '../json/spill';
import { Lane, NO_KEYS, SmallLanes } from './lane';
import { isRecord, placeholderRows, type RowsFound } from './rows';

/** Whole rows as NDJSON lines, how many, and the row keys that may name a secret. */
export type RowsWrite = (ndjson: readonly Buffer[], rows: number, secretKeyCandidates: ReadonlySet<string>) => Promise<void>;

const BATCH_BYTES = 1 << 20;
const MEMORY_BYTES = 1 << 20;
const NEWLINE = 0x0a;

/** A lane read to its end and dropped: what `fill` sets in the skeleton, and nothing more. */
interface Forgotten {
  readonly keys: readonly string[];
  readonly count: number;
  readonly sampled: number;
  readonly objects: number;
}

/** What the chosen lane gave: its rows' count, how many were written, and those not written (no writer). */
export interface LaneOutcome {
  readonly rowCount: number;
  readonly written: number;
  readonly ndjson: readonly Buffer[];
  readonly secretKeyCandidates: ReadonlySet<string>;
}

export class LaneRows {
  private readonly lanes: (Lane | Forgotten)[] = [];
  private current: Lane | undefined;
  private closed: Lane[] = [];
  private kept: Lane[] = [];
  private paged: Lane | undefined;
  private readonly small = new SmallLanes();

  /**
   * @param find the rows rule.
   * @param store whether rows are kept at all (else only counted and weighed).
   * @param tentative a page of the sink written as it arrives and kept or dropped at the end.
   */
  constructor(private readonly find: (body: unknown) => RowsFound, private readonly store: boolean, private readonly tentative?: () => HeldPage | undefined) {}

  open(keys: readonly string[]): void {
    this.current = new Lane(keys, this.lanes.length);
    this.lanes.push(this.current);
  }

  /** Bytes of the lane being read. Throws MalformedJsonError (maybe for bytes held before). */
  inside(bytes: Buffer): void {
    this.current?.push(bytes);
  }

  /** The lane being read ends. Throws MalformedJsonError (the lane is closed all the same, its rows before the fault kept). */
  close(): void {
    const lane = this.current;
    if (!lane) return;
    this.current = undefined;
    this.closed.push(lane);
    lane.close(this.small);
  }

  /** After a chunk: full batches moved on, the lanes closed in it weighed, at once, against those kept. */
  async settle(): Promise<void> {
    // The chunk the lane being read holds views of is done with: its bytes so far are its own now.
    this.current?.own();
    if (this.current?.out && this.current.out.length >= BATCH_BYTES) await this.move(this.current);
    const closed = this.closed;
    if (closed.length === 0) return;
    this.closed = [];
    for (const lane of closed) await this.move(lane);
    await this.weigh([...this.kept, ...closed]);
    for (const lane of closed) lane.release();
  }

  /** The lane being read when the body was cut or broken: its whole rows split, then closed. */
  private cutShort(): void {
    const lane = this.current;
    if (!lane) return;
    this.current = undefined;
    try {
      lane.open();
    } catch {
      // Not JSON past its whole rows: those are what it keeps.
    }
    this.closed.push(lane);
  }

  /**
   * The body ended whole: every lane's placeholder set in its place of `skeleton` (depth-1 lanes are the
   * splitter's own placeholders, `splitterLanes`, in body order); returns the lane whose placeholder is `rows`.
   */
  fill(skeleton: Record<string, unknown>, splitterLanes: readonly { readonly items: unknown[] }[]): (rows: readonly unknown[]) => number | undefined {
    // By place, in lane order (no map: a body may hold 200 000 lanes, and the rule is asked once). Two lanes
    // may share one (a key given again): the later one is it, as JSON.parse keeps the later copy.
    const placed: (unknown[] | undefined)[] = new Array<unknown[] | undefined>(this.lanes.length);
    let top = 0;
    for (let order = 0; order < this.lanes.length; order++) {
      const lane = this.lanes[order]!;
      const items = lane.keys.length === 1 ? splitterLanes[top++]?.items : innerArray(skeleton, lane.keys);
      if (!items) continue;
      placeholderRows(items, lane.count, lane.sampled, lane.objects);
      placed[order] = items;
    }
    return (rows) => {
      const order = placed.lastIndexOf(rows as unknown[]);
      return order === -1 ? undefined : order;
    };
  }

  /** The body was cut or broken: the rule asked of the lanes alone, their rows fully received. */
  async rescue(write: RowsWrite | undefined): Promise<LaneOutcome | undefined> {
    this.cutShort();
    await this.settle();
    const chosen = this.kept.length === 1 ? this.kept[0] : undefined;
    return chosen ? this.finish(chosen.order, write) : (await this.dropAll(), undefined);
  }

  /** Keeps the rows of the lane `order` (written with `write`, else handed back) and drops every other. */
  async finish(order: number | undefined, write: RowsWrite | undefined): Promise<LaneOutcome | undefined> {
    this.cutShort();
    await this.settle().catch(() => undefined);
    const lane = order === undefined ? undefined : this.lanes[order];
    for (const other of this.lanes) if (other !== lane) await this.drop(other);
    if (!lane) return undefined;
    // A lane dropped before the end, which the rule at the end picks after all (the body gave its key again,
    // or a key ordered before it came later): its rows are gone, and saying so beats counting rows never kept.
    if (!(lane instanceof Lane)) {
      if (lane.count === 0) return { rowCount: 0, written: 0, ndjson: [], secretKeyCandidates: NO_KEYS };
      throw new RowsRefusedError(`the rows are the array at "${lane.keys.join('.')}", but it was passed over while the body arrived (a key given again later, or one that orders before it): its ${lane.count} rows were not kept; name the rows with items=`);
    }
    const keys = lane.secretKeyCandidates;
    if (lane.page) {
      await lane.writing;
      await lane.page.keep();
      return { rowCount: lane.count, written: lane.count, ndjson: [], secretKeyCandidates: keys };
    }
    if (!write) {
      const ndjson = [...lane.memory];
      if (lane.spill) await lane.spill.readBack((piece) => { ndjson.push(Buffer.from(piece)); });
      await lane.spill?.remove();
      return { rowCount: lane.count, written: 0, ndjson, secretKeyCandidates: keys };
    }
    if (lane.memory.length > 0) await write(lane.memory, countLines(lane.memory), keys);
    if (lane.spill) {
      await copyLines(lane.spill, (ndjson, rows) => write(ndjson, rows, keys));
      await lane.spill.remove();
    }
    return { rowCount: lane.count, written: lane.count, ndjson: [], secretKeyCandidates: keys };
  }

  /** Drops every lane's rows (a body held whole after all, or a failure). */
  async dropAll(): Promise<void> {
    for (const lane of this.lanes) await this.drop(lane)?.catch(() => undefined);
  }

  /** The rows the splitter has cut whole go on: to the page, the spill, memory, or nowhere (a promise only when they go to a file). */
  private move(lane: Lane): Promise<void> | undefined {
    const taken = lane.take();
    const rows = lane.count - lane.moved;
    lane.moved = lane.count;
    lane.sample(taken);
    if (!this.store || lane.dropped) {
      recycleBlocks(taken);
      return undefined;
    }
    let bytes = 0;
    for (const piece of taken) bytes += piece.length;
    if (!lane.page && !lane.spill && lane.memoryBytes + bytes <= MEMORY_BYTES) {
      lane.memory.push(...taken);
      lane.memoryBytes += bytes;
      return undefined;
    }
    return this.moveOn(lane, taken, rows, bytes);
  }

  private async moveOn(lane: Lane, taken: Buffer[], rows: number, bytes: number): Promise<void> {
    if (!lane.page && !lane.spill && lane.memoryBytes + bytes > MEMORY_BYTES) await this.overflow(lane);
    if (lane.page) {
      // One batch written while the next is split (the one before must be written first: rows stay in order).
      await lane.writing;
      const page = lane.page;
      lane.writing = page.writeNdjson(taken, rows, lane.secretKeyCandidates).then(() => recycleBlocks(taken));
      lane.writing.catch(() => undefined);
    } else if (lane.spill) {
      for (const piece of taken) await lane.spill.write(piece);
      recycleBlocks(taken);
    } else {
      lane.memory.push(...taken);
      lane.memoryBytes += bytes;
    }
  }

  /** A lane's rows past the memory bound: to the tentative page when free, else to a spill file. */
  private async overflow(lane: Lane): Promise<void> {
    const page = this.paged ? undefined : this.tentative?.();
    if (page) {
      this.paged = lane;
      lane.page = page;
      if (lane.memory.length > 0) await page.writeNdjson(lane.memory, countLines(lane.memory), lane.secretKeyCandidates);
    } else {
      lane.spill = await openSpill();
      for (const piece of lane.memory) await lane.spill.write(piece);
    }
    lane.memory = [];
    lane.memoryBytes = 0;
  }

  /**
   * The rule asked of these lanes (in body order): those it does not choose are dropped. Of lanes it
   * cannot tell apart (sameWeight) it is asked of the first and last only: it sees their placeholders,
   * equal, so it picks among them by place, and the ones between go without a look.
   */
  private async weigh(lanes: readonly Lane[]): Promise<void> {
    const asked = standIns(lanes);
    const { body, reachable } = skeletonOf(asked);
    const found = this.find(body);
    const chosen = found.ok ? asked.find((l) => l.items === found.rows) : undefined;
    const askedOf = new Set(asked);
    const kept: Lane[] = [];
    for (const lane of lanes) {
      if (lane === chosen || (!reachable.has(lane) && askedOf.has(lane))) kept.push(lane);
      else {
        const dropping = this.drop(lane);
        if (dropping) await dropping;
        // Read to its end: only its placeholder's facts stay (a body may hold 200 000 small arrays).
        if (!lane.splitter) this.lanes[lane.order] = { keys: lane.keys, count: lane.count, sampled: lane.sampled, objects: lane.objects };
      }
    }
    this.kept = kept;
  }

  /** Its rows go (a promise only when a file or page has to go too). */
  private drop(lane: Lane | Forgotten): Promise<void> | undefined {
    if (!(lane instanceof Lane) || lane.dropped) return undefined;
    lane.dropped = true;
    recycleBlocks(lane.take());
    recycleBlocks(lane.memory);
    lane.memory = [];
    lane.memoryBytes = 0;
    const { spill, page, writing } = lane;
    lane.spill = undefined;
    lane.page = undefined;
    if (this.paged === lane) this.paged = undefined;
    if (!spill && !page && !writing) return undefined;
    return (async () => {
      await writing?.catch(() => undefined);
      await spill?.remove();
      await page?.drop();
    })();
  }
}

/**
 * The array at `keys` (two or more: `outer.inner`, or an items= path) of the skeleton: the objects on the
 * way made where they were not kept (too large), as the rule reads it. A kept object holds each of its
 * arrays (their content elided): when the one holding the last key lacks it, that array was in an earlier
 * copy of the object the body gave again, which JSON.parse does not keep either (undefined); so is a
 * value not an array in its place (the later copy's).
 */
function innerArray(skeleton: Record<string, unknown>, keys: readonly string[]): unknown[] | undefined {
  let holder: unknown = skeleton;
  let kept = true;
  // By index, not a slice of the keys: asked once for each of up to 200 000 lanes.
  for (let k = 0; k < keys.length - 1; k++) {
    const key = keys[k]!;
    const outer = holder as Record<string, unknown>;
    kept = Object.hasOwn(outer, key);
    holder = kept ? outer[key] : undefined;
    if (!kept) {
      holder = {};
      setOwnField(outer, key, holder);
    }
    if (!isRecord(holder)) return undefined;
  }
  const inner = keys[keys.length - 1]!;
  const last = holder as Record<string, unknown>;
  if (!kept) setOwnField(last, inner, []);
  // A kept object without the array, or with something else there (a number, null, an object): the body
  // gave the object again and JSON.parse keeps the later copy, so this lane is not in it.
  const found = ownField(last, inner);
  return Array.isArray(found) ? found : undefined;
}


/**
 * The lanes the rule is asked of: of those it cannot tell apart, the first and the last. Two lanes look
 * the same to it when their placeholders are equal (count, sample and its objects) at one depth, under
 * keys no other lane here shares (a key given twice, at the top or under one outer key, changes which
 * one it sees, and where: those lanes are all asked).
 */
function standIns(lanes: readonly Lane[]): readonly Lane[] {
  if (lanes.length <= 2) return lanes;
  const outers = new Map<string, { depth: number; paths: Set<string> }>();
  const shared = new Set<string>();
  let lastOuter: string | undefined;
  for (const lane of lanes) {
    const outer = lane.keys[0]!;
    const seen = outers.get(outer);
    const path = lane.keys.length === 1 ? '' : lane.keys[1]!;
    if (!seen) outers.set(outer, { depth: lane.keys.length, paths: new Set([path]) });
    else if (seen.depth !== lane.keys.length || lane.keys.length === 1 || lastOuter !== outer || seen.paths.has(path)) shared.add(outer);
    else seen.paths.add(path);
    lastOuter = outer;
  }
  // An array-index key ("7") goes before every other key of its object (Object.keys order, the rule's
  // order): such a lane is always asked, never stood in for.
  for (const lane of lanes) if (lane.keys.some(indexKey)) shared.add(lane.keys[0]!);
  const classes = new Map<string, { first: Lane; last: Lane }>();
  for (const lane of lanes) {
    if (shared.has(lane.keys[0]!)) continue;
    const weight = `${lane.keys.length} ${lane.count} ${lane.sampled} ${lane.objects}`;
    const same = classes.get(weight);
    if (same) same.last = lane;
    else classes.set(weight, { first: lane, last: lane });
  }
  const asked = new Set<Lane>();
  for (const { first, last } of classes.values()) asked.add(first).add(last);
  return lanes.filter((lane) => shared.has(lane.keys[0]!) || asked.has(lane));
}

/** A key JavaScript orders before the others of its object: an array index (0 … 2^32 - 2, as String() writes it). */
function indexKey(key: string): boolean {
  return /^(0|[1-9][0-9]{0,9})$/.test(key) && Number(key) < 4294967295;
}

/** The lanes as the rule would see them alone, in body order; which of them it can see (a key given twice hides one). */
function skeletonOf(lanes: readonly Lane[]): { body: Record<string, unknown>; reachable: Set<Lane> } {
  const body: Record<string, unknown> = {};
  for (const lane of lanes) {
    // Each object on the way made anew where the body so far holds none (an array the key held before goes).
    let holder = body;
    for (const key of lane.keys.slice(0, -1)) {
      const own = ownField(holder, key);
      const next = isRecord(own) ? own : {};
      setOwnField(holder, key, next);
      holder = next;
    }
    setOwnField(holder, lane.keys[lane.keys.length - 1]!, lane.placeholder());
  }
  const reachable = new Set<Lane>();
  for (const lane of lanes) {
    let at: unknown = body;
    for (const key of lane.keys) at = isRecord(at) ? ownField(at, key) : undefined;
    if (at === lane.items) reachable.add(lane);
  }
  return { body, reachable };
}

function countLines(pieces: readonly Buffer[]): number {
  let n = 0;
  for (const piece of pieces) for (let i = piece.indexOf(NEWLINE); i !== -1; i = piece.indexOf(NEWLINE, i + 1)) n++;
  return n;
}

/** A spilled lane's lines read back in whole-row batches (a piece read may end inside a row). */
async function copyLines(spill: Spill, write: (ndjson: readonly Buffer[], rows: number) => Promise<void>): Promise<void> {
  let carry: Buffer | undefined;
  await spill.readBack(async (piece) => {
    const joined = carry ? Buffer.concat([carry, piece]) : piece;
    const last = joined.lastIndexOf(NEWLINE);
    carry = last + 1 < joined.length ? Buffer.from(joined.subarray(last + 1)) : undefined;
    if (last >= 0) await write([joined.subarray(0, last + 1)], countLines([joined.subarray(0, last + 1)]));
  });
}
