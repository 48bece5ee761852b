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
import type { HeldPage, RowSink } from '../export/sink';
import type { FetchedPage } from './pageFetch';
import { PageEdges } from './pageChecks';

/** Rows handed over while a page arrives: its NDJSON lines, how many rows, the keys that may name a secret. */
export type EarlyWrite = (ndjson: readonly Buffer[], rows: number, secretKeyCandidates: ReadonlySet<string>) => Promise<void>;

/** A sink that failed while rows were handed to it during the download. */
export class SinkFault extends Error {
  constructor(cause: unknown) {
    super(cause instanceof Error ? cause.message : String(cause));
  }
}

/** One page's way into the sink, a page at a time. */
export class PageWriting {
  private held: HeldPage | undefined;
  /** The edge rows of a streamed page seen while it arrived (made only for one held). */
  edges: PageEdges | undefined;
  /** Rows of the page being read already written to the sink for good as they arrived (asTheyArrive), its page not kept yet. */
  arrived = 0;

  constructor(private readonly sink: RowSink) {}

  /** Starts a page: held when its rows stream to a sink that can hold pages. */
  begin(hold: boolean): void {
    this.held = hold ? this.sink.openPage?.() : undefined;
    this.edges = undefined;
    this.arrived = 0;
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
    const { sink, held } = this;
    if (asTheyArrive && sink.writeNdjsonPage) return (ndjson, n, keys) => sink.writeNdjsonPage!(ndjson, n, keys).then(() => { this.arrived += n; });
    if (!held) return undefined;
    return (ndjson, n, keys) => {
      // Its edge rows are copied before the parts are written and reused.
      (this.edges ??= new PageEdges()).see(ndjson);
      return held.writeNdjson(ndjson, n, keys);
    };
  }

  /**
   * With `asTheyArrive`: pages of the sink written while a part of the body arrives and kept or dropped
   * by the reader (an object's array the rows rule may pick: anywhereFetch.ts); writes fail as SinkFault.
   */
  tentative(asTheyArrive: boolean): (() => HeldPage | undefined) | undefined {
    const { sink } = this;
    if (!asTheyArrive || !sink.writeNdjsonPage || !sink.openPage) return undefined;
    return () => {
      const page = sink.openPage!();
      const fault = (error: unknown): never => { throw new SinkFault(error); };
      let rows = 0;
      return {
        writeNdjson: (ndjson, n, keys) => page.writeNdjson(ndjson, n, keys).then(() => { rows += n; }, fault),
        writeRows: (some) => page.writeRows(some).then(() => { rows += some.length; }, fault),
        keep: () => page.keep().then(() => { this.arrived += rows; }, fault),
        drop: () => page.drop(),
      };
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
      return `the rows of a page that was not kept could not be cut off the file (${error instanceof Error ? error.message : String(error)})`;
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
