// The rows of every array one or two levels down of an object body (a "lane": src/core/json/arrayLanes.ts),
// split out as they arrive and kept only while the one rows rule (rows.ts, asked through `find`) may
// still choose their array:
// - a lane is cheap until it is worth it (lane.ts): held while small, counted at its close by JSON.parse
//   and split only if the rule keeps it; split as it arrives once it grows past LAZY_BYTES;
// - each lane's rows are split by the row splitter as its own array (`{"r":[…]}`), counted, and the
//   first ROWS_SAMPLE of them weighed as the rule weighs them (objects or not);
// - after each chunk, the rule is asked of the lanes still kept and those closed in it (their
//   placeholders, in body order, at their depths; of lanes it cannot tell apart, the first and last):
//   the lanes it does not choose are dropped (their rows can never be THE rows), so at most a few lanes
//   hold rows at once;
// - a lane's rows are held in memory up to 1 MiB; past it they go to the tentative page of the sink (the
//   first such lane, written as it arrives: --out grows with the download) or, when that is taken, to a
//   spill file (0600, removed after); a row too long to hold goes to a file of its own as it arrives
//   (laneStore.ts);
// - a lane dropped is remembered (a record of what the rule weighs) while the skeleton is within its
//   budget; past it, nothing of it stays (its key leaves the skeleton: a field not held, notHeld.ts), and
//   laneDoubts.ts keeps, in fixed memory, what a key given twice could change (else the body is refused);
// - at the end the caller asks the rule of the whole skeleton and names the lane: its tentative page is
//   kept, or its kept rows written; every other lane's rows go. A body cut short asks the rule of the
//   lanes alone, with the rows fully received.
import { recycleBlocks } from '../export/byteBlocks';
import { RowsRefusedError } from '../export/splitResult';
import type { HeldPage } from '../export/sink';
import { Lane, NO_KEYS, SmallLanes } from './lane';
import { copyLines, countLines } from './laneLines';
import { LaneDoubts } from './laneDoubts';
import { LaneStore } from './laneStore';
import { innerArray, skeletonOf, standIns } from './laneSkeleton';
import { placeholderRows, type RowsFound } from './rows';

/** Whole rows as NDJSON lines, how many, and the row keys that may name a secret. */
export type RowsWrite = (ndjson: readonly Buffer[], rows: number, secretKeyCandidates: ReadonlySet<string>) => Promise<void>;

const BATCH_BYTES = 1 << 20;

/** What a lane costs the skeleton's budget besides its keys: its record and placeholder. */
const LANE_BYTES = 256;

/** A lane read to its end and dropped within the skeleton's budget: what `fill` sets in the skeleton, and nothing more. */
interface Forgotten {
  readonly keys: readonly string[];
  readonly order: number;
  readonly count: number;
  readonly sampled: number;
  readonly objects: number;
  /** Its placeholder in the skeleton (one level down: the splitter's; two: set by `fill`). */
  items: unknown[] | undefined;
}

/** The skeleton's splitter, as the lanes see it: its budget, and the arrays one level down it let go. */
export interface SkeletonBudget {
  chargeLane(bytes: number): void;
  readonly pastBudget: boolean;
  forgetLane(key: string, items: unknown[]): void;
  keepLane(key: string, items: unknown[]): void;
}

/** What the chosen lane gave: its rows' count, how many were written, and those not written (no writer). */
export interface LaneOutcome {
  readonly rowCount: number;
  readonly written: number;
  readonly ndjson: readonly Buffer[];
  readonly secretKeyCandidates: ReadonlySet<string>;
}

export class LaneRows {
  /** Lanes dropped within the budget, in the order they were dropped. */
  private readonly records: Forgotten[] = [];
  private opened = 0;
  private readonly doubts = new LaneDoubts();
  /** The placeholder the skeleton's splitter just set for the array one level down opening now. */
  private splitterItems: unknown[] | undefined;
  private current: Lane | undefined;
  private closed: Lane[] = [];
  private kept: Lane[] = [];
  private readonly lanes: LaneStore;
  private readonly small = new SmallLanes();
  /** Drops under way (a lane voided by a key event, which cannot wait): every later write waits for them (dropped). */
  private dropping: Promise<void> | undefined;

  /**
   * @param find the rows rule.
   * @param store whether rows are kept at all (else only counted and weighed).
   * @param tentative a page of the sink written as it arrives and kept or dropped at the end.
   * @param skeleton the skeleton's splitter (its budget; past it, lanes dropped are let go entirely), for
   * an object's arrays one and two levels down (whose key events tell their places; not an items= path's).
   */
  constructor(private readonly find: (body: unknown) => RowsFound, private readonly store: boolean, tentative?: () => HeldPage | undefined, private readonly skeleton?: SkeletonBudget) {
    this.lanes = new LaneStore(store, tentative);
  }

  /** The skeleton's splitter set this placeholder for the array one level down that opens next. */
  splitterLane(items: unknown[]): void {
    this.splitterItems = items;
  }

  /** A key one or two levels down (ArrayLanes' key event): a lane kept whose key it gives again is void. */
  key(depth: number, hashes: [number, number]): void {
    this.doubts.key(depth, hashes);
    for (const lane of this.kept) if (this.doubts.voidsNow(lane.keys, lane.at)) this.void(lane);
  }

  open(keys: readonly string[]): void {
    const items = keys.length === 1 ? this.splitterItems : undefined;
    this.splitterItems = undefined;
    this.current = new Lane(keys, this.opened++, this.doubts.place(keys.length), items);
    let bytes = LANE_BYTES;
    for (const key of keys) bytes += key.length;
    this.skeleton?.chargeLane(bytes);
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

  /** The body ended with a lane open: its held bytes read now. Throws MalformedJsonError where they are not JSON (before their end). */
  ended(): void {
    this.current?.open();
  }

  /** After a chunk: full batches moved on, the lanes closed in it weighed, at once, against those kept (none closed: only the key log emptied, kept lanes were checked as each key came). */
  async settle(): Promise<void> {
    await this.dropped();
    // The chunk the lane being read holds views of is done with: its bytes so far are its own now.
    this.current?.own();
    const current = this.current;
    if (current && ((current.out && current.out.length >= BATCH_BYTES) || current.long?.pending)) await this.lanes.move(current);
    const closed = this.closed;
    if (closed.length === 0) return this.doubts.settled();
    // Awaited only when a file is written: a body of many small arrays closes thousands in a chunk. A move
    // that fails leaves them closed, still live: dropped with the rest (dropAll), their page and files too.
    for (const lane of closed) {
      const moving = this.lanes.move(lane);
      if (moving) await moving;
    }
    this.closed = this.closed.slice(closed.length);
    await this.weigh([...this.kept, ...closed]);
    // A lane kept that was only counted: its rows cut now, while its bytes are still the chunk's.
    for (const lane of this.kept.filter((l) => l.counted)) await this.lanes.move(lane.split(this.small));
    this.doubts.settled();
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
   * The body ended whole: the placeholder of every lane remembered (kept, or dropped within the budget)
   * set in its place of `skeleton`; returns the lane whose placeholder is `rows`.
   */
  fill(skeleton: Record<string, unknown>): (rows: readonly unknown[]) => Lane | Forgotten | undefined {
    // In body order: two lanes may share one place (a key given again): the later one is it, as JSON.parse keeps the later copy.
    const all: (Lane | Forgotten)[] = [...this.records, ...this.kept.filter((l) => !l.voided)].sort((a, b) => a.order - b.order);
    const placed: (unknown[] | undefined)[] = [];
    for (const lane of all) {
      const items = lane.keys.length === 1 ? lane.items : innerArray(skeleton, lane.keys, lane instanceof Lane && this.skeleton !== undefined, this.skeleton !== undefined);
      if (items) placeholderRows(items, lane.count, lane.sampled, lane.objects);
      if (!(lane instanceof Lane)) lane.items = items;
      placed.push(items);
    }
    return (rows) => {
      const at = placed.lastIndexOf(rows as unknown[]);
      return at === -1 ? undefined : all[at];
    };
  }

  /** Whether a lane let go may be the rows after all (check says). */
  get doubtful(): boolean {
    return this.doubts.lost !== undefined;
  }

  /**
   * The rows the rule chose in the skeleton (`found`, the array of `lane`): refused when a lane dropped
   * entirely may be the rows after all (a key given twice: laneDoubts.ts).
   */
  check(found: RowsFound, lane: Lane | Forgotten | undefined): void {
    const depth = lane ? lane.keys.length : found.ok ? found.path.split('.').length : 1;
    const lost = this.doubts.refuses(found, depth, this.find);
    if (!lost) return;
    throw new RowsRefusedError(`the rows cannot be told as the body streams: it gives the key "${lost.keys.join('.')}" twice (or may), so an array passed over while the body arrived, its rows not kept, may be the rows; name the rows with items=`);
  }

  /** The body was cut or broken: the rule asked of the lanes alone, their rows fully received. */
  async rescue(write: RowsWrite | undefined): Promise<LaneOutcome | undefined> {
    this.cutShort();
    await this.settle();
    const chosen = this.kept.length === 1 ? this.kept[0] : undefined;
    if (chosen) this.check({ ok: true, path: chosen.keys.join('.'), rows: chosen.placeholder() }, chosen);
    return chosen ? this.finish(chosen, write) : (await this.dropAll(), undefined);
  }

  /** Keeps the rows of `lane` (written with `write`, else handed back) and drops every other. */
  async finish(lane: Lane | Forgotten | undefined, write: RowsWrite | undefined): Promise<LaneOutcome | undefined> {
    this.cutShort();
    await this.settle().catch(() => undefined);
    for (const other of this.live()) if (other !== lane) await this.drop(other);
    await this.dropped();
    if (!lane) return undefined;
    // A long row still arriving when the body was cut is not a row: its file goes.
    if (lane instanceof Lane) await lane.dropLongRow();
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
    // Rows not kept (a sink that only counts them) are counted all the same: a body cut counts its rows fully received.
    if (!this.store && lane.count > 0) await write([], lane.count, keys);
    if (lane.memory.length > 0) await write(lane.memory, countLines(lane.memory), keys);
    if (lane.spill) {
      await copyLines(lane.spill, (ndjson, rows) => write(ndjson, rows, keys));
      await lane.spill.remove();
    }
    return { rowCount: lane.count, written: lane.count, ndjson: [], secretKeyCandidates: keys };
  }

  /** Drops every lane's rows (a body held whole after all, or a failure). */
  async dropAll(): Promise<void> {
    for (const lane of this.live()) await this.drop(lane)?.catch(() => undefined);
    await this.dropped().catch(() => undefined);
  }

  /** Waits for the drops under way, so a page cut off (truncated to its start) never cuts rows written after it. */
  private async dropped(): Promise<void> {
    const dropping = this.dropping;
    this.dropping = undefined;
    await dropping;
  }

  /** The lanes that may still hold rows: being read, closed and not weighed yet, kept. */
  private live(): Lane[] {
    return [...(this.current ? [this.current] : []), ...this.closed, ...this.kept];
  }

  /**
   * The rule asked of these lanes (in body order): those it does not choose are dropped. Of lanes it
   * cannot tell apart (sameWeight) it is asked of the first and last only: it sees their placeholders,
   * equal, so it picks among them by place, and the ones between go without a look. A lane given again
   * (hidden by a later one here, or by a later key of this chunk) is void, and the rule asked again.
   */
  private async weigh(lanes: readonly Lane[]): Promise<void> {
    const before = new Set(this.kept);
    let pool = lanes.filter((l) => !l.voided);
    let chosen: Lane | undefined;
    for (;;) {
      const asked = standIns(pool);
      const { body, reachable } = skeletonOf(asked);
      for (const lane of asked) if (!reachable.has(lane)) lane.voided = true;
      const found = this.find(body);
      chosen = found.ok ? asked.find((l) => l.items === found.rows && reachable.has(l)) : undefined;
      if (!chosen || before.has(chosen) || !this.doubts.givenAgain(chosen.keys, chosen.at)) break;
      chosen.voided = true;
      pool = pool.filter((l) => l !== chosen);
    }
    this.kept = chosen ? [chosen] : [];
    // Past the budget the skeleton sets an array one level down only once the rule keeps it.
    if (chosen && !before.has(chosen) && chosen.keys.length === 1) this.skeleton?.keepLane(chosen.keys[0]!, chosen.items);
    for (const lane of lanes) {
      const dropping = lane === chosen ? undefined : this.dropWeighed(lane, chosen, before.has(lane));
      if (dropping) await dropping;
    }
  }

  /** A lane the rule passed over: its rows go (a promise only when a file or page has to go too), then `letGo`. */
  private dropWeighed(lane: Lane, chosen: Lane | undefined, wasKept: boolean): Promise<void> | undefined {
    const dropping = this.drop(lane);
    if (dropping) return dropping.then(() => this.letGo(lane, chosen, wasKept));
    this.letGo(lane, chosen, wasKept);
    return undefined;
  }

  /** A lane dropped: remembered within the budget, else let go (what may still matter kept as a doubt). */
  private letGo(lane: Lane, chosen: Lane | undefined, wasKept: boolean): void {
    if (lane.splitter) return;
    const doubts = this.doubts;
    if (lane.voided) {
      // Lanes dropped while it was kept are no stronger than it, and may be the rows now.
      if (wasKept && doubts.forgot) doubts.bound(lane, this.find);
      return;
    }
    if (!this.skeleton?.pastBudget) {
      this.records.push({ keys: lane.keys, order: lane.order, count: lane.count, sampled: lane.sampled, objects: lane.objects, items: lane.keys.length === 1 ? lane.items : undefined });
      return;
    }
    doubts.forgot = true;
    if (lane.keys.length === 1) this.skeleton.forgetLane(lane.keys[0]!, lane.items);
    if (chosen && doubts.maybeBefore(lane, chosen)) doubts.bound(lane, this.find);
  }

  /** A kept lane whose key was given again: it can never be the rows. */
  private void(lane: Lane): void {
    lane.voided = true;
    this.kept = this.kept.filter((l) => l !== lane);
    void this.dropWeighed(lane, undefined, true)?.catch(() => undefined);
  }

  /** Its rows go (a promise only when a file or page has to go too). */
  private drop(lane: Lane | Forgotten | undefined): Promise<void> | undefined {
    if (!(lane instanceof Lane) || lane.dropped) return undefined;
    lane.dropped = true;
    recycleBlocks(lane.take());
    recycleBlocks(lane.memory);
    lane.memory = [];
    lane.memoryBytes = 0;
    const { spill, page, writing } = lane;
    lane.spill = undefined;
    lane.page = undefined;
    if (this.lanes.paged === lane) this.lanes.paged = undefined;
    lane.long?.takeParts();
    if (!spill && !page && !writing && !lane.long) return undefined;
    const before = this.dropping;
    const dropping = (async () => {
      await before?.catch(() => undefined);
      await writing?.catch(() => undefined);
      await spill?.remove();
      await lane.dropLongRow();
      await page?.drop();
    })();
    (this.dropping = dropping).catch(() => undefined);
    return dropping;
  }
}
