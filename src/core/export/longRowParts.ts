// A row too long to hold (past LONG_ROW.bytes while it arrives) leaves the row splitter in parts as its
// bytes come, instead of being held whole until it ends: the splitter hands them here, and the reader
// (earlyBatches.ts) takes them after each chunk into a spill file, and each row that ended, with the
// whole rows before it, to be written from that file. Only where someone writes such a row from a file
// (JsonRowSplitter.letLongRowsOut); elsewhere a row is held whole, up to the held-value bound.
import { RowCompactor } from './compactRow';

/** Past this many bytes held, a row leaves the splitter in parts (a test may lower it). */
export const LONG_ROW = { bytes: 16 << 20 };

/** A row too long to hold that ended: the whole rows before it, its last parts, and where it stands in the body's rows. */
export interface LongRowEnd {
  /** The NDJSON of the whole rows before it not handed on yet (the splitter's out, taken). */
  readonly before: readonly Buffer[];
  /** How many rows of the body come before it. */
  readonly rowsBefore: number;
  /** Its first byte (what the rows rule weighs of a row: an object or not). */
  readonly first: number;
  /** Its parts not taken yet (compacted: one line), in order. */
  readonly parts: readonly Buffer[];
}

export class LongRowParts {
  /** The row being read is long: its bytes leave as parts. */
  private compactor: RowCompactor | undefined;
  private parts: Buffer[] = [];
  private ended: LongRowEnd[] = [];
  private first = 0;

  get active(): boolean {
    return this.compactor !== undefined;
  }

  /** Parts or ended rows are waiting to be taken. */
  get pending(): boolean {
    return this.parts.length > 0 || this.ended.length > 0;
  }

  /** The row being read is long: `held` (its bytes so far, the caller's own copies) go out as its first parts. */
  begin(held: readonly Buffer[]): void {
    this.compactor = new RowCompactor();
    this.first = held[0]?.[0] ?? 0;
    for (const piece of held) this.add(piece);
  }

  /** The long row's next bytes (the caller's own copy). */
  add(piece: Buffer): void {
    const kept = this.compactor!.compact(piece);
    if (kept.length > 0) this.parts.push(kept);
  }

  /** The long row ends with `tail` (the caller's own copy), after the whole rows `before` (`rowsBefore` in the body before it). */
  end(tail: Buffer, before: readonly Buffer[], rowsBefore: number): void {
    this.add(tail);
    this.ended.push({ before, rowsBefore, first: this.first, parts: this.parts });
    this.parts = [];
    this.compactor = undefined;
  }

  /** The parts of the long row being read, since last taken. */
  takeParts(): Buffer[] {
    const parts = this.parts;
    this.parts = [];
    return parts;
  }

  /** The long rows that ended since last taken, in order. */
  takeEnded(): LongRowEnd[] {
    const ended = this.ended;
    this.ended = [];
    return ended;
  }
}
