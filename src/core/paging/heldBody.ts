// A page's body held and answered whole within a budget, streamed past it: the one rule (pageFetch.ts).
// JSON.parse (native) reads a body small enough to hold faster than any byte scanner in JS; the budget is
// memory's, checked as chunks arrive by one scan (src/core/json/heldScan.ts), each limit chosen so that the
// worst shape at it keeps `apiwb run` (with --out or not) under 180 MB peak RSS (bench/heldBound.ts):
// RULE: held while bytes <= 8 MiB, values <= 1 050 000, the longest array <= 20 000 items and the members
// of wide objects (past 1 000 members) <= 250 000; past any, streamed. Worst at each (load 11, 2026-11-30):
// values 177-178 MB (`{"k0":[{},{}],…}`), wide members 129-133 MB (`{"k0":0,…}`), bytes 117-118 MB (one big
// object), longest array 83-97 MB (rows; the limit is the first rows' delay: a slow body's rows are
// written only once it ends, so no more than 20 000 wait).
// - Its chunks are held, as they came, while the scan's counts stay within the budget (a declared length
//   or none, chunked too); nothing else reads them meanwhile.
// - The moment one passes it, the held chunks are replayed, in order, into the one streamed read, which
//   goes on with the rest of the body; the held copy is let go.
// - A body that ended within it is answered whole (`whole`) only where JSON.parse provably reads what the
//   streamed read reads (heldParse: JSON, no deeper than it reads, UTF-8, no key given twice, by the
//   scan's counts); else, or where `whole` declines, or when the read failed (cut, timed out), its bytes
//   are replayed into the streamed read, then the read's fault: the same words at the same byte, the same
//   rows fully received, as a body streamed from its first byte.
import { isUtf8 } from 'node:buffer';
import { MAX_JSON_DEPTH } from '../json/depth';
import { HeldScan } from '../json/heldScan';

export type Read = (each: (chunk: Buffer) => void | Promise<void>) => Promise<void>;

/**
 * What a body may hold and still be held (HeldScan's counts): bytes, values (containers and scalars), items
 * of its longest array, members of its wide objects (past 1 000 members).
 */
export interface HeldBudget {
  bytes: number;
  values: number;
  longestArray: number;
  wideMembers: number;
}

/** The budget, measured (bench/heldBound.ts): see the RULE at the head of this file. A test may change it. */
export const HELD: HeldBudget = { bytes: 8 << 20, values: 1_050_000, longestArray: 20_000, wideMembers: 250_000 };

/** A body held whole and parsed: its bytes, its text, JSON.parse's value. */
export interface HeldBody {
  readonly bytes: Buffer;
  readonly text: string;
  readonly value: unknown;
}

/**
 * Reads a body through `read`: held within `budget` and answered by `whole` (undefined: it cannot
 * answer; no `whole`: never held), else read by `streamed`, the held bytes first. `whole` is asked only of
 * a body JSON.parse reads as the streamed read would (heldParse; `keyDepth`: the depth of the skeleton's
 * objects the streamed read reads the keys of, HeldScan). Rejects with what `streamed` rejects with
 * (a fault of `read` reaches it after the bytes that came before it).
 */
export async function heldOrStreamed<T>(read: Read, whole: ((held: HeldBody) => T | undefined) | undefined, streamed: (read: Read) => Promise<T>, budget: HeldBudget = HELD, keyDepth = 2): Promise<T> {
  if (!whole) return streamed(read);
  let held: Buffer[] = [];
  let scan: HeldScan | undefined = new HeldScan(MAX_JSON_DEPTH, keyDepth);
  let passed: Passed<T> | undefined;
  try {
    await read((chunk) => {
      if (passed) return passed.each(chunk);
      held.push(chunk);
      scan!.push(chunk);
      if (within(scan!, budget)) return undefined;
      passed = passOn(held, streamed);
      held = [];
      scan = undefined;
      return passed.replayed;
    });
  } catch (error) {
    if (!passed) return streamed(replay(held, { error }));
    passed.failed(error);
    return passed.result;
  }
  if (passed) {
    passed.ended();
    return passed.result;
  }
  const bytes = held.length === 1 ? held[0]! : Buffer.concat(held, scan.bytes);
  const parsed = heldParse(bytes, scan);
  // Declined: the streamed read gets the chunks as they came (what it makes of a body may hang on them).
  return (parsed && whole(parsed)) ?? streamed(replay(held));
}

const within = (scan: HeldScan, budget: HeldBudget): boolean =>
  scan.bytes <= budget.bytes && scan.values <= budget.values && scan.longest <= budget.longestArray && scan.wide <= budget.wideMembers;

/**
 * A held body parsed whole, or undefined where JSON.parse would read it otherwise than the streamed read:
 * not JSON, empty or blank (the streamed read says what it makes of it, in its words), nested deeper than it reads (MAX_JSON_DEPTH), not
 * UTF-8 (the text would hold U+FFFD where the streamed read keeps the bytes), an object of its skeleton
 * that may give a key twice (JSON.parse keeps the last copy, the streamed read refuses it or places it).
 */
export function heldParse(bytes: Buffer, scan: HeldScan): HeldBody | undefined {
  if (scan.tooDeep || scan.keysTwice || !isUtf8(bytes)) return undefined;
  const text = bytes.toString('utf8');
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
  return { bytes, text, value };
}

/** A read of the held chunks, as they came, then of `fault` when the body's read failed with it. */
function replay(chunks: readonly Buffer[], fault?: { readonly error: unknown }): Read {
  return async (each) => {
    for (const chunk of chunks) await each(chunk);
    if (fault) throw fault.error;
  };
}

/** The streamed read of a body that passed the bound: fed the held chunks, then the rest as it comes. */
interface Passed<T> {
  /** Settles once the held chunks are read (the body's read waits for it). */
  readonly replayed: Promise<void>;
  readonly each: (chunk: Buffer) => void | Promise<void>;
  readonly ended: () => void;
  readonly failed: (error: unknown) => void;
  readonly result: Promise<T>;
}

function passOn<T>(held: Buffer[], streamed: (read: Read) => Promise<T>): Passed<T> {
  let each: (chunk: Buffer) => void | Promise<void> = () => undefined;
  let ended!: () => void;
  let failed!: (error: unknown) => void;
  // The rest of the body: its end or its fault, as the streamed read hears them from its own read.
  const rest = new Promise<void>((resolve, reject) => {
    ended = resolve;
    failed = reject;
  });
  rest.catch(() => undefined);
  let replayedOk!: () => void;
  let replayedNot!: (error: unknown) => void;
  const replayed = new Promise<void>((resolve, reject) => {
    replayedOk = resolve;
    replayedNot = reject;
  });
  const result = streamed(async (taking) => {
    for (const chunk of held) await taking(chunk);
    // Let go: the streamed read may go on for a long body, the held chunks no longer needed.
    held.length = 0;
    each = taking;
    replayedOk();
    return rest;
  });
  // The streamed read ended before taking every held chunk (a fault in one, refused in words, or thrown):
  // the body's read stops, its rest not wanted (heldOrStreamed hands on the streamed read's answer).
  result.then(() => replayedNot(new Error('the streamed read ended before the body')), (error: unknown) => replayedNot(error));
  return { replayed, each: (chunk) => each(chunk), ended, failed, result };
}
