// The sink every product surface writes rows through (the panel's "All pages" and "Export", the CLI's
// --out): rows pass Redactor.row first. Streamed NDJSON pages (the walker's fast path) keep that path
// when their bytes hold nothing to redact — checked on the bytes, never decoded into a string — and
// fall back to parse → redact → write when they might: a secret-named key, a known secret value, or
// any JSON escape (a server can echo a secret as `\u0073k_live…`, which only a parse reveals).
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
          writeNdjsonPage(pieces: readonly Buffer[], rowCount: number): Promise<void> {
            if (!redactor().mayRedactJsonBytes(pieces)) return writeNdjson(pieces, rowCount);
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
