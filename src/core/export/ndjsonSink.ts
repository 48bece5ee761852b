// NDJSON: one JSON value per line, the rows exactly as the service sent them (re-serialised; a number
// whose text a double would change, kept as a NumberText, written as its text).
import { rowJsonText } from '../json/numberText';
import { AppendOnlyFile } from './fileSink';
import type { FileSinkOptions, LongRow, RowSink } from './sink';

const LINE_END = Buffer.from('\n');
const NEWLINE = 0x0a, CARRIAGE_RETURN = 0x0d, COMMA = 0x2c, OPEN_BRACKET = 0x5b, CLOSE_BRACKET = 0x5d;

export function ndjsonLines(rows: readonly unknown[]): string {
  if (rows.length === 0) return '';
  const lines = new Array<string>(rows.length);
  for (let i = 0; i < rows.length; i++) lines[i] = rowJsonText(rows[i]) ?? 'null';
  return `${lines.join('\n')}\n`;
}

/**
 * The rows of NDJSON lines (pieces may split a line; blank lines are none): parsed in one JSON.parse as an
 * array (the lines' ends made commas), line by line when that fails (a blank line; a line that is not
 * JSON then throws its own error).
 */
export function ndjsonRows(pieces: readonly Buffer[]): unknown[] {
  let size = 0;
  for (const piece of pieces) size += piece.length;
  const bytes = Buffer.allocUnsafe(size + 2);
  bytes[0] = OPEN_BRACKET;
  let at = 1;
  for (const piece of pieces) at += piece.copy(bytes, at);
  while (at > 1 && (bytes[at - 1] === NEWLINE || bytes[at - 1] === CARRIAGE_RETURN)) at--;
  for (let i = bytes.indexOf(NEWLINE, 1); i >= 0 && i < at; i = bytes.indexOf(NEWLINE, i + 1)) bytes[i] = COMMA;
  bytes[at] = CLOSE_BRACKET;
  const text = bytes.toString('utf8', 0, at + 1);
  try {
    return JSON.parse(text) as unknown[];
  } catch {
    return linesParsed(pieces);
  }
}

function linesParsed(pieces: readonly Buffer[]): unknown[] {
  return ndjsonLineTexts(pieces).map((line) => JSON.parse(line) as unknown);
}

/** NDJSON pieces (a line may be split between them) as the text of each row's line, blank lines left out. */
export function ndjsonLineTexts(pieces: readonly Buffer[]): string[] {
  return Buffer.concat(pieces).toString('utf8').split('\n').filter((line) => line.trim() !== '');
}

/** A long row's line written past the bytes kept, piece by piece from its file. */
async function holdLongRow(file: AppendOnlyFile, row: LongRow): Promise<void> {
  await row.each((piece) => file.hold([piece]));
  await file.hold([LINE_END]);
}

export async function openNdjsonSink(path: string, options: FileSinkOptions = {}): Promise<RowSink> {
  const file = await AppendOnlyFile.open(path, options);
  return {
    format: 'ndjson',
    writePage: (rows) => file.append(ndjsonLines(rows)),
    writeNdjsonPage: (lines) => file.appendBuffers(lines),
    writeLongRow: async (row) => {
      // Held piece by piece, kept once whole: a row that fails part way is cut off again.
      try {
        await holdLongRow(file, row);
      } catch (error) {
        await file.drop().catch(() => undefined);
        throw error;
      }
      await file.keep();
    },
    openPage: () => ({
      writeNdjson: (lines) => file.hold(lines),
      writeRows: (rows) => file.hold([Buffer.from(ndjsonLines(rows), 'utf8')]),
      writeLongRow: (row) => holdLongRow(file, row),
      keep: () => file.keep(),
      drop: () => file.drop(),
    }),
    checkpoint: () => ({ format: 'ndjson', path, bytes: file.bytes }),
    mark: () => file.mark(),
    close: () => file.close(),
    leftAsItWas: () => file.leftAsItWas,
  };
}
