// Which part of a JSON body is "the rows", and which columns they have. Pure: the host builds the table once,
// the webview only renders it. A paging strategy that knows the paged field names it (rowsPath); otherwise
// the shape decides: a top-level array, or the largest array of objects one or two levels down.
import type { Column, TableView } from '../../protocol/webviewMessages';
import { objectShare, readPath, rowsOfBody } from '../paging/rows';
import { isJsonObject, keepsNumberText } from '../json/numberText';

/** Union of the rows' keys in first-seen order. Linear in rows × keys; 100 000 rows take a few ms. */
export function columnsOf(rows: readonly unknown[], known: readonly Column[] = []): Column[] {
  const seen = new Set(known.map((c) => c.key));
  const columns = [...known];
  for (const row of rows) {
    if (!isJsonObject(row)) continue;
    for (const key in row) {
      if (!seen.has(key)) {
        seen.add(key);
        columns.push({ key, label: key });
      }
    }
  }
  return columns;
}

/** How the panel redacts what it shows of a parsed body (Redactor.value and Redactor.text). */
export interface DisplayRedaction {
  value(value: unknown): unknown;
  text(text: string): string;
}

/** A table whose rows are redacted as they are asked for: the first screen at once, the rest after it. */
interface LazyRows {
  readonly count: number;
  head(n: number): unknown[];
  /** The columns of the first `n` rows: the start of the table's columns (first-seen order). */
  headColumns(n: number): Column[];
  /** The whole body redacted (Redactor.value of it), its rows those of the table. */
  body(): unknown;
}

const lazyRows = new WeakMap<TableView, LazyRows>();

/** How many rows a table holds, without redacting the rows of a lazy one. */
export function tableRowCount(table: TableView): number {
  return lazyRows.get(table)?.count ?? table.rows.length;
}

/** The first `n` rows as shown (redacted), without redacting the others of a lazy table. */
export function tableHead(table: TableView, n: number): unknown[] {
  return lazyRows.get(table)?.head(n) ?? table.rows.slice(0, n);
}

/** The columns of the first `n` rows (the first `columns` of the table, in order), without reading the others of a lazy table. */
export function tableHeadColumns(table: TableView, n: number): Column[] {
  return lazyRows.get(table)?.headColumns(n) ?? table.columns;
}

/** The body of a lazy table redacted as a whole, reusing the table's redacted rows; undefined for another table. */
export function redactedBodyOf(table: TableView): unknown {
  return lazyRows.get(table)?.body();
}

/**
 * The table for a parsed body, or undefined when nothing in it looks like rows. `rowsPath` ('Data',
 * 'Result.Items', '$') comes from the paging strategy when it knows the paged field. With `redaction`
 * the body is as received: its rows are redacted one by one when first read (tableHead, then `rows`),
 * and its column names at once; without it the body must already be redacted.
 */
export function buildTable(body: unknown, rowsPath?: string, redaction?: DisplayRedaction): TableView | undefined {
  const found = rowsOfBody(body, rowsPath);
  if (!found) return undefined;
  const objects = found.rows.length === 0 || objectShare(found.rows) >= 0.5;
  const values = [{ key: '', label: 'value' }];
  if (!redaction) {
    const table: TableView = { source: found.path, kind: objects ? 'objects' : 'values', columns: objects ? columnsOf(found.rows) : values, rows: found.rows as unknown[] };
    // A body holding numbers kept as written (json/numberText.ts) makes a table whose rows are sent so (wire.ts).
    keepsNumberText(body, table);
    return table;
  }
  // Rows under a secret-named field (or a key holding a secret) are masked whole, as the body shows them.
  const spine = redactedSpine(body, found.rows, found.path, redaction);
  if (!spine) return buildTable(redaction.value(body), rowsPath);
  const raw = found.rows;
  const shown: unknown[] = [];
  const head = (n: number): unknown[] => {
    const end = Math.min(n, raw.length);
    for (let i = shown.length; i < end; i++) shown.push(redaction.value(raw[i]));
    return shown.slice(0, end);
  };
  let all: unknown[] | undefined;
  // Column names as the rows show them (a key holding a secret is scrubbed like the rows' keys).
  const shownColumns = (rows: readonly unknown[]): Column[] =>
    (objects ? columnsOf(rows).map((c) => ({ key: redaction.text(c.key), label: redaction.text(c.label) })) : values);
  let columns: Column[] | undefined;
  const table = { source: found.path, kind: objects ? 'objects' : 'values' } as TableView;
  Object.defineProperty(table, 'columns', { enumerable: true, configurable: false, get: () => (columns ??= shownColumns(raw)) });
  Object.defineProperty(table, 'rows', { enumerable: true, configurable: false, get: () => (all ??= head(raw.length)) });
  lazyRows.set(table, {
    count: raw.length, head, body: () => spine.withRows(table.rows),
    headColumns: (n) => (columns ?? shownColumns(raw.slice(0, n))),
  });
  return table;
}

/**
 * The body redacted without its rows, when redacting leaves the rows array where it was (no secret-named
 * field, no key holding a secret on the way to it), so the rows may be redacted one by one; undefined
 * otherwise. The body is copied with a marker in place of the rows, redacted, and the marker looked for
 * at the rows' path; `withRows` puts the (redacted) rows back in its place.
 */
function redactedSpine(body: unknown, rows: readonly unknown[], path: string, redaction: DisplayRedaction): { withRows(shown: unknown[]): unknown } | undefined {
  const marker: unknown[] = [];
  const withoutRows = (value: unknown): unknown => {
    if (value === rows) return marker;
    if (Array.isArray(value)) return value.map(withoutRows);
    if (!isJsonObject(value)) return value;
    const copy: Record<string, unknown> = {};
    for (const key of Object.keys(value)) Object.defineProperty(copy, key, { value: withoutRows(value[key]), enumerable: true, writable: true, configurable: true });
    return copy;
  };
  const spine = redaction.value(withoutRows(body));
  if (readPath(spine, path) !== marker) return undefined;
  const withRows = (value: unknown, shown: unknown[]): unknown => {
    if (value === marker) return shown;
    if (Array.isArray(value)) return value.map((v) => withRows(v, shown));
    if (!isJsonObject(value)) return value;
    const copy: Record<string, unknown> = {};
    for (const key of Object.keys(value)) Object.defineProperty(copy, key, { value: withRows(value[key], shown), enumerable: true, writable: true, configurable: true });
    return copy;
  };
  return { withRows: (shown) => withRows(spine, shown) };
}
