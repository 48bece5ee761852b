// A body whose rows the rule finds anywhere (no paging style: rows.ts, `anywhere`), read as it arrives,
// never held twice:
// - a body within the held budget is parsed whole before it gets here (heldBody.ts: heldAnywhere is its
//   answer; not when its rows go to a file and hold a number JSON.parse would change, such as 1E400);
// - a top-level array's rows go out as NDJSON while they arrive (early batches), counted;
// - an object is cut as it arrives (src/core/json/arrayLanes.ts) into its arrays one and two levels down,
//   whose rows are split out while they arrive (laneRows.ts: kept only while the rule may still choose
//   them, the first large one written to the sink's tentative page as it comes), and the rest, scanned
//   once for its skeleton (the fields the business check and the rule read, each array a placeholder of
//   its length and object share); the rule picks the rows from the skeleton at the end;
// - a string, number or literal is validated and not kept.
// A body cut or broken mid-stream keeps exactly the rows fully received: of the top-level array, or of
// the array the rule picks from the arrays received so far.
import { BUSINESS_ERROR_KEYS, BUSINESS_WORDS_KEYS } from '../catalog/businessErrors';
import { ByteBlocks, JsonRowSplitter, MalformedJsonError } from '../export/jsonRowSplitter';
import { RowsRefusedError } from '../export/splitResult';
import type { HeldPage } from '../export/sink';
import type { AnywhereOptions, SplitResult } from '../export/splitResult';
import { ArrayLanes } from '../json/arrayLanes';
import { PathLanes } from '../json/pathLanes';
import { firstNonBlank } from '../json/grammar';
import { holdsLossyNumber } from '../json/numberText';
import { EarlyBatches, type LongRowWrite } from './earlyBatches';
import type { HeldBody } from './heldBody';
import { LANE_PREFIX } from './lane';
import { LaneRows, type RowsWrite } from './laneRows';
import { ERROR_LIST_KEYS, pathKeys, placeholderRows, rowsSummary, type RowsFound, type StreamRows } from './rows';
import { capturesOn, placePathParts } from './pathParts';
import { NEXT_LINK_FIELDS } from './strategies/generic';
import type { ParsedBody } from './types';

/** What the anywhere read makes of a body: its value for the strategy, its text when held, its streamed rows. */
interface AnywhereBody {
  readonly body: ParsedBody;
  /** The body's text when it was small enough to hold ('' otherwise). */
  readonly text: string;
  readonly size: number;
  readonly streamed?: {
    readonly ndjson: readonly Buffer[]; readonly rowCount: number; readonly placeholder: readonly unknown[]; readonly earlyRows: number;
    readonly secretKeyCandidates: ReadonlySet<string>;
  };
}

type Read = (each: (chunk: Buffer) => void | Promise<void>) => Promise<void>;

/** Rows that can never be the rows (a top-level array, for an items= path): let go as they are cut. */
const noRows: RowsWrite = () => Promise.resolve();

/**
 * What an object body's skeleton holds besides its arrays' rows: top-level fields and the records of its
 * arrays, up to `keptBytes`; past it, fields are not held and arrays the rule passed over leave nothing
 * (laneRows.ts). A test may make it small, to reach past it with a small body.
 */
export const SKELETON = { keptBytes: 8 << 20 };

const ERROR_LISTS: ReadonlySet<string> = new Set(ERROR_LIST_KEYS);

const OPEN_OBJ = 0x7b, OPEN_ARR = 0x5b;

/** The fields whose words the business check reads: never a lane, kept whole (the server's words, never a stand-in's). */
const BUSINESS_KEYS: ReadonlySet<string> = new Set(BUSINESS_WORDS_KEYS);

/**
 * What is kept of an object body's fields besides its arrays (their rows stream apart). With an items=
 * `path`, only the array at its whole text as one key can be the rows among the top-level arrays (the one
 * at the path is cut out by pathLanes.ts): every other one is a field, kept as it arrived within the
 * skeleton's budget, so contract drift reads its items as received.
 */
function anywhereOptions(kept: readonly string[], path: string | undefined, laneOpened: (items: unknown[]) => void): AnywhereOptions {
  return {
    alwaysKept: new Set([...BUSINESS_ERROR_KEYS, ...NEXT_LINK_FIELDS, ...kept]),
    wordsKept: BUSINESS_KEYS,
    fieldBytes: 1 << 20,
    keptBytes: SKELETON.keptBytes,
    // Without a path, every array one and two levels down is a lane (laneRows.ts places those it keeps):
    // an object past the budget holds nothing more the rule reads, and is not held at all.
    ...(path === undefined ? {} : { summarise: rowsSummary }),
    laneOpened,
    lane: path === undefined ? (key) => !BUSINESS_KEYS.has(key) : (key) => key === path,
    // The path's first object, arrived too large to keep, is rebuilt from its rows and captures (pathParts.ts).
    ...(path === undefined ? {} : { named: new Set([pathKeys(path)[0]!]) }),
  };
}

/**
 * Reads a body through `read`, finding its rows with `find` (the rows rule). `early` takes whole rows
 * while they arrive; `tentative` (with `early`) opens a page of the same sink written while an object's
 * array arrives and kept only if the rule picks that array. Without `rowBytes` nobody reads the rows'
 * bytes, only their count. `where.path` (an items= path: the rule reads rows only there): only the arrays
 * at it are cut out of an object (pathLanes.ts), and a top-level array's rows go nowhere. `where.kept`:
 * top-level fields a paging style's steps read (StreamRows.kept), kept whole whatever the skeleton's
 * budget. Throws MalformedJsonError for a body that is not JSON (the rows fully received are handed to
 * `early` first; none for a body whose rows are refused), and what `read` or `early` throw.
 */
export async function readAnywhere(read: Read, find: (body: unknown) => RowsFound, early: RowsWrite | undefined, rowBytes: boolean, tentative?: () => HeldPage | undefined, where: Pick<StreamRows, 'path' | 'kept'> = {}, longRow?: LongRowWrite): Promise<AnywhereBody> {
  const { path, kept = [] } = where;
  // Fields read inside the path's objects are taken from them as they pass: their first key is no field kept whole.
  const captures = path === undefined ? [] : capturesOn(path, kept);
  const keptWhole = captures.length === 0 ? kept : kept.filter((k) => k !== captures[0]![0]);
  const out = new ByteBlocks();
  // The splitter hands each array's placeholder to the lanes (called only once bytes come, after both are made).
  const splitter: JsonRowSplitter = new JsonRowSplitter(undefined, out, anywhereOptions(keptWhole, path, (items) => laneRows.splitterLane(items)), !rowBytes);
  // A top-level array's row too long to hold is written from a file as it arrives, where a writer takes it (earlyBatches.ts).
  const longRows = longRow && early && path === undefined && rowBytes ? { parts: splitter.letLongRowsOut(), write: longRow } : undefined;
  const batches = early ? new EarlyBatches(path === undefined ? early : noRows, longRows) : undefined;
  const laneRows = new LaneRows(find, rowBytes, early ? tentative : undefined, path === undefined ? splitter : undefined);
  const cut = path === undefined ? new ArrayLanes(ERROR_LISTS, BUSINESS_KEYS) : new PathLanes(path, pathKeys(path), captures);
  const offsets = new BodyOffsets();
  const events = {
    outside: (b: Buffer) => offsets.outside(b, splitter),
    open: (k: readonly string[]) => { offsets.open(); laneRows.open(k); },
    inside: (b: Buffer) => offsets.inside(b, laneRows),
    close: () => offsets.close(laneRows),
    key: (depth: number, hashes: [number, number]) => laneRows.key(depth, hashes),
  };
  let size = 0;
  let shape: number | undefined;
  try {
    await read((chunk) => {
      size += chunk.length;
      shape ??= firstNonBlank(chunk);
      if (shape === OPEN_OBJ) cut.push(chunk, events);
      // Blanks before the shape is known are counted as bytes the skeleton read (a lane's fault is said after them).
      else if (shape === undefined) offsets.outside(chunk, splitter);
      else splitter.push(chunk);
      if (shape === OPEN_OBJ) return laneRows.settle();
      return shape === OPEN_ARR && batches ? batches.hand(splitter, out, false) : undefined;
    });
    // A lane still open at the end holds the earliest fault of its bytes, if any: before the skeleton's early end.
    if (shape === OPEN_OBJ) offsets.ended(laneRows);
    if (cut instanceof PathLanes) cut.end();
    const result = endOf(splitter, size);
    if (result.scalar) return { body: { ok: true, value: undefined }, text: '', size };
    if (shape === OPEN_ARR) return await arrayRows(result, splitter, out, batches, size);
    return await objectRows(result, laneRows, find, early, size, cut instanceof PathLanes ? (skeleton) => placePathParts(skeleton, path!, cut) : undefined);
  } catch (error) {
    // A body cut or broken mid-stream: the rows fully received are handed over, then the fault goes on.
    if (shape === OPEN_ARR) await batches?.rescue(splitter, out);
    else if (shape === OPEN_OBJ && early && !(error instanceof RowsRefusedError)) await laneRows.rescue(early).catch(() => undefined);
    await laneRows.dropAll();
    throw error;
  }
}

const ELIDED_KEPT = 4096;

/** A top-level array read whole: its rows handed on as they came (`batches`), or held in `out` when nobody took them. */
async function arrayRows(result: SplitResult, splitter: JsonRowSplitter, out: ByteBlocks, batches: EarlyBatches | undefined, size: number): Promise<AnywhereBody> {
  const lane = result.lanes![0]!;
  placeholderRows(lane.items, lane.count, lane.sampled, lane.objects);
  await batches?.hand(splitter, out, true);
  return { body: { ok: true, value: lane.items }, text: '', size, streamed: { ndjson: batches ? [] : out.buffers(), rowCount: lane.count, placeholder: lane.items, earlyRows: batches?.handed ?? 0, secretKeyCandidates: splitter.secretKeyCandidates } };
}

/**
 * An object body's readers are fed parts of it (the skeleton's splitter without the arrays' content, each
 * array's splitter its own content after LANE_PREFIX): a fault is said at its byte in the body as it came.
 */
class BodyOffsets {
  private fed = 0;
  private elidedSoFar = 0;
  // The lanes elided, the last ELIDED_KEPT of them one by one (a fault is said at a byte of what is being
  // read, after them): those before are only summed (`folded`), so a body of millions of arrays keeps none.
  private elided: { at: number; length: number }[] = [];
  private folded = 0;
  private lane = { at: 0, fedAt: 0, length: 0 };

  outside(bytes: Buffer, splitter: JsonRowSplitter): void {
    try {
      splitter.push(bytes);
    } catch (error) {
      throw this.said(error, (n) => n + this.folded + this.elided.reduce((sum, e) => sum + (e.at <= n ? e.length : 0), 0));
    }
    this.fed += bytes.length;
  }

  open(): void {
    this.lane = { at: this.fed + this.elidedSoFar, fedAt: this.fed, length: 0 };
  }

  inside(bytes: Buffer, lanes: LaneRows): void {
    try {
      lanes.inside(bytes);
    } catch (error) {
      throw this.inLane(error);
    }
    this.lane.length += bytes.length;
  }

  /** The lane ends (a small one is split only now: a fault in it is said at its byte all the same). */
  close(lanes: LaneRows): void {
    this.elided.push({ at: this.lane.fedAt, length: this.lane.length });
    if (this.elided.length > 2 * ELIDED_KEPT) {
      for (const e of this.elided.slice(0, ELIDED_KEPT)) this.folded += e.length;
      this.elided = this.elided.slice(ELIDED_KEPT);
    }
    this.elidedSoFar += this.lane.length;
    try {
      lanes.close();
    } catch (error) {
      throw this.inLane(error);
    }
  }

  /** The body ended: a lane still open read to its last byte (held, it was not yet), its fault said at its byte. */
  ended(lanes: LaneRows): void {
    try {
      lanes.ended();
    } catch (error) {
      throw this.inLane(error);
    }
  }

  /** A fault of a lane's splitter, which read the lane after LANE_PREFIX: said at its byte in the body. */
  private inLane(error: unknown): unknown {
    const at = this.lane.at;
    return this.said(error, (n) => at + n - LANE_PREFIX.length);
  }

  /** A splitter's fault at a byte of what it read, said at that byte in the body (an early end stays as it is: endOf says it). */
  private said(error: unknown, real: (n: number) => number): unknown {
    if (!(error instanceof MalformedJsonError) || !error.fault || error.fault.endedEarly) return error;
    return error.at(real(error.fault.offset));
  }
}

/**
 * The skeleton's splitter at the body's end. It was fed the body without its arrays' content, so a body
 * that ends early is said after the bytes received, arrays included, not after those it read.
 */
function endOf(splitter: JsonRowSplitter, size: number): SplitResult {
  try {
    return splitter.end();
  } catch (error) {
    throw error instanceof MalformedJsonError && error.fault?.endedEarly ? error.at(size) : error;
  }
}

/**
 * A body held whole and parsed (heldBody.ts: JSON.parse reads it as the streamed read would), as a
 * buffered page is; undefined where the streamed read answers instead, as it would for a larger body: past
 * the skeleton's budget (SKELETON.keptBytes: the streamed read lets fields go there), or its rows go to a
 * file (`early`, their bytes read) and hold a number JSON.parse would change (1E400).
 */
export function heldAnywhere(held: HeldBody, early: RowsWrite | undefined, rowBytes: boolean): AnywhereBody | undefined {
  const { text, value } = held;
  const size = held.bytes.length;
  if (size > SKELETON.keptBytes || (early && rowBytes && holdsLossyNumber(text))) return undefined;
  return { body: { ok: true, value }, text, size };
}

/**
 * An object body read whole: the rule asked of its skeleton, the rows of the array it picks kept, the
 * others dropped. With `path`, the splitter's only lanes are at the whole path as one key (the cut took
 * their content): every other top-level array is a field it kept.
 */
async function objectRows(result: SplitResult, lanes: LaneRows, find: (body: unknown) => RowsFound, early: RowsWrite | undefined, size: number, place?: (skeleton: Record<string, unknown>) => void): Promise<AnywhereBody> {
  const skeleton = result.fields;
  const laneOf = lanes.fill(skeleton);
  place?.(skeleton);
  let found = find(skeleton);
  const lane = found.ok ? laneOf(found.rows) : undefined;
  if (lanes.doubtful) {
    try {
      lanes.check(found, lane);
    } finally {
      // Asked again last: the rule's answer for this skeleton is the one handed on to the page's verdict.
      found = find(skeleton);
    }
  }
  const kept = await lanes.finish(lane, early);
  if (!kept || !found.ok) return { body: { ok: true, value: skeleton }, text: '', size };
  return {
    body: { ok: true, value: skeleton }, text: '', size,
    streamed: { ndjson: kept.ndjson, rowCount: kept.rowCount, placeholder: found.rows, earlyRows: kept.written, secretKeyCandidates: kept.secretKeyCandidates },
  };
}
