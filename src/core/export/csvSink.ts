// CSV per RFC 4180 (CRLF line ends; a field holding a comma, quote, CR or LF is quoted, quotes doubled).
// Columns: a stream cannot rewrite its header, so the header is fixed by the FIRST rows written — the
// union of their keys in first-seen order — plus a final `_extra` column. Those rows are the first page
// read whole, or the first batch of a page streamed as it arrives (about EARLY_BATCH_BYTES of rows, the
// whole page when it is smaller: encodedSink.ts). A key first seen later is not dropped: it goes into
// `_extra` as a JSON object of the row's unknown keys.
// Nested values (objects, arrays) are written as JSON text; null and missing values as empty fields.
// Rows that are not objects are written in a single `value` column.
// A cell or key that a spreadsheet would run as a formula (it starts with =, +, -, @, TAB or CR: OWASP's
// CSV injection) is written with a leading apostrophe, which spreadsheets show as text; numbers (a JSON
// number, or text that is one, such as -12.5) are left as they are. `csvFormulas: 'raw'` writes them as is.
import { AppendOnlyFile } from './fileSink';
import { encodedSink, type RowEncoder } from './encodedSink';
import type { FileSinkOptions, RowSink } from './sink';
import { scalarText } from '../text/scalarText';

export const EXTRA_COLUMN = '_extra';
export const VALUE_COLUMN = 'value';

export type CsvFormulas = 'neutralise' | 'raw';

/** How a spreadsheet knows a formula (OWASP: =, +, -, @, TAB, CR first). */
const FORMULA_START = /^[=+\-@\t\r]/;
/** Text that is a plain decimal number: a spreadsheet reads it as that number, never as a formula. */
const NUMBER_TEXT = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/** Characters that make a field quoted. */
const QUOTED = /[",\r\n]/;

export function csvField(value: unknown, formulas: CsvFormulas = 'neutralise'): string {
  if (value === null || value === undefined) return '';
  // A number's text holds nothing to quote and is never a formula (the common cell: no test run on it).
  if (typeof value === 'number') return String(value);
  const plain = typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : scalarText(value);
  const text = formulas === 'neutralise' && FORMULA_START.test(plain) && !NUMBER_TEXT.test(plain) ? `'${plain}` : plain;
  return QUOTED.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
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

export function csvRow(row: unknown, columns: readonly string[], known: ReadonlySet<string>, formulas: CsvFormulas = 'neutralise'): string {
  if (columns.length === 1 && columns[0] === VALUE_COLUMN) return csvField(row, formulas);
  if (!isObject(row)) {
    return columns.map((c) => (c === EXTRA_COLUMN ? csvField({ [VALUE_COLUMN]: row }, formulas) : '')).join(',');
  }
  let extra: Record<string, unknown> | undefined;
  for (const key in row) {
    if (Object.hasOwn(row, key) && !known.has(key)) (extra ??= {})[key] = row[key];
  }
  // A loop onto one string, not map and join: this runs for every row of a large --out.
  let line = '';
  for (let i = 0; i < columns.length; i++) {
    const c = columns[i]!;
    line += `${i === 0 ? '' : ','}${c === EXTRA_COLUMN ? csvField(extra, formulas) : csvField(row[c], formulas)}`;
  }
  return line;
}

export async function openCsvSink(path: string, options: FileSinkOptions = {}): Promise<RowSink> {
  const file = await AppendOnlyFile.open(path, options);
  let columns: readonly string[] | undefined = options.resume?.columns;
  let known = new Set(columns?.filter((c) => c !== EXTRA_COLUMN));
  const formulas = options.csvFormulas ?? 'neutralise';
  const encoder: RowEncoder = {
    encode(rows) {
      if (rows.length === 0) return '';
      let text = '';
      if (!columns) {
        columns = csvColumns(rows);
        known = new Set(columns.filter((c) => c !== EXTRA_COLUMN));
        text = `${columns.map((c) => csvField(c, formulas)).join(',')}\r\n`;
      }
      // Row by row onto one string (no array of every row's line: a streamed batch is 100 000 numbers).
      for (const row of rows) text += `${csvRow(row, columns, known, formulas)}\r\n`;
      return text;
    },
    save() {
      // A header written since goes with the rows: the next rows write their own.
      const [header, knownThen] = [columns, known];
      return () => {
        columns = header;
        known = knownThen;
      };
    },
  };
  return encodedSink(file, 'csv', encoder, () => ({ format: 'csv', path, bytes: file.bytes, ...(columns ? { columns } : {}) }));
}
