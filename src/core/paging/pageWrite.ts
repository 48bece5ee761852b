// "Written" and "kept": a page streamed to a sink that can hold pages (RowSink.openPage: the NDJSON
// file) is written in parts WHILE it arrives, as a plain client writes what it downloads, but past the
// bytes kept: only once the page is accepted and its last part written does it count (checkpoint, file
// length), and only then is the next request sent. A page that is not kept (refused, inconsistent, a
// fault, a stop) is cut off the file again before the walk returns. So before a request is sent, every
// byte of the previous page has been handed to the operating system and any error of that write has
// failed that page; a crash mid-page leaves bytes past the checkpoint, which a resume cuts off (as it
// cuts a torn write). Each part passes the redacting sink first (its rows are redacted row by row), so a
// secret never reaches the file, not even in a page later refused.
import { recycleBlocks } from '../export/byteBlocks';
import { longRowWritten } from '../export/longRow';
import type { HeldPage, LongRow, RowSink } from '../export/sink';
import type { LongRowWrite } from './earlyBatches';
import type { FetchedPage } from './pageFetch';
import { PageEdges } from './pageChecks';
import { faultText } from '../text/faultText';

/** Rows handed over while a page arrives: its NDJSON lines, how many rows, the keys that may name a secret. */
export type EarlyWrite = (ndjson: readonly Buffer[], rows: number, secretKeyCandidates: ReadonlySet<string>) => Promise<void>;

/** A sink that failed while rows were handed to it during the download. */
export class SinkFault extends Error {
  constructor(cause: unknown) {
    super(faultText(cause));
  }
}

/**
 * The held page of a sink whose rows go nowhere (`countsOnly`, which holds no pages): a page streams
 * through it as through a file's, its edge rows seen on the way (the walk's checks), and nothing is kept,
 * so a page is never gathered whole to be dropped.
 */
const COUNTED_PAGE: HeldPage = {
  writeNdjson: () => Promise.resolve(),
  writeRows: () => Promise.resolve(),
  keep: () => Promise.resolve(),
  drop: () => Promise.resolve(),
};

/** One page's way into the sink, a page at a time. */
export class PageWriting {
  private held: HeldPage | undefined;
  /** The edge rows of a streamed page seen while it arrived (made only for one held). */
  private edges: PageEdges | undefined;
  /** Rows of the page being read already written to the sink for good as they arrived (asTheyArrive), its page not kept yet. */
  arrived = 0;
  /** Rows of this page went to the sink without passing `edges` (written as they arrive, not held). */
  private unseen = false;
  /** The held page is lent to an array of the body while it arrives (lend). */
  private lent = false;

  constructor(private readonly sink: RowSink) {}

  /** Starts a page: held when its rows stream to a sink that can hold pages. */
  begin(hold: boolean): void {
    this.held = hold ? this.open() : undefined;
    this.edges = undefined;
    this.arrived = 0;
    this.unseen = false;
    this.lent = false;
  }

  /**
   * The page's edge rows once the rest of its NDJSON (`ndjson`, not yet written) is seen too; with
   * `whole`, whether every row of the page passed them (none went to the sink unseen as it arrived).
   */
  seeRest(ndjson: readonly Buffer[]): { readonly edges: PageEdges; readonly whole: boolean } {
    return { edges: (this.edges ??= new PageEdges()).see(ndjson), whole: !this.unseen };
  }

  private open(): HeldPage | undefined {
    return this.sink.openPage?.() ?? (this.sink.countsOnly ? COUNTED_PAGE : undefined);
  }

  get holding(): boolean {
    return this.held !== undefined;
  }

  /**
   * What writes the page's rows while it arrives: straight to the sink, where they count as written at
   * once (`asTheyArrive`, a one-page walk), or into the held page; undefined: the page is written once kept.
   * A write that fails is a SinkFault.
   */
  early(asTheyArrive: boolean): EarlyWrite | undefined {
    const write = this.earlyWrite(asTheyArrive);
    return write && ((ndjson, n, keys) => write(ndjson, n, keys).catch((error: unknown) => { throw new SinkFault(error); }));
  }

  private earlyWrite(asTheyArrive: boolean): EarlyWrite | undefined {
    const { sink } = this;
    if (asTheyArrive && sink.writeNdjsonPage) {
      return (ndjson, n, keys) => {
        this.unseen = true;
        return sink.writeNdjsonPage!(ndjson, n, keys).then(() => { this.arrived += n; });
      };
    }
    if (!this.held) return undefined;
    // The page held now: a lent page dropped (lend) starts the page anew.
    return (ndjson, n, keys) => this.writeHeld(ndjson, n, keys);
  }

  /**
   * What writes a row too long to hold, from its file, while the page arrives: straight to the sink, where
   * it counts as written at once (`asTheyArrive`); a held page holds such a row whole (undefined).
   */
  longRow(asTheyArrive: boolean): LongRowWrite | undefined {
    const { sink } = this;
    if (!asTheyArrive || !sink.writeNdjsonPage) return undefined;
    return (row, keys) => {
      this.unseen = true;
      return longRowWritten(sink, row, keys).then(() => { this.arrived += 1; }, (error: unknown) => { throw new SinkFault(error); });
    };
  }

  private writeHeld(ndjson: readonly Buffer[], n: number, keys: ReadonlySet<string>): Promise<void> {
    // Its edge rows are copied before the parts are written and reused.
    (this.edges ??= new PageEdges()).see(ndjson);
    return this.held!.writeNdjson(ndjson, n, keys);
  }

  /**
   * Pages of the sink written while a part of the body arrives and kept or dropped by the reader (an
   * object's array the rows rule may pick: anywhereFetch.ts); writes fail as SinkFault. With
   * `asTheyArrive`, pages of their own; else (a walk's page, held) the page's own held page, lent (lend).
   */
  tentative(asTheyArrive: boolean): (() => HeldPage | undefined) | undefined {
    const { sink } = this;
    if (!asTheyArrive) return this.held ? () => this.lend() : undefined;
    if (!sink.writeNdjsonPage || !sink.openPage) return undefined;
    return () => {
      const page = sink.openPage!();
      const fault = (error: unknown): never => { throw new SinkFault(error); };
      let rows = 0;
      return {
        writeNdjson: (ndjson, n, keys) => page.writeNdjson(ndjson, n, keys).then(() => { rows += n; }, fault),
        writeRows: (some) => page.writeRows(some).then(() => { rows += some.length; }, fault),
        ...(page.writeLongRow ? { writeLongRow: (row: LongRow, keys: ReadonlySet<string>) => page.writeLongRow!(row, keys).then(() => { rows++; }, fault) } : {}),
        keep: () => page.keep().then(() => { this.arrived += rows; }, fault),
        drop: () => page.drop(),
      };
    };
  }

  /**
   * The held page lent to one array of an object body while it arrives, one at a time: its rows are
   * written into the page as they come (--out grows with the download). Kept: they are the page's rows,
   * kept with it once the walker accepts it. Dropped (the rows rule chose another array): cut off the
   * file, and the page starts anew, empty, for the rows the rule chose.
   */
  private lend(): HeldPage | undefined {
    if (!this.held || this.lent) return undefined;
    this.lent = true;
    const fault = (error: unknown): never => { throw new SinkFault(error); };
    return {
      writeNdjson: (ndjson, n, keys) => this.writeHeld(ndjson, n, keys).catch(fault),
      writeRows: (rows) => this.held!.writeRows(rows).catch(fault),
      keep: () => {
        this.lent = false;
        return Promise.resolve();
      },
      drop: async () => {
        this.lent = false;
        const page = this.held;
        if (!page) return;
        await page.drop().catch(fault);
        this.held = this.open();
        this.edges = undefined;
      },
    };
  }

  /** A page that is not kept: what it wrote while it arrived is cut off the file; why that failed, if it did. */
  async cutOff(): Promise<string | undefined> {
    const page = this.held;
    this.held = undefined;
    try {
      await page?.drop();
      return undefined;
    } catch (error) {
      return `the rows of a page that was not kept could not be cut off the file (${faultText(error)})`;
    }
  }

  /**
   * Writes the page and keeps it: the rest of a streamed page after what it wrote while it arrived, or
   * `rows` (rows the strategy took from elsewhere than the streamed bytes: those bytes are not the page).
   * Rejects when a write fails; a string: the bytes streamed could not be cut off first.
   */
  async keep(rows: readonly unknown[], streamed: FetchedPage['streamed']): Promise<string | undefined> {
    const { sink, held } = this;
    if (streamed && held) {
      await held.writeNdjson(streamed.ndjson, streamed.rowCount - streamed.earlyRows, streamed.secretKeyCandidates);
      await held.keep();
      this.held = undefined;
      recycleBlocks(streamed.ndjson);
    } else if (streamed && sink.writeNdjsonPage) {
      await sink.writeNdjsonPage(streamed.ndjson, streamed.rowCount - streamed.earlyRows, streamed.secretKeyCandidates);
      // Written: the next page's rows go into the same memory.
      recycleBlocks(streamed.ndjson);
    } else {
      const problem = await this.cutOff();
      if (problem) return problem;
      await sink.writePage(rows);
    }
    // Kept: its rows written as they arrived count with the page now.
    this.arrived = 0;
    return undefined;
  }

  /** After a throw (a strategy's bug, a caller's onPage): a page still held goes, so the file stays the checkpoint's length. */
  async dropAfterThrow(): Promise<void> {
    const page = this.held;
    this.held = undefined;
    if (page) await page.drop().catch(() => undefined);
  }
}
