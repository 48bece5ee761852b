// The table's header row and its sort: one column header per data column after the row number, each
// sortable, its state said to the eye (an arrow) and to a screen reader (aria-sort); a sort is stable
// (equal cells keep the order received) and orders the rows by position, never by copying them.
import type { Column } from '../protocol/webviewMessages';
import { compareCells } from '../core/results/cells';
import { h } from './dom';

export type SortState = { column: string; direction: 1 | -1 } | undefined;

export function headerId(column: number): string {
  return `grid-h-${column}`;
}

/** The header cells: the row number's, then one per column with its sort state. */
export function headerCells(columns: readonly Column[], sort: SortState): HTMLElement[] {
  const cells = [h('div', { className: 'cell index', text: '#', attrs: { role: 'columnheader', 'aria-colindex': '1', id: headerId(0), 'aria-label': 'Row number' } })];
  columns.forEach((column, i) => {
    const sorted = sort?.column === column.key ? sort.direction : 0;
    const cell = h(
      'div',
      {
        className: 'cell sortable',
        title: `Sort by ${column.label}`,
        attrs: { 'data-key': column.key, 'data-col': String(i + 1), role: 'columnheader', 'aria-colindex': String(i + 2), id: headerId(i + 1) },
      },
      column.label,
      // The arrow is for the eye; aria-sort says the same to a screen reader.
      sorted ? h('span', { className: 'sort-arrow', text: sorted === 1 ? ' ▲' : ' ▼', attrs: { 'aria-hidden': 'true' } }) : null,
    );
    if (sorted) cell.setAttribute('aria-sort', sorted === 1 ? 'ascending' : 'descending');
    cells.push(cell);
  });
  return cells;
}

/** The positions of `values` (one a row, as received) in sorted order; equal values keep their order. */
export function sortedOrder(values: readonly unknown[], direction: 1 | -1): Uint32Array {
  const order = Array.from({ length: values.length }, (_, i) => i);
  order.sort((a, b) => compareCells(values[a], values[b]) * direction || a - b);
  return Uint32Array.from(order);
}
