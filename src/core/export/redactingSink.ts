// The sink every product surface writes rows through (the panel's "All pages" and "Export", the CLI's
// --out): rows pass Redactor.row first. Streamed NDJSON pages (the walker's fast path) keep that path
// when their text holds nothing to redact, and fall back to parse → redact → write when it does.
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
          writeNdjsonPage(lines: readonly Buffer[], rowCount: number): Promise<void> {
            const current = redactor();
            if (!lines.some((line) => current.mayRedactJson(line.toString('utf8')))) return writeNdjson(lines, rowCount);
            const rows = lines.flatMap((line) => line.toString('utf8').split('\n').filter((text) => text.trim() !== '').map((text) => JSON.parse(text) as unknown));
            return writePage(rows);
          },
        }
      : {}),
    checkpoint: () => inner.checkpoint(),
    close: () => inner.close(),
  };
}
