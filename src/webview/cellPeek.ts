// The whole value of a cut table cell: its ellipsis says there is more, and the rest shows on hover (the
// cell's title, set when the pointer reaches a cell whose text does not fit) and, for the keyboard, in a
// small box under the active cell while the grid has focus. The box is aria-hidden: the cell's own text,
// which a screen reader reads as the active descendant, is already whole.
import { h } from './dom';

/** True when the element's text is wider than the element (drawn with an ellipsis). */
function isCut(element: HTMLElement): boolean {
  return element.scrollWidth > element.clientWidth + 1;
}

export class CellPeek {
  readonly element: HTMLDivElement;

  constructor(private readonly container: HTMLElement) {
    this.element = h('div', { className: 'cell-peek', attrs: { 'aria-hidden': 'true', 'data-testid': 'cell-peek' } });
    this.element.hidden = true;
    container.append(this.element);
  }

  /** Shows the cell's whole text under it when the cell is cut; hides the box otherwise. */
  show(cell: HTMLElement | undefined): void {
    if (!cell || !isCut(cell)) {
      this.element.hidden = true;
      return;
    }
    this.element.textContent = cell.textContent;
    const box = cell.getBoundingClientRect();
    const outer = this.container.getBoundingClientRect();
    this.element.style.left = `${Math.max(0, box.left - outer.left)}px`;
    this.element.style.top = `${box.bottom - outer.top + 2}px`;
    this.element.hidden = false;
  }
}

/** Hover: a cut cell gets its whole text as its title when the pointer reaches it. */
export function titleCutCells(layer: HTMLElement): void {
  layer.addEventListener('mouseover', (event) => {
    const cell = event.target instanceof HTMLElement ? event.target.closest<HTMLElement>('.cell') : null;
    if (cell && !cell.title && isCut(cell)) cell.title = cell.textContent ?? '';
  });
}
