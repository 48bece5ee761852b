// The blocks of an open document as a persistent tree (a B-tree by position, no keys): leaves hold up
// to FANOUT blocks, inner nodes up to FANOUT children, and every node knows how many blocks, characters
// and line breaks it holds. Finding the block at an index, a line or an offset walks one path down;
// replacing a few blocks makes new nodes along that path only, every other node shared with the tree it
// came from. So an edit in a 3 000-block file copies a few dozen references (FANOUT per level, three
// levels), not the file's block lists, and the tree before the edit stays whole for whoever still reads it.
// Line breaks are counted when first asked (a file just opened is validated before anything needs its
// lines), by block, then by node, and kept.
import { lineBreaksIn, lineStartsOf } from './lineStarts';

/** Blocks in a leaf, children in an inner node: at most this many. */
export const FANOUT = 32;

/** A block: its text (each but the file's last ends with its line break), its breaks and line starts once counted. */
export class BlockEntry {
  private counted?: number;
  private lineStarts?: number[];

  constructor(readonly text: string) {}

  get breaks(): number {
    return (this.counted ??= lineBreaksIn(this.text));
  }

  /** Offsets of its lines' starts within its text. */
  get starts(): readonly number[] {
    if (!this.lineStarts) {
      this.lineStarts = lineStartsOf(this.text);
      this.counted = this.lineStarts.length - 1;
    }
    return this.lineStarts;
  }
}

/** A node: a leaf's blocks or an inner node's children (exactly one of the two), with their sums. */
export class BlockNode {
  private counted?: number;
  readonly count: number;
  readonly chars: number;

  constructor(readonly entries: readonly BlockEntry[] | undefined, readonly children: readonly BlockNode[] | undefined) {
    let count = 0;
    let chars = 0;
    if (entries) {
      count = entries.length;
      for (const entry of entries) chars += entry.text.length;
    } else {
      for (const child of children!) {
        count += child.count;
        chars += child.chars;
      }
    }
    this.count = count;
    this.chars = chars;
  }

  /** Line breaks of its blocks. */
  get breaks(): number {
    if (this.counted === undefined) {
      let breaks = 0;
      if (this.entries) for (const entry of this.entries) breaks += entry.breaks;
      else for (const child of this.children!) breaks += child.breaks;
      this.counted = breaks;
    }
    return this.counted;
  }
}

/** A block found: its index, entry, first character's offset and first line in the whole text. */
export interface FoundBlock {
  readonly index: number;
  readonly entry: BlockEntry;
  readonly offset: number;
  readonly firstLine: number;
}

/** How a walk picks the child to go down: by block index, by line, or by offset. */
type Measure = 'count' | 'breaks' | 'chars';

const nodeSize = (node: BlockNode, by: Measure): number => (by === 'breaks' ? node.breaks : by === 'chars' ? node.chars : node.count);
const entrySize = (entry: BlockEntry, by: Measure): number => (by === 'breaks' ? entry.breaks : by === 'chars' ? entry.text.length : 1);

/**
 * The block at `target` counted `by` index, line or offset: the first whose span passes `target`, else
 * the last (a line or offset past the end is the last block's). Assumes a tree of at least one block.
 */
export function findBlock(root: BlockNode, by: Measure, target: number): FoundBlock {
  let node = root;
  let index = 0;
  let offset = 0;
  let firstLine = 0;
  let rest = target;
  while (node.children) {
    const children = node.children;
    let i = 0;
    for (; i < children.length - 1; i++) {
      const child = children[i]!;
      const size = nodeSize(child, by);
      if (rest < size) break;
      rest -= size;
      index += child.count;
      offset += child.chars;
      firstLine += child.breaks;
    }
    node = children[i]!;
  }
  const entries = node.entries!;
  let i = 0;
  for (; i < entries.length - 1; i++) {
    const entry = entries[i]!;
    const size = entrySize(entry, by);
    if (rest < size) break;
    rest -= size;
    index++;
    offset += entry.text.length;
    firstLine += entry.breaks;
  }
  return { index, entry: entries[i]!, offset, firstLine };
}

/** Nodes made of `items` (blocks or nodes), as few as fit FANOUT each, of even sizes. */
function packed(items: readonly BlockEntry[] | readonly BlockNode[], leaves: boolean): BlockNode[] {
  if (items.length === 0) return [];
  const parts = Math.ceil(items.length / FANOUT);
  const nodes: BlockNode[] = [];
  for (let p = 0; p < parts; p++) {
    const slice = items.slice(Math.floor((p * items.length) / parts), Math.floor(((p + 1) * items.length) / parts));
    nodes.push(leaves ? new BlockNode(slice as BlockEntry[], undefined) : new BlockNode(undefined, slice as BlockNode[]));
  }
  return nodes;
}

/** A tree of `entries` (at least one). */
export function treeOf(entries: readonly BlockEntry[]): BlockNode {
  let level = packed(entries, true);
  while (level.length > 1) level = packed(level, false);
  return level[0] ?? new BlockNode([], undefined);
}

/** The nodes that take `node`'s place once its blocks start..end (exclusive) are replaced by `items`. */
function splicedNode(node: BlockNode, start: number, end: number, items: readonly BlockEntry[]): BlockNode[] {
  if (node.entries) return packed([...node.entries.slice(0, start), ...items, ...node.entries.slice(end)], true);
  const children = node.children!;
  // The children the range touches: from the one holding `start` (an insertion at a child's end goes in
  // it) to the one holding the range's last block.
  let i = 0;
  let before = 0;
  while (i < children.length - 1 && start > before + children[i]!.count - (start === end ? 0 : 1)) before += children[i++]!.count;
  let j = i;
  let beforeJ = before;
  while (j < children.length - 1 && end > beforeJ + children[j]!.count) beforeJ += children[j++]!.count;
  const made = i === j
    ? splicedNode(children[i]!, start - before, end - before, items)
    : [...splicedNode(children[i]!, start - before, children[i]!.count, items), ...splicedNode(children[j]!, 0, end - beforeJ, [])];
  return packed([...children.slice(0, i), ...made, ...children.slice(j + 1)], false);
}

/** The tree with blocks start..end (exclusive) replaced by `items`: new nodes along the path, the rest shared. */
export function splicedTree(root: BlockNode, start: number, end: number, items: readonly BlockEntry[]): BlockNode {
  let level = splicedNode(root, start, end, items);
  while (level.length > 1) level = packed(level, false);
  let top = level[0] ?? new BlockNode([], undefined);
  // A root left with one child (blocks removed) gives way to it.
  while (top.children?.length === 1) top = top.children[0]!;
  return top;
}

/** Every block in order. */
export function entriesOf(root: BlockNode): BlockEntry[] {
  const entries: BlockEntry[] = [];
  const walk = (node: BlockNode): void => {
    if (node.entries) for (const entry of node.entries) entries.push(entry);
    else for (const child of node.children!) walk(child);
  };
  walk(root);
  return entries;
}
