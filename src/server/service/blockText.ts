// An open document's text kept as its request blocks (the parser's cut: a block begins at the file's
// start and at every line that begins with `###`, blockStartOffsets), so that an edit costs what it
// touches: applying a change re-cuts only the blocks the change's range touches (and the one before,
// when the change starts on a block's first line, whose `###` it may remove), and every other block
// keeps its string. No whole-file string is made per version; `text` joins the blocks only when asked
// (the full parse for the outline). The blocks are a persistent tree (blockTree.ts): an edit makes new
// nodes along one path and shares every other node, so it copies no list as long as the file's blocks.
// A BlockText is immutable: an edit returns a new one, so a validation pass still running over an older
// version reads its own.
// Positions are the LSP's: lines cut at \n, \r\n and a lone \r, characters in UTF-16 code units.
import { blockStartOffsets, type Position, type SourceLine } from '../../core/httpfile';
import { BlockEntry, findBlock, splicedTree, entriesOf, treeOf, type BlockNode, type FoundBlock } from './blockTree';

export { lineStartsOf } from './lineStarts';

/** A change as LSP sends it: a range replaced by a text, or (no range) the whole text replaced. */
export interface TextChange {
  readonly range?: { readonly start: Position; readonly end: Position };
  readonly text: string;
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
  private joined?: string;
  private listed?: readonly string[];
  private lines?: readonly number[];
  /** The block found last: a look-up of each line of one block (a parse of the block under the cursor) walks the tree once. */
  private found?: FoundBlock;

  private constructor(private readonly root: BlockNode) {}

  /**
   * A text cut into its blocks. Their lines are counted when first asked: validating a file that has
   * just opened needs none, so its first slice does not wait for a scan of the whole file.
   */
  static of(text: string): BlockText {
    const cuts = blockStartOffsets(text);
    const entries = new Array<BlockEntry>(cuts.length);
    const blocks = new Array<string>(cuts.length);
    for (let k = 0; k < cuts.length; k++) entries[k] = new BlockEntry((blocks[k] = text.slice(cuts[k], k + 1 < cuts.length ? cuts[k + 1] : text.length)));
    const made = new BlockText(treeOf(entries));
    made.joined = text;
    made.listed = blocks;
    return made;
  }

  /** How many blocks. */
  get count(): number {
    return this.root.count;
  }

  get length(): number {
    return this.root.chars;
  }

  get lineCount(): number {
    return this.root.breaks + 1;
  }

  /** Block `k`'s text. */
  block(k: number): string {
    return this.listed?.[k] ?? this.at(k).entry.text;
  }

  /** Every block's text, in order: made once per version, for the passes over every block (validation, the outline's names). */
  get blocks(): readonly string[] {
    return (this.listed ??= entriesOf(this.root).map((entry) => entry.text));
  }

  /** Every block's first line, in order: made once per version, for the passes over every block (the outline). */
  get firstLines(): readonly number[] {
    if (!this.lines) {
      const entries = entriesOf(this.root);
      const lines = new Array<number>(entries.length);
      let line = 0;
      for (let k = 0; k < entries.length; k++) {
        lines[k] = line;
        line += entries[k]!.breaks;
      }
      this.lines = lines;
    }
    return this.lines;
  }

  /** Block `k`'s first character's offset in the whole text. */
  offsetOf(k: number): number {
    return this.at(k).offset;
  }

  /** Block `k`'s first line. */
  firstLineOf(k: number): number {
    return this.at(k).firstLine;
  }

  private at(k: number): FoundBlock {
    if (this.found?.index === k) return this.found;
    return (this.found = findBlock(this.root, 'count', k));
  }

  /** The whole text (joined once per version, when asked). */
  get text(): string {
    return (this.joined ??= this.count === 1 ? this.block(0) : this.blocks.join(''));
  }

  /** The block holding `line` (clamped to the document). */
  blockOf(line: number): number {
    return this.holding(line).index;
  }

  private holding(line: number): FoundBlock {
    const found = this.found;
    if (found && line >= found.firstLine && (line < found.firstLine + found.entry.breaks || found.index === this.count - 1)) return found;
    return (this.found = findBlock(this.root, 'breaks', Math.max(0, line)));
  }

  /** Line starts of block `k`, offsets within its text. */
  lineStartsIn(k: number): readonly number[] {
    return this.at(k).entry.starts;
  }

  /** Block `k`'s last line (a block other than the file's last ends with a break: the line after it is the next block's). */
  lastLineOf(k: number): number {
    const found = this.at(k);
    return found.firstLine + found.entry.breaks - (k + 1 < this.count ? 1 : 0);
  }

  /** Line `line` with its break, its offset counted from its block's start; undefined past the end. */
  sourceLineInBlock(line: number): SourceLine | undefined {
    if (line < 0 || line >= this.lineCount) return undefined;
    const { entry, firstLine } = this.holding(line);
    const text = entry.text;
    const starts = entry.starts;
    const i = line - firstLine;
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
    const { entry, firstLine, offset } = this.holding(line);
    const starts = entry.starts;
    const i = line - firstLine;
    const start = starts[i]!;
    const text = entry.text;
    const next = starts[i + 1];
    let end = next ?? text.length;
    if (next !== undefined) end -= next >= 2 && text.charCodeAt(next - 1) === 10 && text.charCodeAt(next - 2) === 13 ? 2 : 1;
    return offset + start + Math.max(0, Math.min(position.character, end - start));
  }

  positionAt(offset: number): Position {
    const at = Math.max(0, Math.min(offset, this.length));
    const { entry, offset: blockOffset, firstLine } = findBlock(this.root, 'chars', at);
    const starts = entry.starts;
    const i = lastAtMost(starts, at - blockOffset);
    return { line: firstLine + i, character: at - blockOffset - starts[i]! };
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
    let first = findBlock(this.root, 'chars', from);
    if (first.index > 0 && from - first.offset <= lineEnd(first.entry, 0)) first = this.at(first.index - 1);
    // The last block touched: the one holding `to` (a change ending at a block's very start touches it).
    let last = findBlock(this.root, 'chars', to);
    const pieces = [first.entry.text];
    for (let k = first.index + 1; k <= last.index; k++) pieces.push(this.block(k));
    for (;;) {
      const old = pieces.join('');
      const region = old.slice(0, from - first.offset) + text + old.slice(to - first.offset);
      // The block after the region begins with `###` only after a line break: if the region no longer
      // ends with one, that block joins it.
      const tail = region.charCodeAt(region.length - 1);
      if (last.index + 1 < this.count && region.length > 0 && tail !== 10 && tail !== 13) {
        last = this.at(last.index + 1);
        pieces.push(last.entry.text);
        continue;
      }
      return this.spliced(first.index, last.index, region);
    }
  }

  /** Blocks first..last replaced by the blocks `region` cuts into. */
  private spliced(first: number, last: number, region: string): BlockText {
    const cuts = region.length === 0 ? [] : blockStartOffsets(region);
    const made = cuts.map((s, j) => new BlockEntry(region.slice(s, j + 1 < cuts.length ? cuts[j + 1] : region.length)));
    const root = splicedTree(this.root, first, last + 1, made);
    return root.count === 0 ? BlockText.of('') : new BlockText(root);
  }
}

/** The end (offset in its block) of a block's line i, before its break. */
function lineEnd(entry: BlockEntry, i: number): number {
  const next = entry.starts[i + 1];
  return next === undefined ? entry.text.length : next - 1;
}
