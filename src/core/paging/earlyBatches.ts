// Whole rows handed on while a body arrives, in batches of about EARLY_BATCH_BYTES: one batch is written
// while the next is read, and the next waits for it (rows stay in order, at most two batches held). After
// a fault (a body cut, broken or timed out) the whole rows received and not yet handed go too: never a
// part of a row, never a row twice. The one home of this rule for every streamed read (a top-level array,
// anywhereFetch.ts; a style's rows field, pageFetch.ts).
// With a writer of long rows (`longRow`), a row too long to hold leaves the splitter in parts
// (longRowParts.ts): they go to a spill file (0600, removed once written) as they come, and the row, once
// whole, is written from it in its place among the rows; a row cut by a fault is removed with its file.
import { recycleBlocks } from '../export/byteBlocks';
import type { ByteBlocks, JsonRowSplitter } from '../export/jsonRowSplitter';
import { LongRowSpill } from '../export/longRow';
import type { LongRowParts } from '../export/longRowParts';
import type { LongRow } from '../export/sink';
import type { RowsWrite } from './laneRows';

export const EARLY_BATCH_BYTES = 1 << 20;

/** Writes one row too long to hold, from its file (RowSink.writeLongRow, or longRowWritten). */
export type LongRowWrite = (row: LongRow, secretKeyCandidates: ReadonlySet<string>) => Promise<void>;

export class EarlyBatches {
  private writing: Promise<void> | undefined;
  /** Rows handed over so far. */
  handed = 0;
  /** The long row being read, in its file. */
  private readonly spill = new LongRowSpill();
  /** A write of the rows around a long row failed: nothing after it is handed on (rows stay in order, none skipped). */
  private broken = false;

  /** `longRow` (with `parts`, the splitter's letLongRowsOut): long rows are written from a file. */
  constructor(private readonly early: RowsWrite, private readonly longRows?: { readonly parts: LongRowParts; readonly write: LongRowWrite }) {}

  /** Hands the whole rows in `out` over once they make a batch (or at the `last`). */
  async hand(from: JsonRowSplitter, out: ByteBlocks, last: boolean): Promise<void> {
    if (this.longRows) await this.handLong(from);
    if (!last && out.length < EARLY_BATCH_BYTES) return;
    await this.writing;
    const rows = from.rowsSoFar - this.handed;
    this.handed = from.rowsSoFar;
    const taken = out.take();
    this.writing = this.early(taken, rows, from.secretKeyCandidates).then(() => recycleBlocks(taken));
    // Awaited before the next batch or at the end; meanwhile a failure is not an unhandled rejection.
    this.writing.catch(() => undefined);
    if (last) await this.writing;
  }

  /** The batch being written, done (throws what its write threw). */
  async written(): Promise<void> {
    await this.writing;
  }

  /**
   * After a fault: the whole rows received and not handed yet go too (never part of a row), after the
   * batch being written; nothing is still writing when it returns. A write that failed is said by `written`.
   */
  async rescue(from: JsonRowSplitter, out: ByteBlocks): Promise<void> {
    try {
      if (this.longRows && !this.broken) await this.handEnded(from);
    } catch {
      // Said by `written` below when it was the batch before; the rows after it are not handed.
    }
    await this.spill.drop();
    if (this.broken) return void (await this.writing?.catch(() => undefined));
    const before = this.writing;
    if (from.rowsSoFar > this.handed) {
      const rows = from.rowsSoFar - this.handed;
      this.handed = from.rowsSoFar;
      const taken = out.take();
      this.writing = (async () => {
        await before;
        await this.early(taken, rows, from.secretKeyCandidates);
      })();
    }
    await this.writing?.catch(() => undefined);
  }

  /** The long rows that ended are written in their places, then the parts of the one being read go to its file. */
  private async handLong(from: JsonRowSplitter): Promise<void> {
    await this.handEnded(from);
    await this.spill.add(this.longRows!.parts.takeParts());
  }

  private async handEnded(from: JsonRowSplitter): Promise<void> {
    for (const ended of this.longRows!.parts.takeEnded()) {
      await this.spill.ended(ended.parts, async (row) => {
        try {
          await this.writing;
          const before = ended.rowsBefore - this.handed;
          if (before > 0) await this.early(ended.before, before, from.secretKeyCandidates);
          recycleBlocks(ended.before);
          await this.longRows!.write(row, from.secretKeyCandidates);
          this.handed = ended.rowsBefore + 1;
        } catch (error) {
          this.broken = true;
          throw error;
        }
      });
    }
  }
}
