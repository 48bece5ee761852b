// A row too long to hold (longRowParts.ts) as sinks take it: from the spill file it was written to while
// it arrived, piece by piece (RowSink.writeLongRow), or, for a sink that cannot (a CSV's cells, a row
// that may need redaction), read whole, within the bound a value held in memory has anywhere.
import { parseKeepingNumbers } from '../json/numberText';
import { openSpill, type Spill } from '../json/spill';
import type { HeldPage, LongRow, RowSink } from './sink';

/** The most of a long row read whole into memory (the row splitter's bound of a value it holds). */
export const MAX_WHOLE_LONG_ROW_BYTES = 256 * 1048576;

/**
 * The file of the long row being read (0600, its own; removed once written, or when the row is cut): its
 * parts appended as they come (longRowParts.ts), then the row handed on whole.
 */
export class LongRowSpill {
  private file: Spill | undefined;
  private size = 0;

  /** The row's next parts, appended. */
  async add(parts: readonly Buffer[]): Promise<void> {
    if (parts.length === 0) return;
    this.file ??= await openSpill();
    for (const part of parts) {
      await this.file.write(part);
      this.size += part.length;
    }
  }

  /** The row ended with `parts`: `use` reads it from its file, which is removed after (whatever `use` does). */
  async ended(parts: readonly Buffer[], use: (row: LongRow) => Promise<void>): Promise<void> {
    await this.add(parts);
    const file = this.file!, size = this.size;
    this.file = undefined;
    this.size = 0;
    try {
      await use({ size, each: (piece) => file.readBack(piece) });
    } finally {
      await file.remove();
    }
  }

  /** The row was cut (a fault): its file removed. */
  async drop(): Promise<void> {
    const file = this.file;
    this.file = undefined;
    this.size = 0;
    await file?.remove();
  }
}

/** The row's line (its bytes and a line end) in one buffer; refused past MAX_WHOLE_LONG_ROW_BYTES. */
export async function longRowLine(row: LongRow): Promise<Buffer> {
  if (row.size > MAX_WHOLE_LONG_ROW_BYTES) {
    throw new Error(`a row of ${Math.ceil(row.size / 1048576)} MiB would have to be held whole (more than ${MAX_WHOLE_LONG_ROW_BYTES / 1048576} MiB) to be redacted or written as CSV or a JSON array`);
  }
  const line = Buffer.allocUnsafe(row.size + 1);
  let at = 0;
  await row.each((piece) => {
    if (at + piece.length > row.size) throw new Error('a long row grew while it was read back');
    at += piece.copy(line, at);
  });
  if (at !== row.size) throw new Error('a long row was read back shorter than it was written');
  line[at] = 0x0a;
  return line;
}

/** Writes `row` into a held page: in pieces where the page takes them, else read whole as one line. */
export async function longRowHeld(page: HeldPage, row: LongRow, secretKeyCandidates: ReadonlySet<string>): Promise<void> {
  if (page.writeLongRow) return page.writeLongRow(row, secretKeyCandidates);
  return page.writeNdjson([await longRowLine(row)], 1, secretKeyCandidates);
}

/** Writes `row` to `sink`: in pieces where the sink takes them, else read whole as a page of one line. */
export async function longRowWritten(sink: RowSink, row: LongRow, secretKeyCandidates: ReadonlySet<string>): Promise<void> {
  if (sink.writeLongRow) return sink.writeLongRow(row, secretKeyCandidates);
  const line = await longRowLine(row);
  if (sink.writeNdjsonPage) return sink.writeNdjsonPage([line], 1, secretKeyCandidates);
  return sink.writePage([parseKeepingNumbers(line.toString('utf8', 0, row.size))]);
}
