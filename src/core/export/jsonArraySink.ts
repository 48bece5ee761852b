// `--format json`: a JSON array, `[` + one row a line + `]`, valid JSON once closed, written page by page
// (and a page streamed as it arrives, as NDJSON is: encodedSink.ts) on the same append-only file as the
// others. Rows read whole are written as JSON.stringify gives them (a NumberText as its text: rowJsonText);
// rows streamed keep their text as the service sent it (as the NDJSON file does), the array's commas put
// between: JSON.parse reads the same rows from either. The file is closed with `]` after the rows kept,
// at close: a run stopped mid-body (Ctrl-C, a kill) leaves the whole rows written so far, with no `]`.
import { rowJsonText } from '../json/numberText';
import { encodedSink, type RowEncoder } from './encodedSink';
import { AppendOnlyFile } from './fileSink';
import type { FileSinkOptions, RowSink } from './sink';

const NEWLINE = 0x0a;
const FIRST = Buffer.from('[\n');
const NEXT = Buffer.from(',\n');

export async function openJsonArraySink(path: string, options: FileSinkOptions): Promise<RowSink> {
  const file = await AppendOnlyFile.open(path, options);
  let written = 0;
  const encoder: RowEncoder = {
    encode(rows) {
      if (rows.length === 0) return '';
      const lines = rows.map((row, i) => `${written + i === 0 ? '[\n' : ',\n'}${rowJsonText(row) ?? 'null'}`);
      written += rows.length;
      return lines.join('');
    },
    encodeNdjson(lines) {
      const [bytes, rows] = arrayItems(lines, written === 0);
      written += rows;
      return bytes.length === 0 ? [] : [bytes];
    },
    // No row at all: an empty array, unless the caller keeps the file that was there (replaceUnwritten).
    end: () => (written > 0 ? '\n]\n' : options.replaceUnwritten?.() !== false ? '[]\n' : ''),
    save() {
      const writtenThen = written;
      return () => {
        written = writtenThen;
      };
    },
  };
  return encodedSink(file, 'memory', encoder, () => undefined);
}

/**
 * NDJSON lines (a line may be split between pieces) as items of the array: each row after `[\n` (the
 * array's first) or `,\n`, its line end dropped; blank lines are no rows. Returns the bytes and the rows.
 */
export function arrayItems(lines: readonly Buffer[], first: boolean): [Buffer, number] {
  let size = 0, ends = 0;
  for (const piece of lines) {
    size += piece.length;
    for (let i = piece.indexOf(NEWLINE); i >= 0; i = piece.indexOf(NEWLINE, i + 1)) ends++;
  }
  // Two bytes before each row (at most one more than its line ends), each line end dropped.
  const out = Buffer.allocUnsafe(size + ends + 2);
  let at = 0, rows = 0, rowStart = true, isFirst = first;
  for (const piece of lines) {
    let i = 0;
    while (i < piece.length) {
      if (rowStart) {
        if (piece[i] === NEWLINE) {
          i++;
          continue;
        }
        (isFirst ? FIRST : NEXT).copy(out, at);
        at += 2;
        isFirst = false;
        rows++;
        rowStart = false;
      }
      const end = piece.indexOf(NEWLINE, i);
      const stop = end < 0 ? piece.length : end;
      at += piece.copy(out, at, i, stop);
      i = stop;
      if (end >= 0) {
        rowStart = true;
        i++;
      }
    }
  }
  return [out.subarray(0, at), rows];
}
