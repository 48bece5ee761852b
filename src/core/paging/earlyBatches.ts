// Whole rows handed on while a body arrives, in batches of about EARLY_BATCH_BYTES: one batch is written
// while the next is read, and the next waits for it (rows stay in order, at most two batches held). After
// a fault (a body cut, broken or timed out) the whole rows received and not yet handed go too: never a
// part of a row, never a row twice. The one home of this rule for every streamed read (a top-level array,
// anywhereFetch.ts; a style's rows field, pageFetch.ts).
import { recycleBlocks } from '../export/byteBlocks';
import type { ByteBlocks, JsonRowSplitter } from '../export/jsonRowSplitter';
import type { RowsWrite } from './laneRows';

export const EARLY_BATCH_BYTES = 1 << 20;

export class EarlyBatches {
  private writing: Promise<void> | undefined;
  /** Rows handed over so far. */
  handed = 0;

  constructor(private readonly early: RowsWrite) {}

  /** Hands the whole rows in `out` over once they make a batch (or at the `last`). */
  async hand(from: JsonRowSplitter, out: ByteBlocks, last: boolean): Promise<void> {
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
}
