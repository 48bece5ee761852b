// The language server's block-kept text against the oracle of a plain string: after any sequence of
// LSP edits (typing, pasting and deleting `###` lines and line breaks, edits across blocks, \r\n and lone
// \r), its blocks are the parser's cut of the edited text (blockStartOffsets), its lines and offsets are
// vscode-languageserver-textdocument's, and untouched blocks keep their string.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { blockStartOffsets } from '../../src/core/httpfile';
import { BlockText } from '../../src/server/service/blockText';

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
    assert.equal(blocks.offsets[k], offset, `offset of block ${k}: ${note}`);
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
});
