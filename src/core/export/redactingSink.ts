// The sink every product surface writes rows through (the panel's "All pages" and "Export", the CLI's
// --out): rows pass Redactor.row first. Streamed NDJSON pages (the walker's fast path) keep that path
// when they hold nothing to redact — their keys that may name a secret (found by the row splitter) are
// asked of the rule, their bytes searched for known values, never decoded into a string — and fall
// back to parse → redact → write when they might: a secret-named key, a known secret value, or any
// JSON escape (a server can echo a secret as `\u0073k_live…`, which only a parse reveals). A page
// written while it arrives (openPage) is judged the same way part by part: each part holds whole rows,
// and redaction is row by row, so a part with nothing to redact is written as it came.
import type { Redactor } from '../secrets/redact';
import { ndjsonRows } from './ndjsonSink';
import type { HeldPage, RowSink } from './sink';

/** `redactor` is asked for on every page (and every part of one), so secret values learnt during a walk count from then on. */
export function redactingSink(inner: RowSink, redactor: () => Redactor): RowSink {
  const redacted = (rows: readonly unknown[]): unknown[] => {
    const current = redactor();
    return rows.map((row) => current.row(row));
  };
  /** NDJSON pieces to `asBytes` when nothing in them may need redaction, else parsed, redacted and handed to `asRows`. */
  const route = (pieces: readonly Buffer[], keys: ReadonlySet<string>, asBytes: () => Promise<void>, asRows: (rows: unknown[]) => Promise<void>): Promise<void> => {
    if (!redactor().mayRedactJsonBytes(pieces, keys)) return asBytes();
    return asRows(redacted(ndjsonRows(pieces)));
  };
  const writeNdjson = inner.writeNdjsonPage?.bind(inner);
  const openInner = writeNdjson ? inner.openPage?.bind(inner) : undefined;
  return {
    format: inner.format,
    writePage: (rows) => inner.writePage(redacted(rows)),
    ...(writeNdjson
      ? {
          writeNdjsonPage: (pieces: readonly Buffer[], rowCount: number, keys: ReadonlySet<string>): Promise<void> =>
            route(pieces, keys, () => writeNdjson(pieces, rowCount, keys), (rows) => inner.writePage(rows)),
        }
      : {}),
    ...(openInner
      ? {
          openPage(): HeldPage {
            const page = openInner();
            return {
              writeNdjson: (pieces, rowCount, keys) => route(pieces, keys, () => page.writeNdjson(pieces, rowCount, keys), (rows) => page.writeRows(rows)),
              writeRows: (rows) => page.writeRows(redacted(rows)),
              keep: () => page.keep(),
              drop: () => page.drop(),
            };
          },
        }
      : {}),
    checkpoint: () => inner.checkpoint(),
    ...(inner.mark ? { mark: inner.mark.bind(inner) } : {}),
    close: () => inner.close(),
    ...(inner.leftAsItWas ? { leftAsItWas: inner.leftAsItWas.bind(inner) } : {}),
  };
}
