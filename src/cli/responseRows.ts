// THE rule of a single response's rows in --out (`apiwb run` without --all-pages), kept here, the one
// place every such response passes, whatever its shape or fault:
//   the row count its line prints equals the rows it left in the file.
// - rows the rows rule found but could not take as given (a key given twice, an array passed over:
//   the walk's failure 'rows') are refused in words, the request fails, and whatever it wrote while the
//   body arrived is cut off the file again: the line owns no row of it;
// - rows fully received of a body that broke or was cut (rowsAsTheyArrive) stay: the line counts them
//   and the request fails (the exchange says why);
// - rows written before the file itself failed (the walk's failure 'sink': its end may be a torn row)
//   are cut off too, and said;
// - any other difference between the rows counted and the rows written (no known case: a fault of
//   apiwb) is cut off and said, and the request fails.
// Rows are counted as they reach the sink (a page held while it arrives counts once kept).
import type { HeldPage, RowSink, SinkMark } from '../core/export/sink';
import type { ExchangeResult } from '../core/run/exchange';

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
  private readonly mark: SinkMark | undefined;

  constructor(inner: RowSink) {
    this.mark = inner.mark?.();
    this.sink = this.counting(inner);
  }

  /**
   * After the request (and the rows written after its exchange, if any): what its line says, the file made
   * to agree. A failed request's rows kept in memory are never written (runCommand's runOne): not counted.
   */
  async settle(result: ExchangeResult): Promise<RowsInOut> {
    const rows = result.rows;
    const heldBack = !result.ok && rows !== undefined && rows.items.length > 0 && this.written === 0;
    const counted = heldBack ? 0 : rows?.count ?? 0;
    const failure = result.walk?.failure?.kind;
    const refused = failure === 'rows';
    if (failure === 'sink' && this.written > 0) return this.cutBack('--out could not be written whole');
    if (!refused && this.written === counted) {
      return heldBack ? { rows: 0, words: `its ${rows.count} row(s) are not in --out (the request failed)`, fails: false } : { rows: this.written, fails: false };
    }
    const why = refused ? 'its rows were refused' : `it counted ${counted} row(s) but wrote ${this.written} (a fault of apiwb)`;
    if (this.written === 0) return refused ? { rows: 0, fails: false } : { rows: 0, words: `${why}; none is in --out`, fails: true };
    return this.cutBack(why);
  }

  private async cutBack(why: string): Promise<RowsInOut> {
    const written = this.written;
    if (!this.mark) return { rows: written, words: `${why}, but the ${written} row(s) it wrote to --out could not be cut off again`, fails: true };
    try {
      await this.mark.cutBack();
      this.written = 0;
      return { rows: 0, words: `${why}: the ${written} row(s) it wrote to --out while the body arrived were cut off again`, fails: true };
    } catch (error) {
      return { rows: written, words: `${why}, and the ${written} row(s) it wrote to --out could not be cut off again (${error instanceof Error ? error.message : String(error)})`, fails: true };
    }
  }

  /** `inner`, its rows counted as they are written (a held page's once kept); the same optional parts. */
  private counting(inner: RowSink): RowSink {
    const sink: RowSink = {
      format: inner.format,
      writePage: async (rows) => {
        await inner.writePage(rows);
        this.written += rows.length;
      },
      checkpoint: () => inner.checkpoint(),
      close: () => inner.close(),
    };
    if (inner.countsOnly) Object.assign(sink, { countsOnly: true });
    const ndjson = inner.writeNdjsonPage?.bind(inner);
    if (ndjson) {
      sink.writeNdjsonPage = async (lines, rowCount, keys) => {
        await ndjson(lines, rowCount, keys);
        this.written += rowCount;
      };
    }
    const open = inner.openPage?.bind(inner);
    if (open) sink.openPage = () => this.countedPage(open());
    if (inner.mark) sink.mark = inner.mark.bind(inner);
    return sink;
  }

  private countedPage(page: HeldPage): HeldPage {
    let held = 0;
    return {
      writeNdjson: async (lines, rowCount, keys) => {
        await page.writeNdjson(lines, rowCount, keys);
        held += rowCount;
      },
      writeRows: async (rows) => {
        await page.writeRows(rows);
        held += rows.length;
      },
      keep: async () => {
        await page.keep();
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
