// Streams result rows to --out as NDJSON, CSV or JSON, row by row, so memory stays flat on long walks.
// Rows are the service's own data; secrets are never in them, but the redactor still runs on each line.
import { createWriteStream, type WriteStream } from 'node:fs';
import { once } from 'node:events';

export type OutputFormat = 'ndjson' | 'csv' | 'json';

export interface RowWriter {
  write(rows: readonly unknown[]): Promise<void>;
  close(): Promise<void>;
  readonly rowsWritten: number;
}

export function openRowWriter(path: string, format: OutputFormat, scrub: (text: string) => string = (t) => t): RowWriter {
  const stream = createWriteStream(path, { encoding: 'utf8' });
  let rowsWritten = 0;
  let columns: string[] | undefined;
  const put = async (text: string): Promise<void> => {
    if (!stream.write(scrub(text))) await once(stream, 'drain');
  };
  return {
    get rowsWritten() { return rowsWritten; },
    async write(rows) {
      for (const row of rows) {
        if (format === 'ndjson') await put(`${JSON.stringify(row)}\n`);
        else if (format === 'json') await put(`${rowsWritten === 0 ? '[\n' : ',\n'}${JSON.stringify(row)}`);
        else {
          if (!columns) {
            columns = row !== null && typeof row === 'object' && !Array.isArray(row) ? Object.keys(row) : ['value'];
            await put(`${columns.map(csvCell).join(',')}\n`);
          }
          await put(`${csvRow(row, columns)}\n`);
        }
        rowsWritten++;
      }
    },
    async close() {
      if (format === 'json') await put(rowsWritten === 0 ? '[]\n' : '\n]\n');
      await end(stream);
    },
  };
}

function csvRow(row: unknown, columns: readonly string[]): string {
  if (row === null || typeof row !== 'object' || Array.isArray(row)) return csvCell(row);
  const record = row as Record<string, unknown>;
  return columns.map((column) => csvCell(record[column])).join(',');
}

function csvCell(value: unknown): string {
  if (value === undefined || value === null) return '';
  const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

async function end(stream: WriteStream): Promise<void> {
  stream.end();
  await once(stream, 'finish');
}
