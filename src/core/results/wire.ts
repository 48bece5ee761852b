// A view model as the host posts it: the one encoder of `show` and `showRest` (src/protocol/webviewMessages.ts
// decodes them). A table of more than HEAD_ROWS rows is sent in two: `show` carries the first rows and a
// placeholder body, `showRest` the other rows and the body view. Only the head is redacted and encoded before
// the show is posted (tableHead); the rest is redacted and encoded when encodeShowRest asks for it.
// A table on disk (pagedRows) goes with its first rows only; the page asks for the others. The rows of a
// body holding numbers a double would change (12345678901234567890, 1.10) are written with their text
// (json/numberText.ts) and marked `numbersAsWritten`, which the page reads back as such (decodeRows).
import { holdsNumberText, jsonText } from '../json/numberText';
import { HEAD_ROWS, type BodyView, type TableView, type ResultsViewModel, type ResultsViewModelWire, type ShowRestMessage } from '../../protocol/webviewMessages';
import { tableHead, tableHeadColumns, tableRowCount } from './tableModel';

/** Whether the view model's table is sent in two messages. */
export function restFollows(vm: ResultsViewModel): boolean {
  return vm.table !== undefined && vm.table.pagedRows === undefined && tableRowCount(vm.table) > HEAD_ROWS;
}

/** The `show` message's view model: the first HEAD_ROWS rows; a placeholder body when a `showRest` follows. */
export function encodeViewModel(vm: ResultsViewModel): ResultsViewModelWire {
  const { table, body, ...rest } = vm;
  if (!table) return { ...rest, body: plainBody(body) };
  const { source, kind } = table;
  // A table on disk: its first rows now, the others when the page asks for them (`wantRows`).
  if (table.pagedRows !== undefined) {
    return { ...rest, body: plainBody(body), table: { source, kind, columns: table.columns, rowCount: table.pagedRows, headJson: JSON.stringify(table.rows), pagedRows: table.pagedRows } };
  }
  const rowCount = tableRowCount(table);
  const headJson = rowsJson(table, tableHead(table, HEAD_ROWS));
  const asWritten = numbersAsWritten(table);
  if (rowCount <= HEAD_ROWS) return { ...rest, body: plainBody(body), table: { source, kind, columns: table.columns, rowCount, headJson, ...asWritten } };
  // The columns of the first rows: those of later rows come with the rest (first-seen order, so they follow).
  const columns = tableHeadColumns(table, HEAD_ROWS);
  const waiting: BodyView = { text: '', language: body.language, truncated: true, totalChars: 0, note: 'The body is on its way (after the first rows).' };
  return { ...rest, body: waiting, table: { source, kind, columns, rowCount, headJson, restFollows: true, ...asWritten } };
}

/** The `showRest` that completes encodeViewModel(vm), or undefined when its show is whole. */
export function encodeShowRest(vm: ResultsViewModel): ShowRestMessage | undefined {
  if (!vm.table || !restFollows(vm)) return undefined;
  const rows = vm.table.rows.slice(HEAD_ROWS);
  return { type: 'showRest', id: vm.id, rowCount: rows.length, rowsJson: rowsJson(vm.table, rows), ...numbersAsWritten(vm.table), columns: vm.table.columns, body: plainBody(vm.body) };
}

/** Rows as JSON: each number kept as written in a table that holds one, else JSON.stringify's (faster). */
function rowsJson(table: TableView, rows: readonly unknown[]): string {
  return holdsNumberText(table) ? (jsonText(rows) ?? '[]') : JSON.stringify(rows);
}

/** The mark that tells the page to read the rows' numbers as written (only a table holding one has it). */
function numbersAsWritten(table: TableView): { numbersAsWritten?: true } {
  return holdsNumberText(table) ? { numbersAsWritten: true } : {};
}

/** A body view as plain data (a deferred one is computed here), without an absent note. */
function plainBody(body: BodyView): BodyView {
  const { text, language, truncated, totalChars, note, page } = body;
  return { text, language, truncated, totalChars, ...(note !== undefined ? { note } : {}), ...(page ? { page } : {}) };
}
