// A page's body held and answered whole up to a bound, streamed past it: the one rule (pageFetch.ts).
// JSON.parse (native) reads a body small enough to hold faster than any byte scanner in JS, and the bound
// is chosen by memory: every shape of a body at the bound keeps `apiwb run` (with --out or not) under
// 150 MiB peak RSS (bench/heldBound.ts).
// - Its chunks are held, as they came, while their total stays within the bound (a declared length or
//   none, chunked too); nothing else reads them meanwhile.
// - The moment the total passes it, the held chunks are replayed, in order, into the one streamed read,
//   which goes on with the rest of the body; the held copy is let go.
// - A body that ended within it is answered whole (`whole`); where that cannot answer (not JSON, or not
//   provably the streamed read's answer) or the read failed (cut, timed out), its bytes are replayed
//   into the streamed read, then the read's fault: the same words at the same byte, the same rows fully
//   received, as a body streamed from its first byte.

export type Read = (each: (chunk: Buffer) => void | Promise<void>) => Promise<void>;

/**
 * Bodies up to `bytes` are held and answered whole. Measured (bench/heldBound.ts, load 14): the worst
 * shapes of exactly 1 MiB peak at 140 MB (`[{},{},…]` with --out; 106 MB without); at 2 MiB at 198 MB
 * (153 without), at 4 MiB at 299 MB. A test may change it.
 */
export const HELD = { bytes: 1 << 20 };

/** A body held whole is replayed in slices of this size (as chunks would come). */
const REPLAY_SLICE = 64 << 10;

/**
 * Reads a body through `read`: held within `bound` bytes and answered by `whole` (undefined: it cannot
 * answer; no `whole`: never held), else read by `streamed`, the held bytes first. Rejects with what
 * `streamed` rejects with (a fault of `read` reaches it after the bytes that came before it).
 */
export async function heldOrStreamed<T>(read: Read, whole: ((bytes: Buffer) => T | undefined) | undefined, streamed: (read: Read) => Promise<T>, bound = HELD.bytes): Promise<T> {
  if (!whole) return streamed(read);
  let held: Buffer[] = [];
  let size = 0;
  let passed: Passed<T> | undefined;
  try {
    await read((chunk) => {
      if (passed) return passed.each(chunk);
      held.push(chunk);
      size += chunk.length;
      if (size <= bound) return undefined;
      passed = passOn(held, streamed);
      held = [];
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
  const bytes = held.length === 1 ? held[0]! : Buffer.concat(held, size);
  held = [];
  return whole(bytes) ?? streamed(replay([bytes]));
}

/** A read of `bytes` (in slices), then of `fault` when the body's read failed with it. */
function replay(bytes: readonly Buffer[], fault?: { readonly error: unknown }): Read {
  return async (each) => {
    for (const part of bytes) {
      for (let at = 0; at < part.length; at += REPLAY_SLICE) await each(part.length <= REPLAY_SLICE ? part : part.subarray(at, at + REPLAY_SLICE));
    }
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

function passOn<T>(held: readonly Buffer[], streamed: (read: Read) => Promise<T>): Passed<T> {
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
    each = taking;
    replayedOk();
    return rest;
  });
  // The streamed read ended before taking every held chunk (a fault in one, refused in words, or thrown):
  // the body's read stops, its rest not wanted (heldOrStreamed hands on the streamed read's answer).
  result.then(() => replayedNot(new Error('the streamed read ended before the body')), (error: unknown) => replayedNot(error));
  return { replayed, each: (chunk) => each(chunk), ended, failed, result };
}
