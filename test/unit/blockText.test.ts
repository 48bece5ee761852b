// The language server's block-kept text against the oracle of a plain string: after any sequence of
// LSP edits (typing, pasting and deleting `###` lines and line breaks, edits across blocks, \r\n and lone
// \r), its blocks are the parser's cut of the edited text (blockStartOffsets), its lines and offsets are
// vscode-languageserver-textdocument's, and untouched blocks keep their string.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { blockStartOffsets } from '../../src/core/httpfile';
import { BlockText } from '../../src/server/service/blockText';
import { BlockEntry, BlockNode, FANOUT, findBlock, splicedTree, treeOf } from '../../src/server/service/blockTree';

function cut(text: string): string[] {
  const starts = blockStartOffsets(text);
  return starts.map((s, k) => text.slice(s, k + 1 < starts.length ? starts[k + 1] : text.length));
}

function assertSame(blocks: BlockText, oracle: TextDocument, note: string): void {
  const text = oracle.getText();
  assert.deepEqual([...blocks.blocks], cut(text), `blocks: ${note}`);
  assert.equal(blocks.text, text, note);
  assert.equal(blocks.length, text.length, note);
  assert.equal(blocks.lineCount, oracle.lineCount, `line count: ${note}`);
  let line = 0;
  let offset = 0;
  for (let k = 0; k < blocks.blocks.length; k++) {
    assert.equal(blocks.firstLines[k], line, `first line of block ${k}: ${note}`);
    assert.equal(blocks.firstLineOf(k), line, `first line of block ${k}: ${note}`);
    assert.equal(blocks.offsetOf(k), offset, `offset of block ${k}: ${note}`);
    assert.equal(blocks.block(k), blocks.blocks[k], `block ${k}: ${note}`);
    line = oracle.positionAt(offset + blocks.blocks[k]!.length).line;
    offset += blocks.blocks[k]!.length;
  }
  for (let l = 0; l <= oracle.lineCount; l++) {
    for (const character of [0, 1, 3, 100]) {
      assert.equal(blocks.offsetAt({ line: l, character }), oracle.offsetAt({ line: l, character }), `offsetAt ${l}:${character}: ${note}`);
    }
  }
  for (let o = 0; o <= text.length; o++) {
    // TextDocument places an offset between \r and \n on the \r's line; no edit position falls there.
    if (text.charCodeAt(o - 1) === 13 && text.charCodeAt(o) === 10) continue;
    assert.deepEqual(blocks.positionAt(o), oracle.positionAt(o), `positionAt ${o}: ${note}`);
  }
}

const START = '@host = x\n\n### A\nGET {{host}}/a\n\n### B\r\nPOST {{host}}/b\r\n\r\n{ "a": 1 }\r\n###C\rGET /c\r### D\nGET /d';
const PIECES = ['', 'x', '#', '###', '### E\n', '\n', '\r\n', '\r', '\n###', '{ "k": 2 }\n', 'GET /z\n### F\nGET /y'];

void describe('BlockText', () => {
  void it('cuts a text as the parser does, with the lines and offsets of the LSP text document', () => {
    for (const text of ['', '###', '\n', 'GET /a', START, '### A\n### B\n### C\n', 'x\r\n###\r\n###']) {
      assertSame(BlockText.of(text), TextDocument.create('file:///t.http', 'http', 1, text), JSON.stringify(text));
    }
  });

  void it('after random edits matches a fresh cut of the edited text', () => {
    let seed = 11;
    const next = (n: number): number => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n; };
    for (let run = 0; run < 60; run++) {
      let blocks = BlockText.of(START);
      const oracle = TextDocument.create('file:///t.http', 'http', 1, START);
      for (let step = 0; step < 25; step++) {
        const length = oracle.getText().length;
        const a = next(length + 1);
        const b = Math.min(length, a + (next(3) === 0 ? next(40) : next(3)));
        const range = { start: oracle.positionAt(a), end: oracle.positionAt(b) };
        const text = PIECES[next(PIECES.length)]!;
        const note = `run ${run} step ${step}: ${JSON.stringify(oracle.getText())} [${a}, ${b}) ← ${JSON.stringify(text)}`;
        blocks = blocks.withChanges([{ range, text }]);
        TextDocument.update(oracle, [{ range, text }], oracle.version + 1);
        assertSame(blocks, oracle, note);
      }
    }
  });

  void it('keeps the strings of the blocks an edit does not touch, and replaces the whole text on a change without a range', () => {
    const text = Array.from({ length: 50 }, (_, i) => `### R${i}\nGET /r${i}\n`).join('');
    const before = BlockText.of(text);
    const after = before.withChanges([{ range: { start: { line: 41, character: 5 }, end: { line: 41, character: 5 } }, text: 'x' }]);
    const changed = after.blocks.map((b, k) => b !== before.blocks[k]).map((c, k) => (c ? k : -1)).filter((k) => k >= 0);
    assert.deepEqual(changed, [20]);
    assert.equal(after.withChanges([{ text: 'GET /only' }]).text, 'GET /only');
  });

  void it('in a file of thousands of blocks (a tree three levels deep), edits within, across and between its leaves match a fresh cut', () => {
    const big = Array.from({ length: 2_500 }, (_, i) => (i % 7 === 3 ? `### R${i}\r\nGET /r${i}\r\n\r\n` : `### R${i}\nPOST /r${i}\n\n{ "n": ${i} }\n`)).join('');
    let seed = 29;
    const next = (n: number): number => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n; };
    let blocks = BlockText.of(big);
    const oracle = TextDocument.create('file:///t.http', 'http', 1, big);
    for (let step = 0; step < 120; step++) {
      const length = oracle.getText().length;
      const a = next(length + 1);
      // One edit in four spans up to 3 000 characters: dozens of blocks, often more than one leaf.
      const b = Math.min(length, a + (next(4) === 0 ? next(3_000) : next(3)));
      const range = { start: oracle.positionAt(a), end: oracle.positionAt(b) };
      const text = PIECES[next(PIECES.length)]!;
      blocks = blocks.withChanges([{ range, text }]);
      TextDocument.update(oracle, [{ range, text }], oracle.version + 1);
      const note = `step ${step}: [${a}, ${b}) ← ${JSON.stringify(text)}`;
      const now = oracle.getText();
      const expected = cut(now);
      assert.equal(blocks.count, expected.length, `block count: ${note}`);
      assert.equal(blocks.length, now.length, note);
      assert.equal(blocks.lineCount, oracle.lineCount, `line count: ${note}`);
      // A fresh look at every block through the tree, not the list a version makes once.
      let offset = 0;
      for (let k = 0; k < expected.length; k += 1 + next(40)) {
        offset = expected.slice(0, k).reduce((n, block) => n + block.length, 0);
        assert.equal(blocks.block(k), expected[k], `block ${k}: ${note}`);
        assert.equal(blocks.offsetOf(k), offset, `offset of block ${k}: ${note}`);
        assert.equal(blocks.firstLineOf(k), oracle.positionAt(offset).line, `first line of block ${k}: ${note}`);
      }
      for (let probe = 0; probe < 40; probe++) {
        const o = next(now.length + 1);
        if (now.charCodeAt(o - 1) === 13 && now.charCodeAt(o) === 10) continue;
        const position = oracle.positionAt(o);
        assert.deepEqual(blocks.positionAt(o), position, `positionAt ${o}: ${note}`);
        assert.equal(blocks.offsetAt(position), o, `offsetAt ${JSON.stringify(position)}: ${note}`);
      }
      assert.equal(blocks.text, now, note);
    }
  });
});

void describe('the block tree', () => {
  const entries = (n: number, tag: string): BlockEntry[] => Array.from({ length: n }, (_, i) => new BlockEntry(`### ${tag}${i}\nGET /x\n`));
  /** Every node of a tree. */
  const nodesOf = (root: BlockNode): BlockNode[] => [root, ...(root.children ?? []).flatMap(nodesOf)];
  const depthOf = (root: BlockNode): number => (root.children ? 1 + depthOf(root.children[0]!) : 1);

  void it('an edit of one block makes new nodes along one path only, sharing every other node', () => {
    const before = treeOf(entries(3_000, 'b'));
    const depth = depthOf(before);
    assert.ok(depth >= 3, `three levels at least (${depth})`);
    const old = new Set(nodesOf(before));
    for (const [start, end, made] of [[1_234, 1_235, 1], [0, 1, 1], [2_999, 3_000, 1], [1_500, 1_500, 2], [700, 701, 0]] as const) {
      const after = splicedTree(before, start, end, entries(made, 'new'));
      const fresh = nodesOf(after).filter((node) => !old.has(node));
      // One node a level; a full node split in two makes one more on its level.
      assert.ok(fresh.length <= 2 * depth, `[${start}, ${end}) ← ${made}: ${fresh.length} new nodes for ${depth} levels`);
      assert.ok(fresh.every((node) => (node.entries ?? node.children!).length <= FANOUT), 'no node past FANOUT');
      assert.equal(after.count, 3_000 - (end - start) + made);
      assert.equal(findBlock(after, 'count', start).entry.text, made > 0 ? '### new0\nGET /x\n' : `### b${end}\nGET /x\n`);
      assert.equal(after.breaks, 2 * after.count);
    }
  });

  void it('blocks inserted one after another in one place split their leaf and keep every node within FANOUT', () => {
    let tree = treeOf(entries(10, 'a'));
    for (let i = 0; i < 2_000; i++) tree = splicedTree(tree, 5, 5, [new BlockEntry(`### i${i}\n`)]);
    assert.equal(tree.count, 2_010);
    assert.ok(nodesOf(tree).every((node) => (node.entries ?? node.children!).length <= FANOUT));
    assert.equal(findBlock(tree, 'count', 5).entry.text, '### i1999\n');
    assert.equal(findBlock(tree, 'count', 2_004).entry.text, '### i0\n');
    assert.ok(depthOf(tree) <= 4, `depth ${depthOf(tree)}`);
  });
});
