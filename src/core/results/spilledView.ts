// A response too large to hold, as the panel shows it: the exchange's result with its rows in a RowStore
// and its raw body in a SpillStore (both on disk past SPILL_AT). The view model carries the first rows and
// the first page of the body; the rest is read from disk when the page asks (PanelSource.rows, bodyPage),
// redacted by the panel's rules on the way (Redactor.value for rows, as buildTable does; the text rules
// for the body's pages). dispose() removes both files.
import type { RowSink } from '../export/sink';
import type { HttpResponse } from '../http/types';
import { isJsonObject } from '../json/numberText';
import { setOwnField } from '../json/ownField';
import { copyFieldsNotHeld } from '../paging/notHeld';
import { keysOfPath } from '../paging/rows';
import type { ExchangeResult } from '../run/exchange';
import { HEAD_ROWS, type BodyView, type Column, type ResultsViewModel } from '../../protocol/webviewMessages';
import { BodyPages } from './bodyPages';
import { viewModelOfExchange, type ExchangeViewOptions } from './exchangeView';
import type { RowStore } from './rowStore';
import type { SpillStore } from './spillStore';
import { buildTable, columnsOf, tableHead, tableRowCount } from './tableModel';
import { looksLikeJson } from './viewModel';
import type { Redactor } from '../secrets/redact';

/** What the panel reads of a response on disk, a window at a time. */
export interface PanelSource {
  readonly id: string;
  /** Rows [from, from + count), redacted, with their columns (names redacted as the table's). */
  rows(from: number, count: number): Promise<{ rows: unknown[]; columns: Column[] }>;
  bodyPage(index: number): Promise<BodyView>;
  /** Every row, redacted, into `sink`, a batch at a time (Export, All pages); resolves with how many. */
  writeRows(sink: RowSink): Promise<number>;
  dispose(): Promise<void>;
}

export interface SpilledStores {
  readonly rows: RowStore;
  readonly body: SpillStore;
}

const BATCH_ROWS = 1000;

/**
 * The body as the checks and the table see it: the exchange's skeleton with `rows` at `path` instead of its
 * placeholders, the path read as the rows rule reads it (keysOfPath: a key with a dot first, as one key).
 */
export function withRowsAt(skeleton: unknown, path: string | undefined, rows: readonly unknown[]): unknown {
  if (path === undefined) return skeleton;
  const keys = keysOfPath(skeleton, path);
  const put = (value: unknown, at: number): unknown => {
    if (at === keys.length) return rows;
    if (!isJsonObject(value)) return value;
    const copy: Record<string, unknown> = {};
    for (const key of Object.keys(value)) setOwnField(copy, key, key === keys[at] ? put(value[key], at + 1) : value[key]);
    copyFieldsNotHeld(value, copy);
    return copy;
  };
  return put(skeleton, 0);
}

export async function spilledViewModel(
  result: ExchangeResult, response: HttpResponse, stores: SpilledStores, options: ExchangeViewOptions & { readonly id: string; readonly redactor: Redactor },
): Promise<{ viewModel: ResultsViewModel; source: PanelSource }> {
  const { redactor, id } = options;
  const path = result.rows?.path;
  const total = stores.rows.rowCount;
  const head = await stores.rows.readRows(0, HEAD_ROWS);
  const base = viewModelOfExchange({ ...result, body: undefined }, { ...response, bodyText: '' }, options);
  const built = path !== undefined ? buildTable(withRowsAt(result.body, path, head), path, redactor) : undefined;
  const kind = built?.kind ?? 'objects';
  const shownColumns = (rows: readonly unknown[]): Column[] =>
    (kind === 'values' ? [{ key: '', label: 'value' }] : columnsOf(rows).map((c) => ({ key: redactor.text(c.key), label: redactor.text(c.label) })));
  const contentType = Object.entries(response.headers).find(([k]) => k.toLowerCase() === 'content-type')?.[1] ?? '';
  const firstBytes = (await stores.body.read(0, 64)).toString('utf8');
  const pages = new BodyPages(stores.body, looksLikeJson(firstBytes, contentType), (text) => redactor.text(text), contentType);
  const body = await pages.page(0);
  const table = built ? { source: built.source, kind, columns: built.columns, rows: tableHead(built, tableRowCount(built)), pagedRows: total } : undefined;
  const viewModel: ResultsViewModel = { ...base, id, body, ...(table ? { table } : {}) };
  const redactedRows = (rows: readonly unknown[]): unknown[] => rows.map((row) => redactor.value(row));
  let disposed: Promise<void> | undefined;
  const source: PanelSource = {
    id,
    async rows(from, count) {
      // No table shown (none found, or its rows under a secret-named field): nothing to read.
      if (!table) return { rows: [], columns: [] };
      const rows = redactedRows(await stores.rows.readRows(from, count));
      return { rows, columns: shownColumns(rows) };
    },
    bodyPage: (index) => pages.page(index),
    async writeRows(sink) {
      let written = 0;
      if (!table) return written;
      while (written < total) {
        const batch = redactedRows(await stores.rows.readRows(written, BATCH_ROWS));
        if (batch.length === 0) break;
        await sink.writePage(batch);
        written += batch.length;
      }
      return written;
    },
    dispose: () => (disposed ??= Promise.all([stores.rows.remove(), stores.body.remove()]).then(() => undefined)),
  };
  return { viewModel, source };
}
