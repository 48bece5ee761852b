// The records of an export file, one at a time, whatever its size: NDJSON (a JSON value a line; blank
// lines skipped) or CSV as the export sinks write it (a header line, nested values as JSON text, keys
// first seen later in `_extra`; a cell is read back as its text). Read in chunks: memory holds one
// chunk and one record. A line that is not JSON is an input error naming the file and line.
import { open } from 'node:fs/promises';
import { StringDecoder } from 'node:string_decoder';
import { EXTRA_COLUMN } from '../export/csvSink';
import { isJsonObject, jsonText, parseKeepingNumbers } from '../json/numberText';
import { faultText } from '../text/faultText';

export type RecordFormat = 'ndjson' | 'csv';

export interface RecordSource {
  readonly path: string;
  readonly format: RecordFormat;
}

export class RecordFileError extends Error {}

/**
 * A record's text parsed, a number JSON.parse would lose kept as its text (json/numberText.ts, compared by
 * numberValue.ts); not JSON: an input error naming the file and line.
 */
export function parseRecord(text: string, path: string, line: number): unknown {
  try {
    return parseKeepingNumbers(text);
  } catch (error) {
    throw new RecordFileError(`${path}:${line}: not a JSON record (${faultText(error)})`);
  }
}

const CHUNK = 1 << 20;

/** The format a file name implies: `.csv` is CSV, anything else NDJSON. */
export function formatOfPath(path: string): RecordFormat {
  return /\.csv$/i.test(path) ? 'csv' : 'ndjson';
}

/**
 * Calls `each` with every record and its raw NDJSON text (for CSV: the record as JSON), in file order.
 * Lines are read a chunk at a time and handed over in a plain loop: no promise per record.
 */
export async function forEachRecord(source: RecordSource, each: (value: unknown, text: string) => void): Promise<number> {
  let count = 0;
  if (source.format === 'csv') {
    for await (const row of csvRows(source.path)) {
      each(row, JSON.stringify(row));
      count++;
    }
    return count;
  }
  let line = 0;
  for await (const batch of lineBatches(source.path)) {
    for (const text of batch) {
      line++;
      if (text.trim() === '') continue;
      each(parseRecord(text, source.path, line), text);
      count++;
    }
  }
  return count;
}

/** The lines of a text file without their line ends (`\n` or `\r\n`), a chunk's worth at a time. */
export async function* lineBatches(path: string): AsyncGenerator<string[]> {
  const file = await open(path, 'r');
  try {
    const decoder = new StringDecoder('utf8');
    const buffer = Buffer.allocUnsafe(CHUNK);
    let rest = '';
    for (;;) {
      const { bytesRead } = await file.read(buffer, 0, CHUNK, null);
      if (bytesRead === 0) break;
      const text = rest + decoder.write(buffer.subarray(0, bytesRead));
      const batch: string[] = [];
      let start = 0;
      for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', start)) {
        batch.push(text.charCodeAt(nl - 1) === 13 && nl > start ? text.slice(start, nl - 1) : text.slice(start, nl));
        start = nl + 1;
      }
      rest = text.slice(start);
      if (batch.length) yield batch;
    }
    rest += decoder.end();
    if (rest !== '') yield [rest.endsWith('\r') ? rest.slice(0, -1) : rest];
  } finally {
    await file.close();
  }
}

/** The lines of a text file, one at a time. */
async function* lines(path: string): AsyncGenerator<string> {
  for await (const batch of lineBatches(path)) yield* batch;
}

/** CSV (RFC 4180: quoted fields, "" inside quotes, line breaks inside quotes) as objects of the header's columns. */
async function* csvRows(path: string): AsyncGenerator<Record<string, unknown>> {
  let header: string[] | undefined;
  for await (const cells of csvRecords(path)) {
    if (!header) {
      header = cells;
      continue;
    }
    if (cells.length === 1 && cells[0] === '') continue;
    const row: Record<string, unknown> = {};
    header.forEach((column, i) => {
      const cell = cells[i] ?? '';
      if (column === EXTRA_COLUMN) {
        // As the other cells: every value as its text (nested ones as JSON, null as nothing).
        // A number (alone or nested) as its text: 12345678901234567890 is not the double JSON.parse makes of it.
        if (cell !== '') for (const [k, v] of Object.entries(parseExtra(cell, path))) if (v !== null && v !== undefined) row[k] = typeof v === 'string' ? v : jsonText(v);
      } else if (cell !== '') row[column] = cell;
    });
    yield row;
  }
}

function parseExtra(cell: string, path: string): Record<string, unknown> {
  try {
    const value = parseKeepingNumbers(cell);
    if (isJsonObject(value)) return value;
  } catch {
    // said below
  }
  throw new RecordFileError(`${path}: a ${EXTRA_COLUMN} cell is not a JSON object`);
}

async function* csvRecords(path: string): AsyncGenerator<string[]> {
  let cells: string[] = [];
  let cell = '';
  let quoted = false;
  let afterQuote = false;
  for await (const line of lines(path)) {
    if (quoted) cell += '\n';
    for (let i = 0; i < line.length; i++) {
      const c = line[i]!;
      if (quoted) {
        if (c === '"') {
          if (line[i + 1] === '"') {
            cell += '"';
            i++;
          } else {
            quoted = false;
            afterQuote = true;
          }
        } else cell += c;
      } else if (c === ',') {
        cells.push(cell);
        cell = '';
        afterQuote = false;
      } else if (c === '"' && cell === '' && !afterQuote) quoted = true;
      else cell += c;
    }
    if (quoted) continue;
    cells.push(cell);
    yield cells;
    cells = [];
    cell = '';
    afterQuote = false;
  }
  if (quoted) throw new RecordFileError(`${path}: the CSV ends inside a quoted field`);
}
