// Where a walk's rows go. A sink takes one page at a time and resolves only once the page's bytes are
// handed to the operating system (and flushed to disk when `durable`), so a page the walker has
// written survives a crash of the walk that follows. Sinks hold one page at most: memory stays flat.
export type SinkFormat = 'ndjson' | 'csv';

/** Enough to reopen a sink after a fault and append without duplicates (JSON-serialisable). */
export interface SinkCheckpoint {
  readonly format: SinkFormat;
  readonly path: string;
  /** File length after the last page written; a resumed sink truncates to it (drops a torn page). */
  readonly bytes: number;
  /** CSV only: the header's columns, fixed by the first rows of the first response or page with rows (csvSink.ts). */
  readonly columns?: readonly string[];
}

export interface RowSink {
  readonly format: SinkFormat | 'memory';
  /**
   * True when the rows handed to it go nowhere (a walk whose rows are only counted): the walker may
   * then count a page's rows without encoding them (nothing reads their bytes).
   */
  readonly countsOnly?: boolean;
  /** Appends one page's rows. Pages are written whole or the returned promise rejects. */
  writePage(rows: readonly unknown[]): Promise<void>;
  /**
   * Optional: appends rows that are a part of a page being written as it arrives, not a page of their own
   * (the redacting sink's rows of a streamed part it changed; a CSV header is fixed by a page's first
   * rows, not by a part's). Without it, writePage.
   */
  writeRowsPart?(rows: readonly unknown[]): Promise<void>;
  /**
   * Optional: the page written in parts (writeNdjsonPage, writeRowsPart: a single response's rows as they
   * arrive) ends here, as a page written whole or a held page kept ends by itself: rows a format held back
   * for the page are written (CSV's first rows, until its header is fixed).
   */
  endPage?(): Promise<void>;
  /**
   * Optional: appends a page already encoded as NDJSON lines (the walker's streamed pages). Every file
   * sink offers it (CSV and the JSON array through encodedSink.ts); the walker reads a page whole for a
   * sink without it (the memory sink).
   * `secretKeyCandidates`: the rows' keys that may name a secret, as the row splitter found them
   * (JsonRowSplitter.secretKeyCandidates), for the redacting sink. The buffers are the caller's again
   * once the promise resolves (they may be reused for the next rows): a sink must not keep them.
   */
  writeNdjsonPage?(lines: readonly Buffer[], rowCount: number, secretKeyCandidates: ReadonlySet<string>): Promise<void>;
  /**
   * Optional, with writeNdjsonPage: appends one row too long to hold, read from its file piece by piece,
   * written whole or not at all (never while a page is held: openPage). Without it the row is read whole
   * and written as a page of one line (longRow.ts, longRowWritten).
   */
  writeLongRow?(row: LongRow, secretKeyCandidates: ReadonlySet<string>): Promise<void>;
  /**
   * Optional, with writeNdjsonPage: a page written in parts while it arrives (the walker's streamed
   * pages), kept only once the walker has accepted it. Until then its bytes lie past the kept ones:
   * checkpoint() does not count them, a resumed sink cuts them off, and drop() cuts them at once.
   */
  openPage?(): HeldPage;
  /** The state to resume from, valid after each successful writePage. */
  checkpoint(): SinkCheckpoint | undefined;
  /**
   * Optional: where the file ends now (no page held). Cutting back to it removes every byte written
   * since, kept or not: a single response's rows its run disowns (src/cli/responseRows.ts).
   */
  mark?(): SinkMark;
  close(): Promise<void>;
  /** Optional, after close: the file is as it was before the sink (no row kept: none written, or all cut off again). */
  leftAsItWas?(): boolean;
}

/** A RowSink's members that do something (not its format or countsOnly). */
type SinkMembers = Omit<RowSink, 'format' | 'countsOnly'>;

/** How a wrapper changes the members it changes: each given the inner sink's own (bound), when it has one. */
export type SinkChanges = { readonly [K in keyof SinkMembers]?: (own: NonNullable<SinkMembers[K]>) => NonNullable<SinkMembers[K]> };

/** Every member of RowSink (the compiler fails here when the interface gains one that is not listed). */
const MEMBERS: Readonly<Record<keyof SinkMembers, true>> = {
  writePage: true, writeRowsPart: true, endPage: true, writeNdjsonPage: true, writeLongRow: true, openPage: true, checkpoint: true, mark: true, close: true, leftAsItWas: true,
};

/**
 * `inner` behind a wrapper (redacting, counting, telling a growing file): every member the inner sink has
 * is the wrapper's too, as `changes` makes it or else the inner's own, so no optional one (endPage, where
 * a CSV fixes its header; writeRowsPart) is dropped on the way; one the inner lacks stays absent.
 */
export function wrappedSink(inner: RowSink, changes: SinkChanges): RowSink {
  const sink: Record<string, unknown> = { format: inner.format, ...(inner.countsOnly ? { countsOnly: true } : {}) };
  const members = inner as unknown as Readonly<Record<string, ((...args: never[]) => unknown) | undefined>>;
  for (const key of Object.keys(MEMBERS) as (keyof SinkMembers)[]) {
    const own = members[key];
    if (own === undefined) continue;
    const change = changes[key] as ((own: unknown) => unknown) | undefined;
    sink[key] = change ? change(own.bind(inner)) : own.bind(inner);
  }
  return sink as unknown as RowSink;
}

/** A row too long to hold (longRowParts.ts), in a file of its own while it is written: read back in pieces. */
export interface LongRow {
  /** Its bytes: one line, without its line end. */
  readonly size: number;
  /** Its bytes in order, piece by piece (each piece is `each`'s own); resolves once `each` resolved for the last. */
  each(piece: (bytes: Buffer) => void | Promise<void>): Promise<void>;
}

/** A point of a sink's file to cut back to (RowSink.mark). */
export interface SinkMark {
  /** Removes everything written since the mark (the file ends where it ended then). */
  cutBack(): Promise<void>;
}

/** A page being written while it arrives (RowSink.openPage); one at a time, ended by keep() or drop(). */
export interface HeldPage {
  /** As RowSink.writeNdjsonPage, not kept yet. The buffers are the caller's again once it resolves. */
  writeNdjson(lines: readonly Buffer[], rowCount: number, secretKeyCandidates: ReadonlySet<string>): Promise<void>;
  /** As RowSink.writePage, not kept yet (the redacting sink's path for lines it must redact). */
  writeRows(rows: readonly unknown[]): Promise<void>;
  /** Optional: as RowSink.writeLongRow, not kept yet. Without it, the row is read whole and written with writeNdjson. */
  writeLongRow?(row: LongRow, secretKeyCandidates: ReadonlySet<string>): Promise<void>;
  /** The page is accepted: everything written through it counts as written (and is flushed to disk when `durable`). */
  keep(): Promise<void>;
  /** The page is refused: everything written through it is cut off the file. */
  drop(): Promise<void>;
}

export interface FileSinkOptions {
  /** Continue a file from a checkpoint instead of starting it anew. */
  readonly resume?: SinkCheckpoint;
  /** fdatasync after every page (slower; survives power loss, not only a crash of the process). */
  readonly durable?: boolean;
  /** A new file only: fail if the name exists already (a panel export's fresh name). */
  readonly exclusive?: boolean;
  /**
   * Asked at close when nothing was written: true (the default) makes the file, empty; false leaves what
   * was there (a run that failed before its first row keeps yesterday's file).
   */
  readonly replaceUnwritten?: () => boolean;
  /** CSV only: write cells that start like a formula as they are (see csvSink's neutralise). */
  readonly csvFormulas?: 'neutralise' | 'raw';
  /**
   * How a note of the file reaches the user (where the old file is kept, when a signal stops the run),
   * at once: it is said from a signal handler. The CLI's: its stderr line, redacted and terminal-safe.
   */
  readonly say?: (note: string) => void;
}

/** Keeps rows in memory: for tests and for the panel's "next page" (one page), never for "all pages". */
export function memorySink(): RowSink & { readonly pages: unknown[][] } {
  const pages: unknown[][] = [];
  return {
    format: 'memory',
    pages,
    writePage(rows) {
      pages.push([...rows]);
      return Promise.resolve();
    },
    checkpoint: () => undefined,
    close: () => Promise.resolve(),
  };
}
