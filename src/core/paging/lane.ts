// One lane of an object body (an array one or two levels down: src/core/json/arrayLanes.ts) while it
// arrives, for laneRows.ts: cheap until it is worth it. Its first LAZY_BYTES are only held; a lane that
// closes within them is counted at its close by JSON.parse (what the rule weighs: its items, the objects
// among the first) and split in one go (SmallLanes: one set of blocks for all of them) only when the rule
// keeps it, or JSON.parse refuses its bytes (the splitter says the fault at its byte); it never gets a
// splitter of its own. One that grows past them gets one, fed what it held, and its rows are split as
// they arrive from then on. Either way its rows are the row splitter's (`{"r":[…]}`), so a small lane and
// a large one give the same lines, counts and faults.
import { recycleBlocks } from '../export/byteBlocks';
import { ByteBlocks, JsonRowSplitter } from '../export/jsonRowSplitter';
import { LongRowSpill } from '../export/longRow';
import type { LongRowParts } from '../export/longRowParts';
import type { HeldPage } from '../export/sink';
import { isJsonObject } from '../json/numberText';
import type { Spill } from '../json/spill';
import type { KeyPlace } from './laneDoubts';
import { placeholderRows, ROWS_SAMPLE } from './rows';

/** A lane's bytes only held up to this size: one that closes within it never gets a splitter of its own. */
export const LAZY_BYTES = 16 * 1024;
const NEWLINE = 0x0a, OPEN_OBJ = 0x7b;
/** What a lane's splitter reads before its bytes: every lane is read as the array of one field. */
const LANE_FIELD = 'r';
export const LANE_PREFIX = Buffer.from(`{"${LANE_FIELD}":[`);
const CLOSE = Buffer.from(']}');

export const NO_KEYS: ReadonlySet<string> = new Set();

export class Lane {
  /**
   * Small blocks: a body may hold many small arrays, each a lane (a chunk may close thousands). A lane
   * first only holds its bytes (`held`); the splitter and its blocks come when it grows past LAZY_BYTES
   * (open) and live while the lane is read. A lane that closes within LAZY_BYTES is counted at its close
   * and split (`small`, shared) only if kept. Once closed (seal) only what the rule and the end need stays (count, sample, keys,
   * its rows not yet moved in a buffer of their own size): a body of 200 000 small arrays keeps 200 000
   * small records.
   */
  out: ByteBlocks | undefined;
  splitter: JsonRowSplitter | undefined;
  /**
   * Its bytes so far while it has no splitter: views of the chunk being cut while it lasts (most lanes
   * close within the chunk they open in, and are split then, never copied), copied once it ends (own).
   */
  private held: Buffer[] | undefined = [];
  private heldBytes = 0;
  private heldViews = false;
  private rows = 0;
  private candidates = NO_KEYS;
  /** Closed: its rows cut but not yet moved (seal). */
  private tail: Buffer[] = [];
  /**
   * Closed while held and found whole by JSON.parse (SmallLanes.count): its bytes, still views of the
   * chunk, split into rows only if the rule keeps it before the chunk is let go (`split`); else never.
   */
  private unsplit: Buffer[] | undefined;
  /** Its sample was taken from the whole lane at once (SmallLanes.count): its rows, split later, are not sampled again. */
  private sampledWhole = false;
  /** Where its keys were given (laneDoubts.ts): the outer key's place and first place, the inner key's, their hashes. */
  readonly at: KeyPlace;
  /** Given again later in the body (JSON.parse keeps the later copy): it can never be the rows. */
  voided = false;
  sampled = 0;
  objects = 0;
  lineStart = true;
  /** Rows moved out of `out` so far. */
  moved = 0;
  memory: Buffer[] = [];
  memoryBytes = 0;
  spill: Spill | undefined;
  page: HeldPage | undefined;
  /** Its rows are no longer kept: the rule chose another array. */
  dropped = false;
  /** The batch being written to `page`. */
  writing: Promise<void> | undefined;
  /** Its rows too long to hold, as they leave its splitter (kept after the splitter goes, until taken). */
  long: LongRowParts | undefined;
  /** The file of its long row being read (laneStore.ts). */
  private longSpill: LongRowSpill | undefined;

  /**
   * @param items the placeholder the rule weighs for it (placeholderRows): for an array one level down,
   * the one the skeleton's splitter set at its key.
   */
  constructor(readonly keys: readonly string[], readonly order: number, at: KeyPlace, readonly items: unknown[] = []) {
    this.at = at;
  }

  /** More of its bytes: held while few, else split as they arrive. Throws MalformedJsonError. */
  push(bytes: Buffer): void {
    if (this.splitter) return this.splitter.push(bytes);
    if (!this.held) return;
    this.held.push(bytes);
    this.heldViews = true;
    this.heldBytes += bytes.length;
    if (this.heldBytes > LAZY_BYTES) this.open();
  }

  /** The chunk its held bytes are views of ends (and may be reused): they are copied to their own memory. */
  own(): void {
    const held = this.held;
    if (!held || !this.heldViews) return;
    this.heldViews = false;
    this.held = [Buffer.concat(held, this.heldBytes)];
  }

  /** Worth a splitter of its own (large, or cut while held): fed what it held; its rows split as they arrive from now on. */
  open(): void {
    const held = this.held;
    if (!held) return;
    this.held = undefined;
    this.out = new ByteBlocks(64 * 1024);
    this.splitter = new JsonRowSplitter(LANE_FIELD, this.out);
    this.long = this.splitter.letLongRowsOut();
    this.splitter.push(LANE_PREFIX);
    for (const piece of held) this.splitter.push(piece);
  }

  /** Its closing bracket came: split whole (held) or ended (opened), then sealed, even when its bytes are not JSON. */
  close(small: SmallLanes): void {
    const held = this.held;
    this.held = undefined;
    if (held) {
      // Most small lanes are weighed and passed over at once: counted and sampled from JSON.parse's answer.
      const counted = small.count(held);
      if (counted) {
        this.rows = counted.rows;
        this.sampled = counted.sampled;
        this.objects = counted.objects;
        this.unsplit = held;
        this.sampledWhole = true;
        return;
      }
      this.splitHeld(held, small);
      return;
    }
    try {
      this.splitter?.push(CLOSE);
      this.splitter?.end();
    } finally {
      this.seal();
    }
  }

  /** Kept by the rule while its bytes are still views of the chunk: its rows split now (counted already). */
  split(small: SmallLanes): this {
    const held = this.unsplit;
    this.unsplit = undefined;
    if (held) this.splitHeld(held, small);
    return this;
  }

  private splitHeld(held: readonly Buffer[], small: SmallLanes): void {
    const split = small.split(held);
    this.rows = split.rows;
    this.candidates = split.candidates;
    this.tail = split.ndjson;
    if (split.error) throw split.error;
  }

  /** Whether its rows were counted but not split (SmallLanes.count): they are cut only if it is kept. */
  get counted(): boolean {
    return this.unsplit !== undefined;
  }

  get count(): number {
    return this.splitter ? this.splitter.rowsSoFar : this.rows;
  }

  get secretKeyCandidates(): ReadonlySet<string> {
    return this.splitter ? this.splitter.secretKeyCandidates : this.candidates;
  }

  /** Read to its end (or cut): the splitter and its block go, its rows not yet moved copied to their own size. */
  private seal(): void {
    if (!this.splitter || !this.out) return;
    this.rows = this.splitter.rowsSoFar;
    this.candidates = this.splitter.secretKeyCandidates;
    const taken = this.out.take();
    this.tail = ownSize(taken);
    this.splitter = undefined;
    this.out = undefined;
  }

  /** Its rows not yet moved, handed over. */
  take(): Buffer[] {
    if (this.out) return this.out.take();
    const tail = this.tail;
    this.tail = [];
    return tail;
  }

  /** Weighed: a dropped lane forgets its keys; rows still held in blocks are copied to their own size. */
  release(): void {
    this.unsplit = undefined;
    this.seal();
    if (this.dropped) this.candidates = NO_KEYS;
    if (this.memory.length > 1) this.memory = ownSize(this.memory);
  }

  /** The file of its long row being read (made when first asked). */
  longRowFile(): LongRowSpill {
    return (this.longSpill ??= new LongRowSpill());
  }

  /** Its long row being read is let go (dropped, or cut): its file removed. */
  async dropLongRow(): Promise<void> {
    await this.longSpill?.drop();
  }

  /** The first rows of `pieces` weighed as the rule weighs them: objects or not. */
  sample(pieces: readonly Buffer[]): void {
    if (this.sampledWhole) return;
    for (const piece of pieces) {
      let i = 0;
      while (this.sampled < ROWS_SAMPLE && i < piece.length) {
        if (this.lineStart) {
          this.sampled++;
          if (piece[i] === OPEN_OBJ) this.objects++;
          this.lineStart = false;
        }
        const nl = piece.indexOf(NEWLINE, i);
        if (nl === -1) break;
        i = nl + 1;
        this.lineStart = true;
      }
      if (this.sampled >= ROWS_SAMPLE) return;
    }
  }

  placeholder(): unknown[] {
    return placeholderRows(this.items, this.count, this.sampled, this.objects);
  }
}

/** Past this, rows held in blocks or pieces stay as they are: copying them to their own size would hold them twice. */
const OWN_SIZE_BYTES = 1 << 20;

/** Rows held in blocks (recycled) copied into one buffer of their own size; large ones (a row of one huge value) kept as they are. */
function ownSize(pieces: Buffer[]): Buffer[] {
  let bytes = 0;
  for (const piece of pieces) bytes += piece.length;
  if (pieces.length === 0 || bytes > OWN_SIZE_BYTES) return pieces;
  const own = Buffer.concat(pieces, bytes);
  recycleBlocks(pieces);
  return [own];
}

/** What the rule weighs of a held lane JSON.parse read whole: its items, and how many of the first ROWS_SAMPLE are objects. */
interface SmallCount {
  readonly rows: number;
  readonly sampled: number;
  readonly objects: number;
}

/** What splitting a held lane gave: its whole rows (up to a fault), and the fault. */
interface SmallSplit {
  readonly rows: number;
  readonly candidates: ReadonlySet<string>;
  readonly ndjson: Buffer[];
  readonly error?: Error;
}

/** Lanes that closed while held, each split in one go; their rows cut into one set of blocks, copied out to their own size. */
export class SmallLanes {
  private readonly out = new ByteBlocks(64 * 1024);

  /** The lane's bytes between LANE_PREFIX and CLOSE, put together: one push, not three or more. */
  private readonly whole = Buffer.allocUnsafeSlow(LANE_PREFIX.length + LAZY_BYTES + CLOSE.length);

  /**
   * The lane counted and sampled as the rule weighs it, by JSON.parse of its bytes as an array (the
   * splitter's grammar refuses what JSON.parse refuses, and nothing else); undefined when they are not
   * JSON, for `split` to say the fault at its byte.
   */
  count(held: readonly Buffer[]): SmallCount | undefined {
    const end = this.put(held);
    let items: unknown;
    try {
      items = JSON.parse(this.whole.toString('utf8', LANE_PREFIX.length - 1, end - CLOSE.length + 1));
    } catch {
      return undefined;
    }
    if (!Array.isArray(items)) return undefined;
    const sampled = Math.min(items.length, ROWS_SAMPLE);
    let objects = 0;
    for (let i = 0; i < sampled; i++) if (isJsonObject(items[i])) objects++;
    return { rows: items.length, sampled, objects };
  }

  /** The lane's bytes after LANE_PREFIX and before CLOSE in `whole`: where they end, CLOSE included. */
  private put(held: readonly Buffer[]): number {
    let n = LANE_PREFIX.copy(this.whole, 0);
    for (const piece of held) n += piece.copy(this.whole, n);
    return n + CLOSE.copy(this.whole, n);
  }

  split(held: readonly Buffer[]): SmallSplit {
    const splitter = new JsonRowSplitter(LANE_FIELD, this.out);
    let error: Error | undefined;
    try {
      const n = this.put(held);
      splitter.push(this.whole.subarray(0, n));
      splitter.end();
    } catch (fault) {
      error = fault instanceof Error ? fault : new Error(String(fault));
    }
    const ndjson = this.out.length === 0 ? [] : [this.out.copyOut()];
    const candidates = splitter.secretKeyCandidates.size === 0 ? NO_KEYS : splitter.secretKeyCandidates;
    return { rows: splitter.rowsSoFar, candidates, ndjson, ...(error === undefined ? {} : { error }) };
  }
}
