// Which part of a JSON body is "the rows", and which columns they have. Pure: the host builds the table once,
// the webview only renders it. A paging strategy that knows the paged field names it (rowsPath); otherwise
// the shape decides: a top-level array, or the largest array of objects one or two levels down.
import type { Column, TableView } from '../../protocol/webviewMessages';

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function valueAt(root: unknown, path: string): unknown {
  let current: unknown = root;
  for (const part of path.split('.')) {
    if (!isPlainObject(current)) return undefined;
    current = current[part];
  }
  return current;
}

/** Arrays of objects count; so does an array of primitives, but only at the top level or when named. */
function objectShare(array: readonly unknown[]): number {
  if (array.length === 0) return 0;
  const sample = array.slice(0, 50);
  return sample.filter(isPlainObject).length / sample.length;
}

function findRowArray(body: unknown): { path: string; rows: unknown[] } | undefined {
  if (Array.isArray(body)) return { path: '$', rows: body };
  if (!isPlainObject(body)) return undefined;
  let best: { path: string; rows: unknown[] } | undefined;
  const consider = (path: string, value: unknown) => {
    if (!Array.isArray(value) || objectShare(value) < 0.5) return;
    if (!best || value.length > best.rows.length) best = { path, rows: value };
  };
  for (const [key, value] of Object.entries(body)) {
    consider(key, value);
    if (isPlainObject(value)) for (const [inner, innerValue] of Object.entries(value)) consider(`${key}.${inner}`, innerValue);
  }
  return best;
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
  let found: { path: string; rows: unknown[] } | undefined;
  if (rowsPath) {
    const named = rowsPath === '$' ? body : valueAt(body, rowsPath);
    if (Array.isArray(named)) found = { path: rowsPath, rows: named };
  }
  found ??= findRowArray(body);
  if (!found) return undefined;
  const objects = found.rows.length === 0 || objectShare(found.rows) >= 0.5;
  if (!objects) return { source: found.path, kind: 'values', columns: [{ key: '', label: 'value' }], rows: found.rows };
  return { source: found.path, kind: 'objects', columns: columnsOf(found.rows), rows: found.rows };
}
