// An open document's text kept as its request blocks (the parser's cut: a block begins at the file's
// start and at every line that begins with `###`, blockStartOffsets), so that an edit costs what it
// touches: applying a change re-cuts only the blocks the change's range touches (and the one before,
// when the change starts on a block's first line, whose `###` it may remove), and every other block
// keeps its string. No whole-file string is made per version; `text` joins the blocks only when asked
// (the full parse for the outline). A BlockText is immutable: an edit returns a new one sharing the
// untouched block strings, so a validation pass still running over an older version reads its own.
// Positions are the LSP's: lines cut at \n, \r\n and a lone \r, characters in UTF-16 code units.
import { blockStartOffsets, type Position, type SourceLine } from '../../core/httpfile';

/** A change as LSP sends it: a range replaced by a text, or (no range) the whole text replaced. */
export interface TextChange {
  readonly range?: { readonly start: Position; readonly end: Position };
  readonly text: string;
}

/** Offsets of the line starts of a text (0 first), cut as splitLines cuts (\n, \r\n, a lone \r). */
export function lineStartsOf(text: string): number[] {
  const starts = [0];
  if (!text.includes('\r')) {
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
    return starts;
  }
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) starts.push(i + 1);
    else if (c === 13) {
      if (text.charCodeAt(i + 1) === 10) i++;
      starts.push(i + 1);
    }
  }
  return starts;
}

/** How many lines `text` breaks (as lineStartsOf cuts them), without making their offsets. */
function lineBreaksIn(text: string): number {
  let breaks = 0;
  if (!text.includes('\r')) {
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) breaks++;
    return breaks;
  }
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) breaks++;
  }
  return breaks;
}

/** Index of the last element of ascending `values` that is at most `target` (0 when none is). */
function lastAtMost(values: readonly number[], target: number): number {
  let low = 0;
  let high = values.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (values[mid]! <= target) low = mid;
    else high = mid - 1;
  }
  return low;
}

export class BlockText {
  /** Each block's line starts, made on first use (a keystroke reads one or two blocks). */
  private readonly starts: Array<number[] | undefined>;
  private joined?: string;
  private lines?: { readonly firstLines: readonly number[]; readonly count: number };

  private constructor(
    /** The blocks' texts; each but the last ends with its line break. */
    readonly blocks: readonly string[],
    /** Each block's first character's offset in the whole text. */
    readonly offsets: readonly number[],
    readonly length: number,
    /** Each block's first line and the line count; undefined (a text just cut): counted when first asked. */
    lines?: { readonly firstLines: readonly number[]; readonly count: number },
    starts?: Array<number[] | undefined>,
  ) {
    this.lines = lines;
    this.starts = starts ?? new Array<number[] | undefined>(blocks.length);
  }

  /**
   * A text cut into its blocks. Their lines are counted when first asked, and their line starts made
   * then: validating a file that has just opened needs neither, so its first slice does not wait for a
   * scan of the whole file.
   */
  static of(text: string): BlockText {
    const cuts = blockStartOffsets(text);
    const blocks = new Array<string>(cuts.length);
    for (let k = 0; k < cuts.length; k++) blocks[k] = text.slice(cuts[k], k + 1 < cuts.length ? cuts[k + 1] : text.length);
    return new BlockText(blocks, cuts, text.length);
  }

  /** Each block's first line. */
  get firstLines(): readonly number[] {
    return (this.lines ??= this.countLines()).firstLines;
  }

  get lineCount(): number {
    return (this.lines ??= this.countLines()).count;
  }

  private countLines(): { readonly firstLines: readonly number[]; readonly count: number } {
    const firstLines = new Array<number>(this.blocks.length);
    let line = 0;
    for (let k = 0; k < this.blocks.length; k++) {
      firstLines[k] = line;
      line += lineBreaksIn(this.blocks[k]!);
    }
    return { firstLines, count: line + 1 };
  }

  /** The whole text (joined once per version, when asked). */
  get text(): string {
    return (this.joined ??= this.blocks.length === 1 ? this.blocks[0]! : this.blocks.join(''));
  }

  /** The block holding `line` (clamped to the document). */
  blockOf(line: number): number {
    return lastAtMost(this.firstLines, line);
  }

  /** Line starts of block `k`, offsets within its text. */
  lineStartsIn(k: number): readonly number[] {
    return (this.starts[k] ??= lineStartsOf(this.blocks[k]!));
  }

  /** Block `k`'s last line (a block other than the file's last ends with a break: the line after it is the next block's). */
  lastLineOf(k: number): number {
    return k + 1 < this.blocks.length ? this.firstLines[k + 1]! - 1 : this.lineCount - 1;
  }

  /** Line `line` with its break, its offset counted from its block's start; undefined past the end. */
  sourceLineInBlock(line: number): SourceLine | undefined {
    if (line < 0 || line >= this.lineCount) return undefined;
    const k = this.blockOf(line);
    const text = this.blocks[k]!;
    const starts = this.lineStartsIn(k);
    const i = line - this.firstLines[k]!;
    const start = starts[i]!;
    const next = starts[i + 1];
    if (next === undefined) return { text: text.slice(start), eol: '', offset: start };
    const crlf = next >= 2 && text.charCodeAt(next - 1) === 10 && text.charCodeAt(next - 2) === 13;
    const eolLength = crlf ? 2 : 1;
    return { text: text.slice(start, next - eolLength), eol: crlf ? '\r\n' : text.charCodeAt(next - 1) === 10 ? '\n' : '\r', offset: start };
  }

  /** Offset in the whole text of a position (clamped: past a line's end is its end, past the last line the text's end). */
  offsetAt(position: Position): number {
    if (position.line >= this.lineCount) return this.length;
    const line = Math.max(0, position.line);
    const k = this.blockOf(line);
    const starts = this.lineStartsIn(k);
    const i = line - this.firstLines[k]!;
    const start = starts[i]!;
    const text = this.blocks[k]!;
    const next = starts[i + 1];
    let end = next ?? text.length;
    if (next !== undefined) end -= next >= 2 && text.charCodeAt(next - 1) === 10 && text.charCodeAt(next - 2) === 13 ? 2 : 1;
    return this.offsets[k]! + start + Math.max(0, Math.min(position.character, end - start));
  }

  positionAt(offset: number): Position {
    const at = Math.max(0, Math.min(offset, this.length));
    const k = lastAtMost(this.offsets, at);
    const starts = this.lineStartsIn(k);
    const i = lastAtMost(starts, at - this.offsets[k]!);
    return { line: this.firstLines[k]! + i, character: at - this.offsets[k]! - starts[i]! };
  }

  /** The text after `changes`, applied in order (as LSP sends them). */
  withChanges(changes: readonly TextChange[]): BlockText {
    return changes.reduce<BlockText>((text, change) => (change.range ? text.replaced(change.range.start, change.range.end, change.text) : BlockText.of(change.text)), this);
  }

  /** `start`..`end` replaced by `text`: the touched blocks cut again, every other block kept. */
  private replaced(start: Position, end: Position, text: string): BlockText {
    const from = this.offsetAt(start);
    const to = Math.max(from, this.offsetAt(end));
    // The first block touched; the one before it too when the change starts on its first line (a `###`
    // typed over or deleted joins it to the block before).
    let first = lastAtMost(this.offsets, from);
    if (first > 0 && from - this.offsets[first]! <= this.lineEndIn(first, 0)) first--;
    // The last block touched: the one holding `to` (a change ending at a block's very start touches it).
    let last = lastAtMost(this.offsets, to);
    for (;;) {
      const regionStart = this.offsets[first]!;
      const regionEnd = last + 1 < this.blocks.length ? this.offsets[last + 1]! : this.length;
      const old = this.blocks.slice(first, last + 1).join('');
      const region = old.slice(0, from - regionStart) + text + old.slice(to - regionStart);
      // The block after the region begins with `###` only after a line break: if the region no longer
      // ends with one, that block joins it.
      const tail = region.charCodeAt(region.length - 1);
      if (last + 1 < this.blocks.length && region.length > 0 && tail !== 10 && tail !== 13) {
        last++;
        continue;
      }
      return this.spliced(first, last, region, regionEnd - regionStart);
    }
  }

  /** The end (offset in block k) of block k's line i, before its break. */
  private lineEndIn(k: number, i: number): number {
    const starts = this.lineStartsIn(k);
    const next = starts[i + 1];
    return next === undefined ? this.blocks[k]!.length : next - 1;
  }

  /** Blocks first..last (oldLength characters) replaced by the blocks `region` cuts into. */
  private spliced(first: number, last: number, region: string, oldLength: number): BlockText {
    const cuts = region.length === 0 ? [] : blockStartOffsets(region);
    const made = cuts.map((s, j) => region.slice(s, j + 1 < cuts.length ? cuts[j + 1] : region.length));
    const madeStarts = made.map(lineStartsOf);
    const isEnd = last + 1 === this.blocks.length;
    const oldLines = (isEnd ? this.lineCount : this.firstLines[last + 1]!) - this.firstLines[first]!;
    // Lines the region spans: its breaks, plus the line after its last break when it ends the text.
    const madeBreaks = madeStarts.reduce((n, s) => n + s.length - 1, 0);
    const lineShift = madeBreaks + (isEnd ? 1 : 0) - oldLines;
    const charShift = region.length - oldLength;
    // Each list made at its length and filled in place: spread and pushed copies of a 3 000-block file's
    // lists cost a keystroke about 250 kB; the line starts of the blocks the edit made are added.
    const count = this.blocks.length - (last + 1 - first) + made.length;
    const tail = last + 1 - first - made.length; // how far an untouched block after the region moves back
    const blocks = new Array<string>(count);
    const firstLines = new Array<number>(count);
    const offsets = new Array<number>(count);
    const starts = new Array<number[] | undefined>(count);
    const oldFirstLines = this.firstLines;
    for (let k = 0; k < first; k++) {
      blocks[k] = this.blocks[k]!;
      firstLines[k] = oldFirstLines[k]!;
      offsets[k] = this.offsets[k]!;
      starts[k] = this.starts[k];
    }
    let line = oldFirstLines[first]!;
    let offset = this.offsets[first]!;
    for (let j = 0; j < made.length; j++) {
      blocks[first + j] = made[j]!;
      firstLines[first + j] = line;
      offsets[first + j] = offset;
      starts[first + j] = madeStarts[j];
      line += madeStarts[j]!.length - 1;
      offset += made[j]!.length;
    }
    for (let k = first + made.length; k < count; k++) {
      blocks[k] = this.blocks[k + tail]!;
      firstLines[k] = oldFirstLines[k + tail]! + lineShift;
      offsets[k] = this.offsets[k + tail]! + charShift;
      starts[k] = this.starts[k + tail];
    }
    if (blocks.length === 0) return BlockText.of('');
    return new BlockText(blocks, offsets, this.length + charShift, { firstLines, count: this.lineCount + lineShift }, starts);
  }
}
