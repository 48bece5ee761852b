// Small parts of the virtualised grid (table.ts): a cell's id, a row not read yet, the horizontal scroll to a cell.
import { h } from './dom';

export function cellId(row: number, column: number): string {
  return `grid-${row}-${column}`;
}

/** A row announced but not here yet (the rest of a page being parsed, or a row of a table on disk being read). */
export function placeholderRow(index: number, attrs: Record<string, string>): HTMLElement {
  return h(
    'div',
    { className: 'grid-row pending', attrs },
    h('div', { className: 'cell index', text: String(index + 1), attrs: { role: 'rowheader', 'aria-colindex': '1' } }),
    h('div', { className: 'cell', text: '…', attrs: { role: 'gridcell', 'aria-colindex': '2', 'aria-busy': 'true' } }),
  );
}

/** Horizontal scroll that brings the active cell's column into view, clear of the sticky row number column. */
export function revealColumn(viewport: HTMLElement, indexColumnWidth: number): void {
  const cell = viewport.querySelector<HTMLElement>('.cell.active');
  if (!cell || cell.classList.contains('index')) return;
  const left = cell.offsetLeft - indexColumnWidth;
  const right = cell.offsetLeft + cell.offsetWidth;
  if (left < viewport.scrollLeft) viewport.scrollLeft = left;
  else if (right > viewport.scrollLeft + viewport.clientWidth) viewport.scrollLeft = right - viewport.clientWidth;
}
