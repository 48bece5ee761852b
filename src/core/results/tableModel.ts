// Which part of a JSON body is "the rows", and which columns they have. Pure: the host builds the table once,
// the webview only renders it. A paging strategy that knows the paged field names it (rowsPath); otherwise
// the shape decides: a top-level array, or the largest array of objects one or two levels down.
import type { Column, TableView } from '../../protocol/webviewMessages';
import { objectShare, rowsOfBody } from '../paging/rows';

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Union of the rows' keys in first-seen order. Linear in rows × keys; 100 000 rows take a few ms. */
export function columnsOf(rows: readonly unknown[], known: readonly Column[] = []): Column[] {
  const seen = new Set(known.map((c) => c.key));
  const columns = [...known];
  for (const row of rows) {
    if (!isPlainObject(row)) continue;
    for (const key in row) {
      if (!seen.has(key)) {
        seen.add(key);
        columns.push({ key, label: key });
      }
    }
  }
  return columns;
}

/**
 * The table for a parsed body, or undefined when nothing in it looks like rows. `rowsPath` ('Data',
 * 'Result.Items', '$') comes from the paging strategy when it knows the paged field.
 */
export function buildTable(body: unknown, rowsPath?: string): TableView | undefined {
  const found = rowsOfBody(body, rowsPath);
  if (!found) return undefined;
  const objects = found.rows.length === 0 || objectShare(found.rows) >= 0.5;
  if (!objects) return { source: found.path, kind: 'values', columns: [{ key: '', label: 'value' }], rows: found.rows };
  return { source: found.path, kind: 'objects', columns: columnsOf(found.rows), rows: found.rows };
}
