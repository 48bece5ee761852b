// Where the rows of a lane the rule still keeps go while they arrive (laneRows.ts decides which lanes
// those are): held in memory up to MEMORY_BYTES; past it, the sink's tentative page when it is free (one
// lane at a time: --out grows with the download), else a spill file (0600, removed after). A row too long
// to hold (longRowParts.ts) goes to a file of its own as it arrives, then in its place among the lane's
// rows: written from that file into the tentative page, or (no page free) copied into the lane's spill.
// A lane only counted (no --out) or dropped keeps none of its rows: a long row's parts are let go as they come.
import { recycleBlocks } from '../export/byteBlocks';
import { longRowHeld } from '../export/longRow';
import type { HeldPage, LongRow } from '../export/sink';
import { openSpill } from '../json/spill';
import type { Lane } from './lane';
import { countLines } from './laneLines';

const MEMORY_BYTES = 1 << 20;
const NEWLINE = 0x0a;
const LINE_END = Buffer.from('\n');

export class LaneStore {
  /** The lane writing into the tentative page (one at a time). */
  paged: Lane | undefined;

  /**
   * @param store whether rows are kept at all (else only counted and weighed).
   * @param tentative a page of the sink written as it arrives and kept or dropped at the end.
   */
  constructor(private readonly store: boolean, private readonly tentative?: () => HeldPage | undefined) {}

  /** The rows the splitter has cut whole go on: to the page, the spill, memory, or nowhere (a promise only when they go to a file). */
  move(lane: Lane): Promise<void> | undefined {
    if (lane.counted) return undefined;
    if (lane.long?.pending) return this.moveWithLong(lane);
    return this.moveRows(lane, lane.take(), lane.count);
  }

  /** `taken`, the lane's rows up to its `upTo`th. */
  private moveRows(lane: Lane, taken: Buffer[], upTo: number): Promise<void> | undefined {
    const rows = upTo - lane.moved;
    lane.moved = upTo;
    lane.sample(taken);
    if (!this.store || lane.dropped) {
      recycleBlocks(taken);
      return undefined;
    }
    let bytes = 0;
    for (const piece of taken) bytes += piece.length;
    if (!lane.page && !lane.spill && lane.memoryBytes + bytes <= MEMORY_BYTES) {
      lane.memory.push(...taken);
      lane.memoryBytes += bytes;
      return undefined;
    }
    return this.moveOn(lane, taken, rows, bytes);
  }

  private async moveOn(lane: Lane, taken: Buffer[], rows: number, bytes: number): Promise<void> {
    if (!lane.page && !lane.spill && lane.memoryBytes + bytes > MEMORY_BYTES) await this.overflow(lane);
    if (lane.page) {
      // One batch written while the next is split (the one before must be written first: rows stay in order).
      await lane.writing;
      const page = lane.page;
      lane.writing = page.writeNdjson(taken, rows, lane.secretKeyCandidates).then(() => recycleBlocks(taken));
      lane.writing.catch(() => undefined);
    } else if (lane.spill) {
      for (const piece of taken) await lane.spill.write(piece);
      recycleBlocks(taken);
    } else {
      lane.memory.push(...taken);
      lane.memoryBytes += bytes;
    }
  }

  /** A lane's rows past the memory bound: to the tentative page when free, else to a spill file. */
  private async overflow(lane: Lane): Promise<void> {
    const page = this.paged ? undefined : this.tentative?.();
    if (page) {
      this.paged = lane;
      lane.page = page;
      if (lane.memory.length > 0) await page.writeNdjson(lane.memory, countLines(lane.memory), lane.secretKeyCandidates);
    } else {
      lane.spill = await openSpill();
      for (const piece of lane.memory) await lane.spill.write(piece);
    }
    lane.memory = [];
    lane.memoryBytes = 0;
  }

  /** The long rows that ended, each after the rows before it; the parts of the one being read; then the rows after. */
  private async moveWithLong(lane: Lane): Promise<void> {
    const long = lane.long!;
    for (const ended of long.takeEnded()) {
      const before = this.moveRows(lane, [...ended.before], ended.rowsBefore);
      if (before) await before;
      // Weighed by its first byte, as the rule weighs a row (an object or not).
      lane.sample([Buffer.from([ended.first, NEWLINE])]);
      lane.moved = ended.rowsBefore + 1;
      if (!this.store || lane.dropped) await lane.dropLongRow();
      else await lane.longRowFile().ended(ended.parts, (row) => this.placeLong(lane, row));
    }
    const parts = long.takeParts();
    if (this.store && !lane.dropped) await lane.longRowFile().add(parts);
    const rest = this.moveRows(lane, lane.take(), lane.count);
    if (rest) await rest;
  }

  /** A long row in its place: into the tentative page (taken now if free), else copied into the lane's spill. */
  private async placeLong(lane: Lane, row: LongRow): Promise<void> {
    if (!lane.page && !lane.spill) await this.overflow(lane);
    const keys = lane.secretKeyCandidates;
    const page = lane.page;
    if (page) {
      await lane.writing;
      // Written before its file goes (when this resolves).
      lane.writing = longRowHeld(page, row, keys);
      await lane.writing;
      return;
    }
    // Read back whole with the lane's rows at the end (copyLines): held once then.
    await row.each((piece) => lane.spill!.write(piece));
    await lane.spill!.write(LINE_END);
  }
}
