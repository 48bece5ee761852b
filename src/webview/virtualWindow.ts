// Which rows of a virtualised list are in the DOM for a scroll position. Pure arithmetic (no DOM), so the
// node tests check it directly. Fixed row height: row i sits at i * rowHeight inside a spacer of full height.

export interface WindowInput {
  readonly scrollTop: number;
  readonly viewportHeight: number;
  readonly rowHeight: number;
  readonly rowCount: number;
  /** Rows kept above and below the visible ones, so a small scroll shows no blank band. */
  readonly overscan?: number;
}

export interface RowWindow {
  /** First row in the DOM (inclusive). */
  readonly first: number;
  /** One past the last row in the DOM. */
  readonly end: number;
  /** Where the first rendered row sits inside the spacer. */
  readonly offsetTop: number;
  /** Height of the spacer: every row's height, rendered or not. */
  readonly totalHeight: number;
}

/**
 * Browsers cap an element's height (Chromium near 33.5 M px, Firefox near 17.9 M px). Past this height the
 * spacer stays at it and a scroll position maps proportionally onto the rows, so 1.5 M+ appended rows still
 * reach the last one. Below it (100 000 rows at 22 px = 2.2 M px) the mapping is exact.
 */
export const MAX_SPACER_HEIGHT = 15_000_000;

export function visibleWindow({ scrollTop, viewportHeight, rowHeight, rowCount, overscan = 8 }: WindowInput): RowWindow {
  if (rowCount <= 0 || rowHeight <= 0) return { first: 0, end: 0, offsetTop: 0, totalHeight: 0 };
  const contentHeight = rowCount * rowHeight;
  const totalHeight = Math.min(contentHeight, MAX_SPACER_HEIGHT);
  const viewport = Math.max(0, viewportHeight);
  // A stale scrollTop (rows replaced by a shorter page) must not point past the end.
  const top = Math.min(Math.max(0, scrollTop), Math.max(0, totalHeight - viewport));
  const scrollRange = totalHeight - viewport;
  const virtualTop = contentHeight === totalHeight || scrollRange <= 0 ? top : (top * (contentHeight - viewport)) / scrollRange;
  const firstVisible = Math.min(rowCount - 1, Math.floor(virtualTop / rowHeight));
  const endVisible = Math.min(rowCount, Math.max(firstVisible + 1, Math.ceil((virtualTop + viewport) / rowHeight)));
  const first = Math.max(0, firstVisible - overscan);
  const end = Math.min(rowCount, endVisible + overscan);
  // Where row `first` sits in the spacer so that the rows under the viewport are the ones virtualTop names.
  return { first, end, offsetTop: top - (virtualTop - first * rowHeight), totalHeight };
}

/**
 * The scrollTop that brings row `index` into view with the least movement (keyboard navigation). With
 * `rowCount`, a spacer held at MAX_SPACER_HEIGHT is taken into account.
 */
export function scrollTopToReveal(index: number, rowHeight: number, viewportHeight: number, scrollTop: number, rowCount?: number): number {
  const content = rowCount === undefined ? 0 : rowCount * rowHeight;
  const spacer = Math.min(content, MAX_SPACER_HEIGHT);
  const scale = content > spacer && spacer > viewportHeight ? (content - viewportHeight) / (spacer - viewportHeight) : 1;
  const virtualTop = scrollTop * scale;
  const rowTop = index * rowHeight;
  const rowBottom = rowTop + rowHeight;
  let target = virtualTop;
  if (rowTop < virtualTop) target = rowTop;
  else if (rowBottom > virtualTop + viewportHeight) target = rowBottom - viewportHeight;
  return target === virtualTop ? scrollTop : Math.max(0, target / scale);
}
