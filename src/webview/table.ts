// The virtualised table: only the rows in view (plus a little overscan) are in the DOM, inside a spacer as
// tall as every row together, so a 100 000-row page scrolls as smoothly as a 10-row one. Fixed row height.
// Cells are text; a nested value shows a summary and asks the app to expand it.
//
// Accessibility follows the WAI-ARIA grid pattern: the viewport is the one Tab stop (role grid) and points
// at the active cell with aria-activedescendant; aria-rowcount / aria-rowindex and aria-colcount /
// aria-colindex give every rendered row and cell its place among all of them, so a screen reader says
// "row 50 001 of 100 001" although only ~40 rows exist in the DOM. The header is row 1; data rows start at 2.
// Keys (gridKeys.ts): arrows between cells, Home/End, Ctrl+Home/End, Page Up/Down; Enter or Space on a
// header sorts, on a nested or long value opens it, Enter elsewhere opens the row as JSON. Selection
// follows focus.
import { CellPeek, titleCutCells } from './cellPeek';
import type { Column, TableView } from '../protocol/webviewMessages';
import { expandable, summariseCell } from '../core/results/cells';
import { scrollTopToReveal, visibleWindow, type RowWindow } from './virtualWindow';
import { gridKeyAction, HEADER } from './gridKeys';
import { h } from './dom';
import { DiskRows } from './diskRows';
import { cellId, placeholderRow, revealColumn } from './gridParts';
import { headerCells, headerId, sortedOrder, type SortState } from './tableHeader';

export const ROW_HEIGHT = 22;
const INDEX_COLUMN_WIDTH = 64;

export interface CellRef {
  /** Index in the rows as received (not the sorted position). */
  readonly row: number;
  readonly column: Column | undefined;
  readonly value: unknown;
}

export interface TableEvents {
  /** A nested or long value was opened (click, Enter or Space); `byKeyboard` when focus should follow. */
  expand(cell: CellRef, byKeyboard: boolean): void;
  openRow(row: number): void;
  /** A sentence for the live region (a sort, for instance). */
  announce(text: string): void;
  /** Rows of a table on disk the view needs (at most 1000). */
  wantRows(from: number, count: number): void;
}

export class VirtualTable {
  readonly element: HTMLDivElement;
  private readonly viewport: HTMLDivElement;
  private readonly header: HTMLDivElement;
  private readonly spacer: HTMLDivElement;
  private readonly layer: HTMLDivElement;
  private readonly empty: HTMLDivElement;
  private readonly peek: CellPeek;
  private rows: unknown[] = [];
  /** Rows announced but not decoded yet (the rest of a `show`, parsed after the first screen is drawn). */
  private pending = 0;
  private columns: Column[] = [];
  private kind: TableView['kind'] = 'objects';
  private order: Uint32Array | undefined;
  private sort: SortState;
  private rendered: RowWindow | undefined;
  /** The active cell: a sorted position (HEADER for the header row) and a column (0 is the row number). */
  private active = { position: 0, column: 0 };
  /** The selected row's index as received, or -1. Follows the active cell; kept across a sort. */
  private selected = -1;
  private frame = 0;
  /** Set for a table on disk: which of its rows are held, and asking for the others. */
  private disk: DiskRows | undefined;

  constructor(private readonly events: TableEvents) {
    this.header = h('div', { className: 'grid-row header', attrs: { role: 'row', 'aria-rowindex': '1' } });
    this.layer = h('div', { className: 'rows', attrs: { role: 'rowgroup' } });
    this.spacer = h('div', { className: 'spacer', attrs: { role: 'presentation' } }, this.layer);
    // An empty table says what it means and what to do, above an empty grid (no bare "#" header).
    this.empty = h('div', { className: 'empty', text: 'No rows: the list in this response is empty. If you expected some, check the page or the filters of the request, or open Raw JSON to see the whole body.' });
    this.viewport = h(
      'div',
      { className: 'viewport', attrs: { tabindex: '0', role: 'grid', 'aria-label': 'Rows of the response', 'aria-readonly': 'true', 'data-testid': 'grid' } },
      this.header,
      this.spacer,
    );
    this.element = h('div', { className: 'table' }, this.empty, this.viewport);
    this.peek = new CellPeek(this.element);
    titleCutCells(this.layer);
    this.viewport.addEventListener('blur', () => this.peek.show(undefined));
    this.viewport.addEventListener('scroll', () => this.schedule(), { passive: true });
    this.layer.addEventListener('click', (e) => this.clicked(e));
    this.layer.addEventListener('dblclick', (e) => {
      const row = this.rowOf(e.target);
      if (row !== undefined) this.events.openRow(row);
    });
    this.header.addEventListener('click', (e) => {
      const column = this.columnOf(e.target);
      if (column !== undefined) this.sortBy(column);
    });
    this.viewport.addEventListener('keydown', (e) => this.key(e));
    // Selection follows focus: arriving on the grid selects the active cell's row.
    this.viewport.addEventListener('focus', () => {
      if (this.selected < 0 && this.rows.length > 0 && this.active.position !== HEADER) this.moveTo(this.active.position, this.active.column, false);
    });
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

  /** Puts keyboard focus on the grid (the active cell is its active descendant). */
  focus(): void {
    this.viewport.focus();
  }

  /** `pending`: how many more rows were announced; they arrive with completeRows (or never, see abandonPending). */
  setData(table: TableView | undefined, pending = 0): void {
    this.rows = table ? table.rows : [];
    this.disk = undefined;
    if (table?.pagedRows !== undefined) {
      // As long as every row, the first ones in it; the others come from disk as the view reaches them.
      this.rows = table.rows.slice();
      this.rows.length = table.pagedRows;
      this.disk = new DiskRows(this.rows, (from, count) => this.events.wantRows(from, count));
    }
    this.pending = pending;
    this.kind = table?.kind ?? 'objects';
    this.sort = undefined;
    this.order = undefined;
    this.selected = -1;
    this.active = { position: 0, column: 0 };
    this.setColumns(table?.columns ?? []);
    this.viewport.scrollTop = 0;
    this.viewport.scrollLeft = 0;
    this.refresh();
  }

  /** The rest of the rows announced by setData, and the columns of the whole table (those on screen stay first). */
  completeRows(rows: readonly unknown[], columns: readonly Column[]): void {
    for (const row of rows) this.rows.push(row);
    this.pending = 0;
    this.addColumns(columns);
    this.refresh();
  }

  /** Rows of a table on disk, as asked for; the columns of the table so far grow with theirs. */
  diskRows(from: number, rows: readonly unknown[], columns: readonly Column[]): void {
    if (!this.disk) return;
    this.disk.received(from, rows);
    this.addColumns(columns);
    this.refresh();
  }

  /** The announced rest did not decode: the table is what arrived. */
  abandonPending(): void {
    this.pending = 0;
    this.refresh();
  }

  append(rows: readonly unknown[], columns: readonly Column[]): void {
    for (const row of rows) this.rows.push(row);
    if (this.sort) this.order = this.orderBy(this.sort);
    this.addColumns(columns);
    if (this.selected >= 0) this.active.position = this.positionOf(this.selected);
    this.refresh();
  }

  /** A column never disappears: the ones on screen stay, in their order, and new keys join at the end. */
  private addColumns(columns: readonly Column[]): void {
    const known = new Set(this.columns.map((c) => c.key));
    this.setColumns([...this.columns, ...columns.filter((c) => !known.has(c.key))]);
  }

  /** Renders now (not on the next frame): used after new data so the first rows appear at once. */
  refresh(): void {
    this.rendered = undefined;
    this.render();
  }

  /** Columns as the grid counts them: the row number, then the data columns (one unnamed for a list of values). */
  private get columnCount(): number {
    return 1 + (this.kind === 'values' ? 1 : this.columns.length);
  }

  private setColumns(columns: Column[]): void {
    this.columns = columns;
    const widths = [INDEX_COLUMN_WIDTH, ...columns.map((c) => this.estimateWidth(c))];
    const template = widths.map((w) => `${w}px`).join(' ');
    const total = widths.reduce((a, b) => a + b, 0);
    this.element.style.setProperty('--grid-columns', template);
    this.element.style.setProperty('--grid-width', `${total}px`);
    this.viewport.setAttribute('aria-colcount', String(this.columnCount));
    const cells = headerCells(columns, this.sort);
    this.header.replaceChildren(...cells);
    this.active.column = Math.min(this.active.column, this.columnCount - 1);
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

  /** The column behind grid column `c` (0 is the row number, undefined for it and for a list of values). */
  private dataColumn(c: number): Column | undefined {
    return this.kind === 'values' ? undefined : this.columns[c - 1];
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
    this.header.hidden = this.rowCount === 0;
    this.viewport.setAttribute('aria-rowcount', String(this.rowCount + 1));
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
    if (!this.rendered || this.rendered.first !== win.first || this.rendered.end !== win.end) {
      this.rendered = win;
      const elements: HTMLElement[] = [];
      for (let position = win.first; position < win.end; position++) elements.push(this.renderRow(position));
      this.layer.replaceChildren(...elements);
      this.disk?.want(win.first, win.end);
    }
    this.markActive();
  }

  private renderRow(position: number): HTMLElement {
    const index = this.order ? this.order[position]! : position;
    const rowAttrs = { role: 'row', 'aria-rowindex': String(position + 2), 'data-pos': String(position) };
    if (index >= this.rows.length || !(index in this.rows)) return placeholderRow(index, rowAttrs);
    const row = this.rows[index];
    const selected = index === this.selected;
    const element = h('div', {
      className: selected ? 'grid-row selected' : 'grid-row',
      attrs: { ...rowAttrs, 'data-row': String(index), 'aria-selected': String(selected) },
    });
    element.append(h('div', { className: 'cell index', text: String(index + 1), attrs: { role: 'rowheader', 'aria-colindex': '1', 'data-col': '0', id: cellId(index, 0) } }));
    for (let c = 1; c < this.columnCount; c++) {
      const display = summariseCell(this.cellValue(row, this.dataColumn(c)));
      const cell = h('div', {
        className: `cell ${display.kind}${display.nested ? ' nested' : ''}`,
        text: display.text,
        attrs: { role: 'gridcell', 'aria-colindex': String(c + 1), 'data-col': String(c), id: cellId(index, c) },
      });
      if (display.nested) cell.title = 'Enter or click to expand';
      element.append(cell);
    }
    return element;
  }

  /** Marks the active cell and points the grid at it, when it is in the DOM (a mouse scroll may leave it out). */
  private markActive(): void {
    for (const el of this.viewport.querySelectorAll('.cell.active')) el.classList.remove('active');
    const { position, column } = this.active;
    const index = position === HEADER ? HEADER : this.indexAt(position);
    const id = position === HEADER ? headerId(column) : index !== undefined ? cellId(index, column) : undefined;
    const cell = id ? this.viewport.querySelector(`[id="${id}"]`) : null;
    if (cell && this.rowCount > 0) {
      cell.classList.add('active');
      this.viewport.setAttribute('aria-activedescendant', cell.id);
      this.peek.show(document.activeElement === this.viewport && cell instanceof HTMLElement ? cell : undefined);
    } else {
      this.peek.show(undefined);
      this.viewport.removeAttribute('aria-activedescendant');
    }
  }

  private indexAt(position: number): number | undefined {
    if (position < 0 || position >= this.rows.length) return undefined;
    return this.order ? this.order[position] : position;
  }

  private positionOf(index: number): number {
    return this.order ? this.order.indexOf(index) : index;
  }

  private rowOf(target: EventTarget | null): number | undefined {
    const rowElement = target instanceof Element ? target.closest('[data-row]') : null;
    const row = rowElement ? Number(rowElement.getAttribute('data-row')) : NaN;
    return Number.isInteger(row) ? row : undefined;
  }

  private columnOf(target: EventTarget | null): number | undefined {
    const cell = target instanceof Element ? target.closest('[data-col]') : null;
    const column = cell ? Number(cell.getAttribute('data-col')) : NaN;
    return Number.isInteger(column) ? column : undefined;
  }

  private clicked(event: MouseEvent): void {
    const row = this.rowOf(event.target);
    if (row === undefined) return;
    const column = this.columnOf(event.target) ?? 0;
    this.moveTo(this.positionOf(row), column, false);
    this.open(row, column, false);
  }

  /** Opens the value of a cell when there is more of it to see; true when it did. */
  private open(row: number, column: number, byKeyboard: boolean): boolean {
    const dataColumn = this.dataColumn(column);
    const value = column === 0 ? undefined : this.cellValue(this.rows[row], dataColumn);
    if (!expandable(value)) return false;
    this.events.expand({ row, column: dataColumn, value }, byKeyboard);
    return true;
  }

  private key(event: KeyboardEvent): void {
    if (event.altKey || event.metaKey || this.rows.length === 0 || this.pending > 0) return;
    const page = Math.max(1, Math.floor(this.viewport.clientHeight / ROW_HEIGHT) - 2);
    const action = gridKeyAction(event.key, event.ctrlKey, this.active, { rows: this.rows.length, columns: this.columnCount, page });
    if (!action) return;
    event.preventDefault();
    if (action.kind === 'activate') this.activate(action.enter);
    else this.moveTo(action.to.position, action.to.column, true);
  }

  /** Enter / Space on the active cell. */
  private activate(enter: boolean): void {
    const { position, column } = this.active;
    if (position === HEADER) {
      if (column > 0) this.sortBy(column);
      return;
    }
    const row = this.indexAt(position);
    if (row === undefined) return;
    if (!this.open(row, column, true) && enter) this.events.openRow(row);
  }

  /** Makes a cell active (its row selected), scrolling it into view when `reveal`. */
  private moveTo(position: number, column: number, reveal: boolean): void {
    this.active = { position, column };
    if (position !== HEADER) this.selected = this.indexAt(position) ?? -1;
    if (reveal && position !== HEADER) {
      const headerHeight = this.header.offsetHeight || ROW_HEIGHT;
      this.viewport.scrollTop = scrollTopToReveal(position, ROW_HEIGHT, this.viewport.clientHeight - headerHeight, this.viewport.scrollTop, this.rows.length);
    }
    // In place: rows are rebuilt only when the window moved (a rebuilt row under the mouse loses its click).
    this.render();
    for (const row of this.layer.querySelectorAll<HTMLElement>('.grid-row[data-row]')) {
      const on = Number(row.getAttribute('data-row')) === this.selected;
      row.classList.toggle('selected', on);
      row.setAttribute('aria-selected', String(on));
    }
    if (reveal) revealColumn(this.viewport, INDEX_COLUMN_WIDTH);
  }

  /** Three states per column: ascending, descending, as received. The selected row stays selected. */
  private sortBy(column: number): void {
    const key = this.dataColumn(column)?.key;
    if (key === undefined || this.pending > 0) return;
    if (this.disk) {
      this.events.announce('Sorting needs every row in memory: this table reads its rows from disk as you scroll. Export writes them all to a file.');
      return;
    }
    if (this.sort?.column !== key) this.sort = { column: key, direction: 1 };
    else this.sort = this.sort.direction === 1 ? { column: key, direction: -1 } : undefined;
    this.order = this.sort ? this.orderBy(this.sort) : undefined;
    this.setColumns(this.columns);
    this.active = { position: HEADER, column };
    this.refresh();
    const label = this.dataColumn(column)?.label ?? key;
    this.events.announce(this.sort ? `Sorted by ${label}, ${this.sort.direction === 1 ? 'ascending' : 'descending'}` : `${label}: rows in the order received`);
  }

  private orderBy(sort: NonNullable<SortState>): Uint32Array {
    const column = this.columns.find((c) => c.key === sort.column);
    return sortedOrder(this.rows.map((row) => this.cellValue(row, column)), sort.direction);
  }
}
