// Which cell a key moves the results grid's focus to: the WAI-ARIA data grid keys, as pure arithmetic over
// positions (no DOM), so node tests check them directly. Rows are sorted positions 0..rows-1; HEADER is the
// column-header row above them; column 0 is the row number.
//   Arrows: one cell (Up from the first row reaches the header; nothing wraps)
//   Home / End: first / last cell of the row; Ctrl+Home / Ctrl+End: same column, first / last row
//   Page Up / Page Down: `page` rows; Enter / Space: act on the cell (sort, open)

export const HEADER = -1;

export interface GridCell {
  readonly position: number;
  readonly column: number;
}

export interface GridSize {
  readonly rows: number;
  readonly columns: number;
  /** Rows one Page Up / Page Down moves. */
  readonly page: number;
}

export type GridKeyAction =
  | { readonly kind: 'move'; readonly to: GridCell }
  | { readonly kind: 'activate'; readonly enter: boolean }
  | undefined;

export function gridKeyAction(key: string, ctrl: boolean, at: GridCell, size: GridSize): GridKeyAction {
  if (size.rows <= 0) return undefined;
  const last = size.rows - 1;
  const lastColumn = Math.max(0, size.columns - 1);
  const { position, column } = at;
  const move = (to: GridCell): GridKeyAction => ({ kind: 'move', to });
  switch (key) {
    case 'ArrowDown': return move({ position: Math.min(last, position + 1), column });
    case 'ArrowUp': return move({ position: Math.max(HEADER, position - 1), column });
    case 'ArrowRight': return move({ position, column: Math.min(lastColumn, column + 1) });
    case 'ArrowLeft': return move({ position, column: Math.max(0, column - 1) });
    case 'PageDown': return move({ position: Math.min(last, Math.max(0, position) + size.page), column });
    case 'PageUp': return move({ position: Math.max(0, position - size.page), column });
    case 'Home': return move(ctrl ? { position: 0, column } : { position, column: 0 });
    case 'End': return move(ctrl ? { position: last, column } : { position, column: lastColumn });
    case 'Enter': return { kind: 'activate', enter: true };
    case ' ': return { kind: 'activate', enter: false };
    default: return undefined;
  }
}
