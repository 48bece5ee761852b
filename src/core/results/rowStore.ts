// The rows of a response the panel shows, as NDJSON lines in a SpillStore (memory up to SPILL_AT, then a
// spill file), with a sparse index (the offset of every INDEX_EVERY-th row), so any window of rows is read
// back from disk without holding the others. It is a RowSink: the exchange writes the rows to it as they
// arrive (ExchangeInput.rowsTo), a page held until the walk keeps it (openPage) and cut off if refused.
// The rows are kept as received: whoever shows them redacts them (the panel's rules).
import { ndjsonLines } from '../export/ndjsonSink';
import type { HeldPage, LongRow, RowSink, SinkCheckpoint } from '../export/sink';
import { SpillStore } from './spillStore';

const INDEX_EVERY = 64;
const READ_BYTES = 1 << 20;
const NEWLINE = 0x0a;
const LINE_END = Buffer.from('\n');
/** A row longer than this is shown as words, never read whole into the panel (a row of one huge value). */
export const MAX_SHOWN_ROW_BYTES = 4 << 20;

interface Mark {
  readonly rows: number;
  readonly indexed: number;
  readonly written: number;
  readonly nextStart: number;
}

export class RowStore implements RowSink {
  readonly format = 'ndjson' as const;
  readonly bytes: SpillStore;
  private rows = 0;
  private readonly index: number[] = [];
  /** Bytes handed to `bytes` (ahead of its size while a write is under way). */
  private written = 0;
  /** Where the next row starts. */
  private nextStart = 0;
  /** The state after the last page kept: a page dropped goes back to it. */
  private kept: Mark = { rows: 0, indexed: 0, written: 0, nextStart: 0 };

  constructor(spillAt?: number) {
    this.bytes = new SpillStore(spillAt);
  }

  /** Rows kept (a page being written counts once the walk keeps it). */
  get rowCount(): number {
    return this.kept.rows;
  }

  /** True once the rows live in a file. */
  get spilled(): boolean {
    return this.bytes.spilled;
  }

  async writePage(rows: readonly unknown[]): Promise<void> {
    await this.append([Buffer.from(ndjsonLines(rows), 'utf8')]);
    this.keep();
  }

  async writeNdjsonPage(lines: readonly Buffer[]): Promise<void> {
    await this.append(lines);
    this.keep();
  }

  /** A row too long to hold, appended from its file piece by piece (never held whole here). */
  async writeLongRow(row: LongRow): Promise<void> {
    await this.appendLongRow(row);
    this.keep();
  }

  openPage(): HeldPage {
    return {
      writeNdjson: (lines) => this.append(lines),
      writeLongRow: (row) => this.appendLongRow(row),
      writeRows: (rows) => this.append([Buffer.from(ndjsonLines(rows), 'utf8')]),
      keep: () => {
        this.keep();
        return Promise.resolve();
      },
      drop: () => this.drop(),
    };
  }

  checkpoint(): SinkCheckpoint | undefined {
    return undefined;
  }

  /** The walk is done with it; the rows stay until remove(). */
  close(): Promise<void> {
    return Promise.resolve();
  }

  remove(): Promise<void> {
    return this.bytes.remove();
  }

  /**
   * Rows [from, from + count) of those kept, parsed, as received. Rejects in words when the file is gone,
   * cut short, or a line is not JSON (never returns part of a row).
   */
  async readRows(from: number, count: number): Promise<unknown[]> {
    const end = Math.min(this.kept.rows, from + count);
    const out: unknown[] = [];
    if (from < 0 || from >= end) return out;
    const block = Math.floor(from / INDEX_EVERY);
    let offset = this.index[block]!;
    let skip = from - block * INDEX_EVERY;
    // A line longer than a read is carried as its pieces, joined once at its end (never again at every
    // read); past MAX_SHOWN_ROW_BYTES it is only measured, and stands as words (the panel never holds it).
    let carry: Buffer[] = [];
    let carried = 0;
    const limit = this.kept.written;
    while (offset < limit) {
      const chunk = await this.bytes.read(offset, Math.min(limit, offset + READ_BYTES));
      if (chunk.length === 0) break;
      offset += chunk.length;
      let start = 0;
      for (let nl = chunk.indexOf(NEWLINE); nl >= 0; nl = chunk.indexOf(NEWLINE, start)) {
        if (skip > 0) skip--;
        else {
          const size = carried + nl - start;
          const line = size > MAX_SHOWN_ROW_BYTES ? undefined : carry.length > 0 ? Buffer.concat([...carry, chunk.subarray(start, nl)]) : chunk.subarray(start, nl);
          out.push(line ? parseLine(line.toString('utf8'), from + out.length) : rowTooLarge(size));
          if (from + out.length === end) return out;
        }
        carry = [];
        carried = 0;
        start = nl + 1;
      }
      carried += chunk.length - start;
      // A row skipped over, or past the bound, is not kept while it passes.
      if (start < chunk.length && skip === 0 && carried <= MAX_SHOWN_ROW_BYTES) carry.push(chunk.subarray(start));
      else carry = [];
    }
    throw new Error(`the rows on disk end after row ${from + out.length} of ${this.kept.rows}`);
  }

  private async append(lines: readonly Buffer[]): Promise<void> {
    for (const buffer of lines) {
      const base = this.written;
      for (let nl = buffer.indexOf(NEWLINE); nl >= 0; nl = buffer.indexOf(NEWLINE, nl + 1)) {
        if (this.rows % INDEX_EVERY === 0) this.index.push(this.nextStart);
        this.rows++;
        this.nextStart = base + nl + 1;
      }
      this.written += buffer.length;
      await this.bytes.write(buffer);
    }
  }

  private async appendLongRow(row: LongRow): Promise<void> {
    await row.each((piece) => this.append([piece]));
    await this.append([LINE_END]);
  }

  private keep(): void {
    this.kept = { rows: this.rows, indexed: this.index.length, written: this.written, nextStart: this.nextStart };
  }

  private async drop(): Promise<void> {
    ({ rows: this.rows, written: this.written, nextStart: this.nextStart } = this.kept);
    this.index.length = this.kept.indexed;
    await this.bytes.truncate(this.written);
  }
}

/** What stands in the panel for a row too long to show. */
function rowTooLarge(bytes: number): string {
  return `(a row of ${(bytes / 1048576).toFixed(0)} MB, too large to show here)`;
}

function parseLine(text: string, row: number): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new Error(`row ${row + 1} on disk is not JSON (the file was changed or cut)`);
  }
}
