// The rows of a response the panel shows, as NDJSON lines in a SpillStore (memory up to SPILL_AT, then a
// spill file), with a sparse index (the offset of every INDEX_EVERY-th row), so any window of rows is read
// back from disk without holding the others. It is a RowSink: the exchange writes the rows to it as they
// arrive (ExchangeInput.rowsTo), a page held until the walk keeps it (openPage) and cut off if refused.
// The rows are kept as received: whoever shows them redacts them (the panel's rules).
import { ndjsonLines } from '../export/ndjsonSink';
import type { HeldPage, RowSink, SinkCheckpoint } from '../export/sink';
import { SpillStore } from './spillStore';

const INDEX_EVERY = 64;
const READ_BYTES = 1 << 20;
const NEWLINE = 0x0a;

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

  openPage(): HeldPage {
    return {
      writeNdjson: (lines) => this.append(lines),
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
    let carry: Buffer | undefined;
    const limit = this.kept.written;
    while (offset < limit || carry) {
      const chunk = await this.bytes.read(offset, Math.min(limit, offset + READ_BYTES));
      if (chunk.length === 0) break;
      offset += chunk.length;
      const data = carry ? Buffer.concat([carry, chunk]) : chunk;
      let start = 0;
      for (let nl = data.indexOf(NEWLINE); nl >= 0; nl = data.indexOf(NEWLINE, start)) {
        if (skip > 0) skip--;
        else {
          out.push(parseLine(data.toString('utf8', start, nl), from + out.length));
          if (from + out.length === end) return out;
        }
        start = nl + 1;
      }
      carry = start < data.length ? data.subarray(start) : undefined;
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

  private keep(): void {
    this.kept = { rows: this.rows, indexed: this.index.length, written: this.written, nextStart: this.nextStart };
  }

  private async drop(): Promise<void> {
    ({ rows: this.rows, written: this.written, nextStart: this.nextStart } = this.kept);
    this.index.length = this.kept.indexed;
    await this.bytes.truncate(this.written);
  }
}

function parseLine(text: string, row: number): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new Error(`row ${row + 1} on disk is not JSON (the file was changed or cut)`);
  }
}
