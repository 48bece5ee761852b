// CSV per RFC 4180 (CRLF line ends; a field holding a comma, quote, CR or LF is quoted, quotes doubled).
// Columns: a stream cannot rewrite its header, so the header is fixed by the file's first rows — the union
// of the keys of the first HEADER_ROWS rows (1 000) of the first page that has rows, in first-seen order,
// or of fewer when their JSON text reaches HEADER_TEXT first, or of the whole page when it has fewer —
// plus a final `_extra` column. Rows are held back until then, so the header depends on the body alone,
// never on how its bytes arrive (pieces, pacing, content-encoding); a single response and a walk's first
// page follow the same rule. A key first seen later is not dropped: it goes into `_extra` as a JSON object
// of the row's unknown keys. Fields are read as the row's own (a column named `constructor` or
// `__proto__` is the row's field, never a member every object has).
// Nested values (objects, arrays) are written as JSON text; null and missing values as empty fields.
// Rows that are not objects (a number kept as its text, a NumberText, is a number: isJsonObject) are
// written in a single `value` column, as their text (as NDJSON and the JSON array write them); among
// object rows, in `_extra` as {"value":…}.
// A cell or key that a spreadsheet would run as a formula (it starts with =, +, -, @, TAB or CR: OWASP's
// CSV injection) is written with a leading apostrophe, which spreadsheets show as text; numbers (a JSON
// number, or text that is one, such as -12.5) are left as they are. `csvFormulas: 'raw'` writes them as is.
// A number is written as the service wrote it (12345678901234567890, 1E400, -0 and 1.50 as they came),
// in a cell and inside a nested value's JSON text alike: rows are read with parseKeepingNumbers.
// Streamed rows (NDJSON lines) past the header are written from their own bytes where they are flat
// (csvFromNdjson.ts), the same bytes as csvRow of their parseKeepingNumbers, which writes the others.
import { ownField, setOwnField } from '../json/ownField';
import { AppendOnlyFile } from './fileSink';
import { encodedSink, type RowEncoder } from './encodedSink';
import { CsvFromNdjson } from './csvFromNdjson';
import { ndjsonRows } from './ndjsonSink';
import type { FileSinkOptions, RowSink } from './sink';
import { scalarText } from '../text/scalarText';
import { holdsNumberText, isJsonObject, jsonText, NumberText, parseKeepingNumbers } from '../json/numberText';

export const EXTRA_COLUMN = '_extra';
export const VALUE_COLUMN = 'value';

export type CsvFormulas = 'neutralise' | 'raw';

/** How a spreadsheet knows a formula (OWASP: =, +, -, @, TAB, CR first). */
const FORMULA_START = /^[=+\-@\t\r]/;
/** Text that is a plain decimal number: a spreadsheet reads it as that number, never as a formula. */
const NUMBER_TEXT = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/** Characters that make a field quoted. */
const QUOTED = /[",\r\n]/;

/** `numberTexts`: the value's row holds a NumberText (holdsNumberText), so a nested value is written with jsonText. */
export function csvField(value: unknown, formulas: CsvFormulas = 'neutralise', numberTexts = false): string {
  if (value === null || value === undefined) return '';
  // A number's text holds nothing to quote and is never a formula (the common cell: no test run on it).
  if (typeof value === 'number') return String(value);
  if (value instanceof NumberText) return value.text;
  const plain = typeof value === 'string' ? value : typeof value === 'object' ? (numberTexts ? jsonText(value)! : JSON.stringify(value)) : scalarText(value);
  const text = formulas === 'neutralise' && looksLikeFormula(plain) ? `'${plain}` : plain;
  return QUOTED.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Whether a text cell is one a spreadsheet would run (and 'neutralise' writes with a leading apostrophe). */
export const looksLikeFormula = (plain: string): boolean => FORMULA_START.test(plain) && !NUMBER_TEXT.test(plain);

/** The header's rows: at most this many… */
export const HEADER_ROWS = 1_000;
/** …and no more once their JSON text (JSON.stringify's, in characters) reaches this (rows held in memory stay few). */
export const HEADER_TEXT = 4 << 20;

/** The header's columns, from the header's rows (see the top). */
export function csvColumns(rows: readonly unknown[]): string[] {
  if (!rows.some(isJsonObject)) return [VALUE_COLUMN];
  const seen = new Set<string>();
  for (const row of rows) if (isJsonObject(row)) for (const key of Object.keys(row)) seen.add(key);
  seen.delete(EXTRA_COLUMN);
  return [...seen, EXTRA_COLUMN];
}

export function csvRow(row: unknown, columns: readonly string[], known: ReadonlySet<string>, formulas: CsvFormulas = 'neutralise'): string {
  const numberTexts = holdsNumberText(row);
  if (columns.length === 1 && columns[0] === VALUE_COLUMN) return csvField(row, formulas, numberTexts);
  if (!isJsonObject(row)) {
    return columns.map((c) => (c === EXTRA_COLUMN ? csvField({ [VALUE_COLUMN]: row }, formulas, numberTexts || row instanceof NumberText) : '')).join(',');
  }
  let extra: Record<string, unknown> | undefined;
  for (const key in row) {
    // An own field, as JSON.parse makes it: a key "__proto__" is a field of _extra, not its prototype.
    if (Object.hasOwn(row, key) && !known.has(key)) setOwnField((extra ??= {}), key, row[key]);
  }
  // A loop onto one string, not map and join: this runs for every row of a large --out.
  let line = '';
  for (let i = 0; i < columns.length; i++) {
    const c = columns[i]!;
    line += `${i === 0 ? '' : ','}${csvField(c === EXTRA_COLUMN ? extra : ownField(row, c), formulas, numberTexts)}`;
  }
  return line;
}

const bytesOf = (text: string): Buffer[] => (text === '' ? [] : [Buffer.from(text, 'utf8')]);
/** Where the NDJSON line from `start` ends (its line break, or the end of the bytes). */
const lineEnd = (bytes: Buffer, start: number): number => {
  const end = bytes.indexOf(0x0a, start);
  return end < 0 ? bytes.length : end;
};

export async function openCsvSink(path: string, options: FileSinkOptions = {}): Promise<RowSink> {
  const file = await AppendOnlyFile.open(path, options);
  let columns: readonly string[] | undefined = options.resume?.columns;
  let known = new Set(columns?.filter((c) => c !== EXTRA_COLUMN));
  const formulas = options.csvFormulas ?? 'neutralise';
  /** The header's rows so far, held back until the header is fixed; and their JSON text's length. */
  let held: unknown[] = [];
  let heldText = 0;
  const lines = (rows: readonly unknown[], from: number, cols: readonly string[]): string => {
    // Row by row onto one string (no array of every row's line: a streamed batch is 100 000 numbers).
    let text = '';
    for (let i = from; i < rows.length; i++) text += `${csvRow(rows[i], cols, known, formulas)}\r\n`;
    return text;
  };
  /** The header from the rows held, then those rows. */
  const fixHeader = (): string => {
    const cols = csvColumns(held);
    columns = cols;
    known = new Set(cols.filter((c) => c !== EXTRA_COLUMN));
    const text = `${cols.map((c) => csvField(c, formulas)).join(',')}\r\n${lines(held, 0, cols)}`;
    held = [];
    heldText = 0;
    return text;
  };
  /** The fast path of the columns fixed (made again when they change), undefined where they repeat a name. */
  let fast: { columns: readonly string[]; writer: CsvFromNdjson | undefined } | undefined;
  const fastWriter = (cols: readonly string[]): CsvFromNdjson | undefined => {
    if (fast?.columns !== cols) {
      const valueColumn = cols.length === 1 && cols[0] === VALUE_COLUMN;
      const writer = new Set(cols).size !== cols.length ? undefined : new CsvFromNdjson({
        columns: cols, extraColumn: EXTRA_COLUMN, valueColumn,
        apostrophe: formulas === 'neutralise' ? looksLikeFormula : undefined,
        exact: (line) => csvRow(parseKeepingNumbers(line), cols, known, formulas),
      });
      fast = { columns: cols, writer };
    }
    return fast.writer;
  };
  const encoder: RowEncoder = {
    encodeNdjson(pieces) {
      if (columns) {
        const writer = fastWriter(columns);
        return writer ? writer.encode(pieces) : bytesOf(encoder.encode(ndjsonRows(pieces)));
      }
      // Until the header is fixed, rows are parsed one line at a time (the header's rows only: a batch
      // of 250 000 numbers is not parsed whole for its first 1 000); the rest of the batch as above.
      const bytes = pieces.length === 1 ? pieces[0]! : Buffer.concat(pieces);
      let text = '';
      let start = 0;
      // A line that is not JSON, among the header's rows or after them, leaves the sink as it was: the
      // rows held as they were, the header not fixed (its text is written with the batch or not at all).
      const putBack = encoder.save();
      try {
        while (!columns && start < bytes.length) {
          const end = lineEnd(bytes, start);
          const line = bytes.toString('utf8', start, end);
          start = end + 1;
          if (line.trim() !== '') text += encoder.encode([parseKeepingNumbers(line)]);
        }
        const rest = start < bytes.length ? encoder.encodeNdjson!([bytes.subarray(start)]) : [];
        return [...bytesOf(text), ...rest];
      } catch (error) {
        putBack();
        throw error;
      }
    },
    encode(rows) {
      if (columns) return lines(rows, 0, columns);
      let i = 0;
      for (; i < rows.length && held.length < HEADER_ROWS && heldText < HEADER_TEXT; i++) {
        held.push(rows[i]);
        heldText += JSON.stringify(rows[i])?.length ?? 0;
      }
      if (held.length < HEADER_ROWS && heldText < HEADER_TEXT) return '';
      const header = fixHeader();
      return `${header}${lines(rows, i, columns!)}`;
    },
    finish: () => (columns || held.length === 0 ? '' : fixHeader()),
    save() {
      // A header written since goes with the rows: the next rows write their own.
      const [header, knownThen, heldThen, heldTextThen] = [columns, known, held.slice(), heldText];
      return () => {
        columns = header;
        known = knownThen;
        held = heldThen.slice();
        heldText = heldTextThen;
      };
    },
  };
  return encodedSink(file, 'csv', encoder, () => ({ format: 'csv', path, bytes: file.bytes, ...(columns ? { columns } : {}) }));
}
