// THE rule of a single response's rows in --out (`apiwb run` without --all-pages), kept here, the one
// place every such response passes, whatever its shape or fault:
//   the row count its line prints equals the rows it left in the file.
// - rows the rows rule found but could not take as given (a key given twice, an array passed over:
//   the walk's failure 'rows') are refused in words, the request fails, and whatever it wrote while the
//   body arrived is cut off the file again: the line owns no row of it;
// - rows fully received of a body that broke or was cut (rowsAsTheyArrive) stay: the line counts them
//   and the request fails (the exchange says why);
// - once a write to the file itself failed (wholly or in part: its end may be a torn row), everything the
//   request wrote is cut off, and said;
// - a failed request's rows kept in memory (not streamed) are never written (writeKept), and said;
// - any other difference between the rows counted and the rows written (no known case: a fault of
//   apiwb) is cut off and said, and the request fails.
// Rows are counted as they reach the sink (a page held while it arrives counts once kept). A response is
// one page: its end (settle) ends the page in the sink, streamed or not, so rows a format holds back for
// the page (CSV's header rows) are its own, never joined by the next request's.
import { wrappedSink, type HeldPage, type LongRow, type RowSink, type SinkMark } from '../core/export/sink';
import type { ExchangeResult } from '../core/run/exchange';
import { faultText } from '../core/text/faultText';

/** What the line of a request says of its rows in --out, once settled. */
export interface RowsInOut {
  /** The rows it left in the file: the count its line prints. */
  readonly rows: number;
  /** Why its rows in the file are not the rows the response counted, when they are not. */
  readonly words?: string;
  /** The words are a failure of the request (else a note on a request failed already). */
  readonly fails: boolean;
}

/** The rows a single response's line prints with --out: those in the file (none said when the response had no rows and wrote none). */
export function lineRows(rows: ExchangeResult['rows'], inOut: RowsInOut): number | undefined {
  return rows || inOut.rows > 0 ? inOut.rows : undefined;
}

export class ResponseRows {
  /** The sink the request's rows go through (rowsTo, and rows written after the exchange). */
  readonly sink: RowSink;
  private written = 0;
  /** A write to the file failed (its rows, or part of one, may be in the file all the same). */
  private failed = false;
  /** Rows the request kept in memory and were not written, it failed (writeKept): not counted. */
  private heldBack: number | undefined;
  private readonly mark: SinkMark | undefined;
  /** The sink as given (its page ended at settle). */
  private readonly inner: RowSink;

  constructor(inner: RowSink) {
    this.inner = inner;
    this.mark = inner.mark?.();
    this.sink = this.counting(inner);
  }

  /**
   * After the exchange: the rows it kept in memory (not streamed) are written only when the request is
   * good; a failed request's are held back. Returns why they could not be written, when they could not.
   */
  async writeKept(result: ExchangeResult): Promise<string | undefined> {
    const rows = result.rows;
    if (!rows || rows.items.length === 0) return undefined;
    if (!result.ok) {
      if (this.written === 0) this.heldBack = rows.count;
      return undefined;
    }
    try {
      await this.sink.writePage(rows.items);
      return undefined;
    } catch (error) {
      return `its rows could not be written to --out (${faultText(error)})`;
    }
  }

  /** After the request (and writeKept): what its line says, the file made to agree. */
  async settle(result: ExchangeResult): Promise<RowsInOut> {
    // The response's page ends here (a failed write is remembered: the file is cut back below).
    if (this.inner.endPage) await this.writing(this.inner.endPage()).catch(() => undefined);
    const counted = this.heldBack !== undefined ? 0 : result.rows?.count ?? 0;
    const failure = result.walk?.failure?.kind;
    const refused = failure === 'rows';
    // A write that failed may have left rows, and a torn one, whatever it counted: all of it goes.
    if (this.failed || (failure === 'sink' && this.written > 0)) return this.cutBack('--out could not be written whole');
    if (!refused && this.written === counted) {
      return this.heldBack !== undefined ? { rows: 0, words: `its ${this.heldBack} row(s) are not in --out (the request failed)`, fails: false } : { rows: this.written, fails: false };
    }
    const why = refused ? 'its rows were refused' : `it counted ${counted} row(s) but wrote ${this.written} (a fault of apiwb)`;
    if (this.written === 0) return refused ? { rows: 0, fails: false } : { rows: 0, words: `${why}; none is in --out`, fails: true };
    return this.cutBack(why);
  }

  private async cutBack(why: string): Promise<RowsInOut> {
    const written = this.written;
    const what = written > 0 ? `the ${written} row(s) it wrote to --out` : 'what it wrote to --out';
    if (!this.mark) return { rows: written, words: `${why}, but ${what} could not be cut off again`, fails: true };
    try {
      await this.mark.cutBack();
      this.written = 0;
      return { rows: 0, words: `${why}: ${what} while the body arrived ${written > 0 ? 'were' : 'was'} cut off again`, fails: true };
    } catch (error) {
      return { rows: written, words: `${why}, and ${what} could not be cut off again (${faultText(error)})`, fails: true };
    }
  }

  /** `work`, a write to the file: a failure is remembered (the file may hold part of it). */
  private async writing(work: Promise<void>): Promise<void> {
    try {
      await work;
    } catch (error) {
      this.failed = true;
      throw error;
    }
  }

  /** `inner`, its rows counted as they are written (a held page's once kept); the same optional parts. */
  private counting(inner: RowSink): RowSink {
    const counted = (write: (rows: readonly unknown[]) => Promise<void>) => async (rows: readonly unknown[]): Promise<void> => {
      await this.writing(write(rows));
      this.written += rows.length;
    };
    return wrappedSink(inner, {
      writePage: counted,
      writeRowsPart: counted,
      writeNdjsonPage: (ndjson) => async (lines, rowCount, keys) => {
        await this.writing(ndjson(lines, rowCount, keys));
        this.written += rowCount;
      },
      writeLongRow: (write) => async (row, keys) => {
        await this.writing(write(row, keys));
        this.written++;
      },
      endPage: (end) => () => this.writing(end()),
      openPage: (open) => () => this.countedPage(open()),
    });
  }

  private countedPage(page: HeldPage): HeldPage {
    let held = 0;
    return {
      writeNdjson: async (lines, rowCount, keys) => {
        await this.writing(page.writeNdjson(lines, rowCount, keys));
        held += rowCount;
      },
      writeRows: async (rows) => {
        await this.writing(page.writeRows(rows));
        held += rows.length;
      },
      ...(page.writeLongRow ? {
        writeLongRow: async (row: LongRow, keys: ReadonlySet<string>) => {
          await this.writing(page.writeLongRow!(row, keys));
          held++;
        },
      } : {}),
      keep: async () => {
        await this.writing(page.keep());
        this.written += held;
        held = 0;
      },
      drop: async () => {
        held = 0;
        await page.drop();
      },
    };
  }
}
