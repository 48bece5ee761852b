// The virtualised table: only the rows in view (plus a little overscan) are in the DOM, inside a spacer as
// tall as every row together, so a 100 000-row page scrolls as smoothly as a 10-row one. Fixed row height.
// Cells are text; a nested value shows a summary and asks the app to expand it.
import type { Column, TableView } from '../protocol/webviewMessages';
import { compareCells, summariseCell } from '../core/results/cells';
import { scrollTopToReveal, visibleWindow, type RowWindow } from './virtualWindow';
import { h } from './dom';

export const ROW_HEIGHT = 22;
const INDEX_COLUMN_WIDTH = 64;

export interface CellRef {
  /** Index in the rows as received (not the sorted position). */
  readonly row: number;
  readonly column: Column | undefined;
  readonly value: unknown;
}

type SortState = { column: string; direction: 1 | -1 } | undefined;

export class VirtualTable {
  readonly element: HTMLDivElement;
  private readonly viewport: HTMLDivElement;
  private readonly header: HTMLDivElement;
  private readonly spacer: HTMLDivElement;
  private readonly layer: HTMLDivElement;
  private readonly empty: HTMLDivElement;
  private rows: unknown[] = [];
  /** Rows announced but not decoded yet (the rest of a `show`, parsed after the first screen is drawn). */
  private pending = 0;
  private columns: Column[] = [];
  private kind: TableView['kind'] = 'objects';
  private order: Uint32Array | undefined;
  private sort: SortState;
  private rendered: RowWindow | undefined;
  private selected = -1;
  private frame = 0;

  constructor(
    private readonly onExpand: (cell: CellRef) => void,
    private readonly onOpenRow: (row: number) => void,
  ) {
    this.header = h('div', { className: 'grid-row header', attrs: { role: 'row' } });
    this.layer = h('div', { className: 'rows', attrs: { role: 'rowgroup' } });
    this.spacer = h('div', { className: 'spacer' }, this.layer);
    this.empty = h('div', { className: 'empty', text: 'No rows.' });
    this.viewport = h('div', { className: 'viewport', attrs: { tabindex: '0', role: 'grid' } }, this.header, this.spacer);
    this.element = h('div', { className: 'table' }, this.viewport, this.empty);
    this.viewport.addEventListener('scroll', () => this.schedule(), { passive: true });
    this.layer.addEventListener('click', (e) => this.clicked(e));
    this.layer.addEventListener('dblclick', (e) => {
      const row = this.rowOf(e.target);
      if (row !== undefined) this.onOpenRow(row);
    });
    this.header.addEventListener('click', (e) => this.sortBy(e));
    this.viewport.addEventListener('keydown', (e) => this.key(e));
    new ResizeObserver(() => this.schedule()).observe(this.viewport);
  }

  /** Rows the table holds or is about to hold. */
  get rowCount(): number {
    return this.rows.length + this.pending;
  }

  get scrollTop(): number {
    return this.viewport.scrollTop;
  }

  set scrollTop(value: number) {
    this.viewport.scrollTop = value;
    this.schedule();
  }

  /** `pending`: how many more rows were announced; they arrive with completeRows (or never, see abandonPending). */
  setData(table: TableView | undefined, pending = 0): void {
    this.rows = table ? table.rows : [];
    this.pending = pending;
    this.kind = table?.kind ?? 'objects';
    this.sort = undefined;
    this.order = undefined;
    this.selected = -1;
    this.setColumns(table?.columns ?? []);
    this.viewport.scrollTop = 0;
    this.refresh();
  }

  /** The rest of the rows announced by setData. */
  completeRows(rows: readonly unknown[]): void {
    for (const row of rows) this.rows.push(row);
    this.pending = 0;
    this.refresh();
  }

  /** The announced rest did not decode: the table is what arrived. */
  abandonPending(): void {
    this.pending = 0;
    this.refresh();
  }

  append(rows: readonly unknown[], columns: readonly Column[]): void {
    for (const row of rows) this.rows.push(row);
    if (this.sort) this.order = this.sortedOrder(this.sort);
    // A column never disappears: the ones on screen stay, in their order, and new keys join at the end.
    const known = new Set(this.columns.map((c) => c.key));
    this.setColumns([...this.columns, ...columns.filter((c) => !known.has(c.key))]);
    this.refresh();
  }

  /** Renders now (not on the next frame): used after new data so the first rows appear at once. */
  refresh(): void {
    this.rendered = undefined;
    this.render();
  }

  private setColumns(columns: Column[]): void {
    this.columns = columns;
    const widths = [INDEX_COLUMN_WIDTH, ...columns.map((c) => this.estimateWidth(c))];
    const template = widths.map((w) => `${w}px`).join(' ');
    const total = widths.reduce((a, b) => a + b, 0);
    this.element.style.setProperty('--grid-columns', template);
    this.element.style.setProperty('--grid-width', `${total}px`);
    const cells = [h('div', { className: 'cell index', text: '#' })];
    for (const column of columns) {
      const arrow = this.sort?.column === column.key ? (this.sort.direction === 1 ? ' ▲' : ' ▼') : '';
      cells.push(h('div', { className: 'cell', text: `${column.label}${arrow}`, title: `Sort by ${column.label}`, attrs: { 'data-key': column.key, role: 'columnheader' } }));
    }
    this.header.replaceChildren(...cells);
  }

  /** Width from the label and a sample of the first rows' text, clamped: no layout pass over all rows. */
  private estimateWidth(column: Column): number {
    let longest = column.label.length + 2;
    const sample = Math.min(this.rows.length, 200);
    for (let i = 0; i < sample; i++) longest = Math.max(longest, summariseCell(this.cellValue(this.rows[i], column)).text.length);
    return Math.min(320, Math.max(56, longest * 7.5 + 16));
  }

  private cellValue(row: unknown, column: Column | undefined): unknown {
    if (this.kind === 'values' || !column) return row;
    return typeof row === 'object' && row !== null && !Array.isArray(row) ? (row as Record<string, unknown>)[column.key] : undefined;
  }

  private schedule(): void {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.render();
    });
  }

  private render(): void {
    this.empty.hidden = this.rowCount > 0;
    if (this.pending === 0) this.element.setAttribute('data-rows-loaded', String(this.rows.length));
    else this.element.removeAttribute('data-rows-loaded');
    const headerHeight = this.header.offsetHeight || ROW_HEIGHT;
    const win = visibleWindow({
      scrollTop: this.viewport.scrollTop,
      viewportHeight: Math.max(this.viewport.clientHeight - headerHeight, ROW_HEIGHT * 10),
      rowHeight: ROW_HEIGHT,
      rowCount: this.rowCount,
    });
    this.spacer.style.height = `${win.totalHeight}px`;
    // Past the height cap the offset moves within one window of rows, so it is set on every frame.
    this.layer.style.transform = `translateY(${win.offsetTop}px)`;
    if (this.rendered && this.rendered.first === win.first && this.rendered.end === win.end) return;
    this.rendered = win;
    const elements: HTMLElement[] = [];
    for (let position = win.first; position < win.end; position++) elements.push(this.renderRow(position));
    this.layer.replaceChildren(...elements);
  }

  private renderRow(position: number): HTMLElement {
    const index = this.order ? this.order[position]! : position;
    if (index >= this.rows.length) return this.placeholderRow(index);
    const row = this.rows[index];
    const element = h('div', {
      className: index === this.selected ? 'grid-row selected' : 'grid-row',
      attrs: { 'data-row': String(index), role: 'row' },
    });
    element.append(h('div', { className: 'cell index', text: String(index + 1) }));
    const columns = this.kind === 'values' ? [undefined] : this.columns;
    columns.forEach((column, c) => {
      const display = summariseCell(this.cellValue(row, column));
      const cell = h('div', { className: `cell ${display.kind}${display.nested ? ' nested' : ''}`, text: display.text, attrs: { 'data-col': String(c) } });
      if (display.nested) cell.title = 'Click to expand';
      element.append(cell);
    });
    return element;
  }

  /** A row announced but not decoded yet (for the few milliseconds the rest of a page takes to parse). */
  private placeholderRow(index: number): HTMLElement {
    return h('div', { className: 'grid-row pending', attrs: { role: 'row' } }, h('div', { className: 'cell index', text: String(index + 1) }), h('div', { className: 'cell', text: '…' }));
  }

  private rowOf(target: EventTarget | null): number | undefined {
    const rowElement = target instanceof Element ? target.closest('[data-row]') : null;
    const row = rowElement ? Number(rowElement.getAttribute('data-row')) : NaN;
    return Number.isInteger(row) ? row : undefined;
  }

  private clicked(event: MouseEvent): void {
    const row = this.rowOf(event.target);
    if (row === undefined) return;
    this.selected = row;
    for (const el of this.layer.querySelectorAll('.grid-row.selected')) el.classList.remove('selected');
    (event.target as Element).closest('.grid-row')?.classList.add('selected');
    const cell = event.target instanceof Element ? event.target.closest('[data-col]') : null;
    if (!cell) return;
    const column = this.kind === 'values' ? undefined : this.columns[Number(cell.getAttribute('data-col'))];
    this.onExpand({ row, column, value: this.cellValue(this.rows[row], column) });
  }

  /** Arrow keys, Page Up/Down, Home/End move the selected row; Enter opens it as JSON. */
  private key(event: KeyboardEvent): void {
    if (this.rows.length === 0 || this.pending > 0) return;
    const page = Math.max(1, Math.floor(this.viewport.clientHeight / ROW_HEIGHT) - 2);
    const current = this.selected < 0 ? -1 : this.order ? this.order.indexOf(this.selected) : this.selected;
    const moves: Record<string, number> = { ArrowDown: 1, ArrowUp: -1, PageDown: page, PageUp: -page, Home: -Infinity, End: Infinity };
    if (event.key === 'Enter' && this.selected >= 0) {
      event.preventDefault();
      this.onOpenRow(this.selected);
      return;
    }
    const move = moves[event.key];
    if (move === undefined) return;
    event.preventDefault();
    const position = Math.min(this.rows.length - 1, Math.max(0, current + move));
    this.selected = this.order ? this.order[position]! : position;
    const headerHeight = this.header.offsetHeight || ROW_HEIGHT;
    this.viewport.scrollTop = scrollTopToReveal(position, ROW_HEIGHT, this.viewport.clientHeight - headerHeight, this.viewport.scrollTop, this.rows.length);
    this.refresh();
  }

  private sortBy(event: MouseEvent): void {
    const key = event.target instanceof Element ? event.target.closest('[data-key]')?.getAttribute('data-key') : null;
    if (key === null || key === undefined || this.pending > 0) return;
    // Three states per column: ascending, descending, as received.
    if (this.sort?.column !== key) this.sort = { column: key, direction: 1 };
    else this.sort = this.sort.direction === 1 ? { column: key, direction: -1 } : undefined;
    this.order = this.sort ? this.sortedOrder(this.sort) : undefined;
    this.setColumns(this.columns);
    this.refresh();
  }

  private sortedOrder(sort: { column: string; direction: 1 | -1 }): Uint32Array {
    const column = this.columns.find((c) => c.key === sort.column);
    const values = this.rows.map((row) => this.cellValue(row, column));
    const order = Array.from({ length: this.rows.length }, (_, i) => i);
    order.sort((a, b) => compareCells(values[a], values[b]) * sort.direction || a - b);
    return Uint32Array.from(order);
  }
}
