// The rows of a table on disk (a large response, TableView.pagedRows): the table holds a sparse array as
// long as every row, with the first rows filled; the blocks the view needs are asked of the host (BLOCK rows
// each) and filled when they come; past KEEP_BLOCKS blocks the ones farthest from the view are forgotten
// (asked again if scrolled back to), so the page holds a bounded window whatever the response's size.
export const BLOCK = 200;
const KEEP_BLOCKS = 30;

export class DiskRows {
  private readonly asked = new Set<number>();
  private readonly held = new Set<number>();
  private center = 0;

  /** `rows`: the table's array (its length every row's count, the first rows in it); `ask` posts a `wantRows`. */
  constructor(private readonly rows: unknown[], private readonly ask: (from: number, count: number) => void) {
    this.held.add(0);
  }

  /** The view shows rows [first, end): the blocks not held are asked for (once until they come). */
  want(first: number, end: number): void {
    this.center = Math.floor((first + end) / 2 / BLOCK);
    for (let block = Math.floor(first / BLOCK); block * BLOCK < end; block++) {
      if (this.held.has(block) || this.asked.has(block)) continue;
      this.asked.add(block);
      this.ask(block * BLOCK, Math.min(BLOCK, this.rows.length - block * BLOCK));
    }
  }

  /** Rows read from disk, from `from` on; the farthest blocks from the view go past the bound. A block that could not be read stays asked (not asked again). */
  received(from: number, rows: readonly unknown[]): void {
    const block = Math.floor(from / BLOCK);
    if (rows.length === 0) return;
    this.asked.delete(block);
    for (let i = 0; i < rows.length && from + i < this.rows.length; i++) this.rows[from + i] = rows[i];
    this.held.add(block);
    if (this.held.size <= KEEP_BLOCKS) return;
    const far = [...this.held].filter((b) => b !== 0).sort((a, b) => Math.abs(b - this.center) - Math.abs(a - this.center));
    for (const gone of far.slice(0, this.held.size - KEEP_BLOCKS)) {
      this.held.delete(gone);
      const end = Math.min(this.rows.length, (gone + 1) * BLOCK);
      // eslint-disable-next-line @typescript-eslint/no-array-delete -- a hole, on purpose: the row is read again when needed
      for (let i = gone * BLOCK; i < end; i++) delete this.rows[i];
    }
  }
}
