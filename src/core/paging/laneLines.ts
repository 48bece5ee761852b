// A lane's rows as NDJSON lines (laneRows.ts): counted, and read back from its spill file in batches of whole rows.
import type { Spill } from '../json/spill';

const NEWLINE = 0x0a;

export function countLines(pieces: readonly Buffer[]): number {
  let n = 0;
  for (const piece of pieces) for (let i = piece.indexOf(NEWLINE); i !== -1; i = piece.indexOf(NEWLINE, i + 1)) n++;
  return n;
}

/**
 * A spilled lane's lines read back in whole-row batches (a piece read may end inside a row): the part of a
 * row read so far is kept as the pieces it came in, never joined, so a row as large as the held bound is
 * in memory once and read back in time that grows with its size, not with its square.
 */
export async function copyLines(spill: Spill, write: (ndjson: readonly Buffer[], rows: number) => Promise<void>): Promise<void> {
  let carry: Buffer[] = [];
  await spill.readBack(async (piece) => {
    const last = piece.lastIndexOf(NEWLINE);
    if (last < 0) {
      carry.push(piece);
      return;
    }
    const lines = [...carry, piece.subarray(0, last + 1)];
    carry = last + 1 < piece.length ? [piece.subarray(last + 1)] : [];
    await write(lines, countLines(lines));
  });
}
