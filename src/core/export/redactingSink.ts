// The sink every product surface writes rows through (the panel's "All pages" and "Export", the CLI's
// --out): rows pass Redactor.row first. Streamed NDJSON pages (the walker's fast path) keep that path
// when they hold nothing to redact — their keys that may name a secret (found by the row splitter) are
// asked of the rule, their bytes searched for known values, never decoded into a string — and fall
// back to parse → redact → write when they might: a secret-named key, a known secret value, or any
// JSON escape (a server can echo a secret as `\u0073k_live…`, which only a parse reveals). A page
// written while it arrives (openPage) is judged the same way part by part: each part holds whole rows,
// and redaction is row by row, so a part with nothing to redact is written as it came. A part that is
// parsed is redacted row by row too: rows redaction leaves as they were keep their lines as the service
// sent them (a number JSON.stringify cannot write, such as 1E400, stays as it came, as on the fast path),
// rows it changed go on as rows (their numbers' text kept: NumberText), in order. A part's rows are a
// part of a page, never a page of their own (writeRowsPart: a CSV header is fixed by a page's first
// rows, not a part's). A row too long to hold (writeLongRow) is tested the same way piece by piece from
// its file: written from it when nothing in it may need redaction, else read whole and redacted.
import type { Redactor } from '../secrets/redact';
import { keepsNumberText, parseKeepingNumbers } from '../json/numberText';
import { longRowLine } from './longRow';
import { ndjsonLineTexts } from './ndjsonSink';
import { wrappedSink, type HeldPage, type LongRow, type RowSink, type SinkMark } from './sink';

/** `redactor` is asked for on every page (and every part of one), so secret values learnt during a walk count from then on. */
export function redactingSink(inner: RowSink, redactor: () => Redactor): RowSink {
  const redacted = (rows: readonly unknown[]): unknown[] => {
    const current = redactor();
    return rows.map((row) => {
      const shown = current.row(row);
      keepsNumberText(row, shown);
      return shown;
    });
  };
  /**
   * NDJSON pieces to `asBytes` when nothing in them may need redaction, else redacted row by row: runs of
   * lines kept to `asBytes`, runs of changed rows to `asRows`. A part written in runs is written whole or
   * not at all: a run that fails cuts back the runs before it (`mark`: the file as it was; a held page's
   * are dropped with it).
   */
  const route = async (pieces: readonly Buffer[], keys: ReadonlySet<string>, asBytes: (lines: readonly Buffer[], count: number) => Promise<void>, asRows: (rows: unknown[]) => Promise<void>, mark?: () => SinkMark | undefined): Promise<void> => {
    const current = redactor();
    if (!current.mayRedactJsonBytes(pieces, keys)) return asBytes(pieces, -1);
    const runs = redactedRuns(pieces, current);
    const at = runs.length > 1 ? mark?.() : undefined;
    try {
      for (const run of runs) await (Array.isArray(run) ? asRows(run) : asBytes([Buffer.from(run.text, 'utf8')], run.count));
    } catch (error) {
      await at?.cutBack().catch(() => undefined);
      throw error;
    }
  };
  const pageRouted = (writeNdjson: NonNullable<RowSink['writeNdjsonPage']>) => (pieces: readonly Buffer[], rowCount: number, keys: ReadonlySet<string>): Promise<void> =>
    route(pieces, keys, (lines, count) => writeNdjson(lines, count < 0 ? rowCount : count, keys), (rows) => (inner.writeRowsPart ?? inner.writePage).call(inner, rows), () => inner.mark?.());
  /** A long row to `writeLong` when the byte test clears its file, else read whole and routed as a page of one line. */
  const longRowRouted = (writeLong: NonNullable<HeldPage['writeLongRow']>, routeLine: (line: readonly Buffer[], rowCount: number, keys: ReadonlySet<string>) => Promise<void>) =>
    async (row: LongRow, keys: ReadonlySet<string>): Promise<void> => {
      if (!(await longRowMayRedact(row, keys, redactor()))) return writeLong(row, keys);
      return routeLine([await longRowLine(row)], 1, keys);
    };
  return wrappedSink(inner, {
    writePage: (write) => (rows) => write(redacted(rows)),
    writeRowsPart: (write) => (rows) => write(redacted(rows)),
    writeNdjsonPage: pageRouted,
    writeLongRow: (writeLong) => longRowRouted(writeLong, pageRouted(inner.writeNdjsonPage!.bind(inner))),
    openPage: (openInner) => (): HeldPage => {
      const page = openInner();
      const pageRoute = (pieces: readonly Buffer[], rowCount: number, keys: ReadonlySet<string>): Promise<void> =>
        route(pieces, keys, (lines, count) => page.writeNdjson(lines, count < 0 ? rowCount : count, keys), (rows) => page.writeRows(rows));
      const writeLong = page.writeLongRow?.bind(page);
      return {
        writeNdjson: pageRoute,
        writeRows: (rows) => page.writeRows(redacted(rows)),
        ...(writeLong ? { writeLongRow: longRowRouted(writeLong, pageRoute) } : {}),
        keep: () => page.keep(),
        drop: () => page.drop(),
      };
    },
  });
}

/**
 * NDJSON pieces (a line may be split between them) redacted row by row, in order: a run of rows redaction
 * leaves as they were as their lines' text (each ending in a line end) and count, a run of rows it changed as rows.
 */
function redactedRuns(pieces: readonly Buffer[], redactor: Redactor): ({ text: string; count: number } | unknown[])[] {
  const runs: ({ text: string; count: number } | unknown[])[] = [];
  for (const line of ndjsonLineTexts(pieces)) {
    // Numbers kept as they came (a NumberText writes its double where a format does not know it: as before).
    const row = parseKeepingNumbers(line);
    const shown = redactor.row(row);
    keepsNumberText(row, shown);
    const last = runs.at(-1);
    if (shown !== row) {
      if (Array.isArray(last)) last.push(shown);
      else runs.push([shown]);
    } else if (last && !Array.isArray(last)) {
      last.text += `${line}\n`;
      last.count++;
    } else runs.push({ text: `${line}\n`, count: 1 });
  }
  return runs;
}

/** The byte test of redaction (Redactor.jsonBytesTest) over a long row's file, piece by piece. */
async function longRowMayRedact(row: LongRow, keys: ReadonlySet<string>, redactor: Redactor): Promise<boolean> {
  const test = redactor.jsonBytesTest(keys);
  if (test === true) return true;
  let may = false;
  await row.each((piece) => {
    may ||= test.push(piece);
  });
  return may;
}
