// The sink every product surface writes rows through (the panel's "All pages" and "Export", the CLI's
// --out): rows pass Redactor.row first. Streamed NDJSON pages (the walker's fast path) keep that path
// when they hold nothing to redact — their keys that may name a secret (found by the row splitter) are
// asked of the rule, their bytes searched for known values, never decoded into a string — and fall
// back to parse → redact → write when they might: a secret-named key, a known secret value, or any
// JSON escape (a server can echo a secret as `\u0073k_live…`, which only a parse reveals).
import type { Redactor } from '../secrets/redact';
import type { RowSink } from './sink';

/** `redactor` is asked for on every page, so secret values learnt during a walk count from then on. */
export function redactingSink(inner: RowSink, redactor: () => Redactor): RowSink {
  const writePage = (rows: readonly unknown[]): Promise<void> => {
    const current = redactor();
    return inner.writePage(rows.map((row) => current.row(row)));
  };
  const writeNdjson = inner.writeNdjsonPage?.bind(inner);
  return {
    format: inner.format,
    writePage,
    ...(writeNdjson
      ? {
          writeNdjsonPage(pieces: readonly Buffer[], rowCount: number, keys: ReadonlySet<string>): Promise<void> {
            if (!redactor().mayRedactJsonBytes(pieces, keys)) return writeNdjson(pieces, rowCount, keys);
            // Pieces may split a row: the page is joined before it is cut into lines.
            const rows = Buffer.concat(pieces).toString('utf8').split('\n').filter((text) => text.trim() !== '').map((text) => JSON.parse(text) as unknown);
            return writePage(rows);
          },
        }
      : {}),
    checkpoint: () => inner.checkpoint(),
    close: () => inner.close(),
  };
}
