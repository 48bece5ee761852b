// A row that arrived over several lines (a pretty-printed body) written on one line: the blanks between
// its tokens are dropped and every other byte is kept as it came, so its numbers, escapes and keys are
// the server's own, as for a row that arrived on one line (a re-serialised row would turn 1E400 into null
// and 12345678901234567890 into 12345678901234567000). The bytes were checked as JSON while they arrived.
import type { ByteBlocks } from './byteBlocks';

const SPACE = 0x20, TAB = 0x09, NEWLINE = 0x0a, RETURN = 0x0d, QUOTE = 0x22, BACKSLASH = 0x5c;

/** Where a string's scan stands between pieces: inside one, and whether its next byte is escaped. */
interface Place {
  inString: boolean;
  escaped: boolean;
}

/**
 * Appends the row held in `pieces` (in order; a string may run across them) to `out` without its blanks.
 * The pieces are the caller's own copies: each is compacted where it lies and handed to `out` as it is.
 */
export function appendCompactRow(out: ByteBlocks, pieces: readonly Buffer[]): void {
  const compactor = new RowCompactor();
  for (const piece of pieces) {
    const kept = compactor.compact(piece);
    if (kept.length > 0) out.pushSlice(kept);
  }
}

/** One row compacted piece by piece, as it arrives (a row too long to hold: its pieces go on as they come). */
export class RowCompactor {
  private readonly place: Place = { inString: false, escaped: false };

  /** `piece` (the caller's own copy, the row's next bytes) compacted where it lies: what is kept of it. */
  compact(piece: Buffer): Buffer {
    return piece.subarray(0, compactPiece(piece, this.place));
  }
}

/** Compacts `piece` where it lies; returns the length of what is kept. Strings are skipped by search, not byte by byte. */
function compactPiece(piece: Buffer, place: Place): number {
  let kept = 0;
  let i = 0;
  // The next backslash at or after a string's bytes still to read (-1: none left in this piece).
  let backslash = -2;
  const keep = (from: number, to: number): void => {
    if (from !== kept) piece.copyWithin(kept, from, to);
    kept += to - from;
  };
  while (i < piece.length) {
    if (place.escaped) {
      place.escaped = false;
      keep(i, i + 1);
      i++;
    } else if (place.inString) {
      if (backslash !== -1 && backslash < i) backslash = piece.indexOf(BACKSLASH, i);
      const quote = piece.indexOf(QUOTE, i);
      const stop = quote === -1 ? backslash : backslash === -1 ? quote : Math.min(quote, backslash);
      const end = stop === -1 ? piece.length : stop + 1;
      keep(i, end);
      if (stop === quote && stop !== -1) place.inString = false;
      else if (stop !== -1) place.escaped = true;
      i = end;
    } else {
      const c = piece[i]!;
      if (c === QUOTE) place.inString = true;
      if (c !== SPACE && c !== NEWLINE && c !== RETURN && c !== TAB) keep(i, i + 1);
      i++;
    }
  }
  return kept;
}
