// `--out FILE`: one sink for every row of the run, whichever request or page it came from. NDJSON and
// CSV are the export module's sinks (the same files the panel's "all pages" writes: CSV fixes its header
// on the first page and keeps keys first seen later in `_extra`); `json` is a JSON array on the same
// append-only file. Every row passes a scrub first: rows are the service's data, but a response that
// echoes one of the run's secrets must not put it on disk.
import { openFileSink, type RowSink } from '../../core/export';
import { AppendOnlyFile } from '../../core/export/fileSink';
import { isSecretFieldName, REDACTED } from '../../core/secrets';

export type OutputFormat = 'ndjson' | 'csv' | 'json';

/** Secret values to scrub; read on every page, so values learnt during the run count too. */
export type KnownSecrets = () => readonly string[];

export async function openOutputSink(path: string, format: OutputFormat, secrets: KnownSecrets): Promise<RowSink> {
  const inner = format === 'json' ? await openJsonArraySink(path) : await openFileSink(format, path);
  return {
    format: inner.format,
    writePage: (rows) => inner.writePage(scrubRows(rows, secrets())),
    checkpoint: () => inner.checkpoint(),
    close: () => inner.close(),
  };
}

/** `[` + one row a line + `]`: valid JSON at close, written page by page like the others. */
async function openJsonArraySink(path: string): Promise<RowSink> {
  const file = await AppendOnlyFile.open(path, {});
  let written = 0;
  return {
    format: 'memory',
    async writePage(rows) {
      if (rows.length === 0) return;
      const lines = rows.map((row, i) => `${written + i === 0 ? '[\n' : ',\n'}${JSON.stringify(row) ?? 'null'}`);
      await file.append(lines.join(''));
      written += rows.length;
    },
    checkpoint: () => undefined,
    async close() {
      await file.append(written === 0 ? '[]\n' : '\n]\n');
      await file.close();
    },
  };
}

/** Rows with secret-named fields and known secret values replaced by ***; rows without either are kept as they are. */
export function scrubRows(rows: readonly unknown[], secrets: readonly string[]): readonly unknown[] {
  return scrubValue(rows, secrets.filter((s) => s.length >= 4)) as readonly unknown[];
}

function scrubValue(value: unknown, secrets: readonly string[]): unknown {
  if (typeof value === 'string') {
    let text = value;
    for (const secret of secrets) if (text.includes(secret)) text = text.split(secret).join(REDACTED);
    return text;
  }
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    let changed = false;
    const items = value.map((item) => {
      const clean = scrubValue(item, secrets);
      if (clean !== item) changed = true;
      return clean;
    });
    return changed ? items : value;
  }
  let copy: Record<string, unknown> | undefined;
  for (const [key, item] of Object.entries(value)) {
    const clean = isSecretFieldName(key) && typeof item === 'string' && item !== '' ? REDACTED : scrubValue(item, secrets);
    if (clean !== item) (copy ??= { ...(value as Record<string, unknown>) })[key] = clean;
  }
  return copy ?? value;
}
