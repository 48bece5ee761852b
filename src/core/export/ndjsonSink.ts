// NDJSON: one JSON value per line, the rows exactly as the service sent them (re-serialised).
import { AppendOnlyFile } from './fileSink';
import type { FileSinkOptions, RowSink } from './sink';

export function ndjsonLines(rows: readonly unknown[]): string {
  if (rows.length === 0) return '';
  const lines = new Array<string>(rows.length);
  for (let i = 0; i < rows.length; i++) lines[i] = JSON.stringify(rows[i]) ?? 'null';
  return `${lines.join('\n')}\n`;
}

/** The rows of NDJSON lines (pieces may split a line: they are joined before they are cut into lines; blank lines are none). */
export function ndjsonRows(pieces: readonly Buffer[]): unknown[] {
  const text = (pieces.length === 1 ? pieces[0]! : Buffer.concat(pieces)).toString('utf8');
  const rows: unknown[] = [];
  for (const line of text.split('\n')) if (line.trim() !== '') rows.push(JSON.parse(line));
  return rows;
}

export async function openNdjsonSink(path: string, options: FileSinkOptions = {}): Promise<RowSink> {
  const file = await AppendOnlyFile.open(path, options);
  return {
    format: 'ndjson',
    writePage: (rows) => file.append(ndjsonLines(rows)),
    writeNdjsonPage: (lines) => file.appendBuffers(lines),
    openPage: () => ({
      writeNdjson: (lines) => file.hold(lines),
      writeRows: (rows) => file.hold([Buffer.from(ndjsonLines(rows), 'utf8')]),
      keep: () => file.keep(),
      drop: () => file.drop(),
    }),
    checkpoint: () => ({ format: 'ndjson', path, bytes: file.bytes }),
    mark: () => file.mark(),
    close: () => file.close(),
    leftAsItWas: () => file.leftAsItWas,
  };
}
