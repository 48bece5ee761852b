// The streamed read's warm-up (anywhereFetch.ts): once a process, before its first body is read anywhere,
// a small object body and a small array body go through readAnywhere itself, whole and in cut chunks, so
// that every path of a page's read (the cut of its arrays, a lane held then split, a lane split as it
// arrives, the skeleton's empty placeholder `[]`, a key after the rows, a row or key cut by a chunk) has
// run once. V8 optimises the read from what it has seen run; without this, a path first met later (a
// page's rows array closing, its next_link) throws the optimised code away and the read, the array cut
// with the splitter inlined in it, is compiled again on a core the read shares: about a third less
// optimising-compiler time, about 15 ms of the main thread for the warm-up. bench/pagedWalk.ts --no-out 1
// (two 1.7 MB pages of 15 000 rows, counted), 12 alternating rounds against def4ad6, load 6.1-6.7:
// configurable style 418 -> 362 ms, batch cursor 411 -> 361 ms (medians). The samples' results are not
// used: nothing is written, kept or spilled. (A page this small is held and parsed whole, heldBody.ts: the
// samples go to readAnywhere itself, the read of a page past the held bound.)
import { readAnywhere } from './anywhereFetch';
import type { RowsFound } from './rows';

const ROW_COUNT = 240;

let warmUpDone = false;

/**
 * The samples: an object body (an empty array, a rows array past LAZY_BYTES, an array two levels down,
 * fields after the rows) and a small top-level array; every kind of token in the rows.
 */
export function warmUpBodies(): Buffer[] {
  const rows = Array.from({ length: ROW_COUNT }, (_, i) => `{"id":${i},"name":"row ${i}","f":${i * 1.5},"t":true,"n":null,"o":[1,{}],"s":"a\\nb"}`);
  return [
    Buffer.from(`{"count":${ROW_COUNT},"e":[],"value":[${rows.join(',')}],"d":{"x":[1,2]},"next_link":"/x?p=2","m":-0.5e-3}`),
    Buffer.from(`[${rows.slice(0, 20).join(',')}]`),
  ];
}

/** Runs the warm-up the first time it is called (the following calls return at once). */
export async function warmUpAnywhereOnce(): Promise<void> {
  if (warmUpDone) return;
  warmUpDone = true;
  for (const body of warmUpBodies()) {
    for (const [size, rowBytes] of WARM_UP_READS) {
      // A warm-up that fails only costs its time: the request it comes before is read all the same.
      await readInChunks(body, size, rowBytes).catch(() => undefined);
    }
  }
}

/** How each sample is read: whole, its rows' bytes kept; in 777-byte chunks (rows and keys cut), only counted. */
export const WARM_UP_READS: readonly (readonly [size: number, rowBytes: boolean])[] = [[Number.POSITIVE_INFINITY, true], [777, false]];

/** One read of a sample in chunks of `size` bytes, the rule finding no rows (nothing is handed on). */
export function readInChunks(body: Buffer, size: number, rowBytes: boolean): ReturnType<typeof readAnywhere> {
  const noRows = (): RowsFound => ({ ok: false, reason: 'warm-up' });
  return readAnywhere(async (each) => {
    for (let at = 0; at < body.length; at += size) await each(body.subarray(at, at + size));
  }, noRows, undefined, rowBytes);
}
