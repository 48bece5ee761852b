// CSV per RFC 4180 (CRLF line ends; a field holding a comma, quote, CR or LF is quoted, quotes doubled).
// Columns: a stream cannot rewrite its header, so the header is fixed by the FIRST non-empty page —
// the union of its rows' keys in first-seen order — plus a final `_extra` column. A key first seen on
// a later page is not dropped: it goes into `_extra` as a JSON object of the row's unknown keys.
// Nested values (objects, arrays) are written as JSON text; null and missing values as empty fields.
// Rows that are not objects are written in a single `value` column.
import { AppendOnlyFile } from './fileSink';
import type { FileSinkOptions, RowSink } from './sink';

export const EXTRA_COLUMN = '_extra';
export const VALUE_COLUMN = 'value';

export function csvField(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

const isObject = (row: unknown): row is Record<string, unknown> => row !== null && typeof row === 'object' && !Array.isArray(row);

/** The header's columns, from the first non-empty page. */
export function csvColumns(rows: readonly unknown[]): string[] {
  if (!rows.some(isObject)) return [VALUE_COLUMN];
  const seen = new Set<string>();
  for (const row of rows) if (isObject(row)) for (const key of Object.keys(row)) seen.add(key);
  seen.delete(EXTRA_COLUMN);
  return [...seen, EXTRA_COLUMN];
}

export function csvRow(row: unknown, columns: readonly string[], known: ReadonlySet<string>): string {
  if (columns.length === 1 && columns[0] === VALUE_COLUMN) return csvField(row);
  if (!isObject(row)) {
    return columns.map((c) => (c === EXTRA_COLUMN ? csvField({ [VALUE_COLUMN]: row }) : '')).join(',');
  }
  let extra: Record<string, unknown> | undefined;
  for (const key of Object.keys(row)) {
    if (!known.has(key)) (extra ??= {})[key] = row[key];
  }
  return columns.map((c) => (c === EXTRA_COLUMN ? csvField(extra) : csvField(row[c]))).join(',');
}

export async function openCsvSink(path: string, options: FileSinkOptions = {}): Promise<RowSink> {
  const file = await AppendOnlyFile.open(path, options);
  let columns: readonly string[] | undefined = options.resume?.columns;
  let known = new Set(columns?.filter((c) => c !== EXTRA_COLUMN));
  return {
    format: 'csv',
    async writePage(rows) {
      if (rows.length === 0) return;
      let text = '';
      if (!columns) {
        columns = csvColumns(rows);
        known = new Set(columns.filter((c) => c !== EXTRA_COLUMN));
        text = `${columns.map(csvField).join(',')}\r\n`;
      }
      const lines = new Array<string>(rows.length);
      for (let i = 0; i < rows.length; i++) lines[i] = csvRow(rows[i], columns, known);
      await file.append(`${text}${lines.join('\r\n')}\r\n`);
    },
    checkpoint: () => ({ format: 'csv', path, bytes: file.bytes, ...(columns ? { columns } : {}) }),
    close: () => file.close(),
  };
}
