// A lane's rows as NDJSON lines (laneRows.ts): counted, and read back from its spill file in batches of whole rows.
import type { Spill } from '../json/spill';

const NEWLINE = 0x0a;

export function countLines(pieces: readonly Buffer[]): number {
  let n = 0;
  for (const piece of pieces) for (let i = piece.indexOf(NEWLINE); i !== -1; i = piece.indexOf(NEWLINE, i + 1)) n++;
  return n;
}

/** A spilled lane's lines read back in whole-row batches (a piece read may end inside a row). */
export async function copyLines(spill: Spill, write: (ndjson: readonly Buffer[], rows: number) => Promise<void>): Promise<void> {
  let carry: Buffer | undefined;
  await spill.readBack(async (piece) => {
    const joined = carry ? Buffer.concat([carry, piece]) : piece;
    const last = joined.lastIndexOf(NEWLINE);
    carry = last + 1 < joined.length ? Buffer.from(joined.subarray(last + 1)) : undefined;
    if (last >= 0) await write([joined.subarray(0, last + 1)], countLines([joined.subarray(0, last + 1)]));
  });
}
