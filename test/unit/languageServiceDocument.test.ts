// The incremental path (parse only the block under the cursor) must see exactly what the full parse sees.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { HttpDocument, HttpDocumentCache } from '../../src/server/service';
import { BlockMemo } from '../../src/server/service/document';
import { BlockText } from '../../src/server/service/blockText';
import { buildLargeHttpFile } from '../../bench/completion/workload';

const fixtures = join(import.meta.dirname, '../fixtures/http');
const texts: Record<string, string> = {
  ...Object.fromEntries(readdirSync(fixtures).filter((f) => f.endsWith('.http')).map((f) => [f, readFileSync(join(fixtures, f), 'utf8')])),
  'generated 600 lines': buildLargeHttpFile(600),
  'CRLF and lone CR': 'GET https://a.test\r\nX: 1\r\n\r\n{"a":1}\r\n###\rPOST https://b.test\r\r{}\r',
  empty: '',
};

/** A block without its request index (the block-only parse cannot know how many requests came before). */
function comparable(block: unknown): unknown {
  return JSON.parse(JSON.stringify(block, (key, value: unknown) => (key === 'index' ? undefined : value))) as unknown;
}

for (const [name, text] of Object.entries(texts)) {
  void test(`blockAt on every line equals the full parse, given whole and kept as blocks: ${name}`, () => {
    const full = new HttpDocument('file:///x.http', 1, text).file;
    for (let line = 0; line < full.lines.length; line++) {
      for (const fresh of [new HttpDocument('file:///x.http', 1, text), new HttpDocument('file:///x.http', 1, BlockText.of(text), new BlockMemo())]) {
        const expected = full.blocks.find((b) => b.firstLine <= line && line <= b.lastLine);
        assert.deepEqual(comparable(fresh.blockAt(line)), comparable(expected), `line ${line}`);
        assert.equal(fresh.lineText(line), full.lines[line]?.text, `text of line ${line}`);
        const offset = full.lines[line]?.offset ?? 0;
        assert.deepEqual(fresh.positionAt(offset), { line, character: 0 });
        assert.equal(fresh.offsetAt({ line, character: 0 }), offset);
        assert.equal(fresh.lineCount, full.lines.length);
        assert.deepEqual(fresh.fileVariableNames, new HttpDocument('file:///x.http', 1, text).fileVariableNames);
        assert.deepEqual(fresh.requestNames(), new HttpDocument('file:///x.http', 1, text).requestNames());
      }
    }
  });
}

void test('the cache keeps one parse per version and drops closed documents', () => {
  const cache = new HttpDocumentCache();
  let reads = 0;
  const read = (): string => { reads++; return 'GET https://a.test'; };
  const first = cache.get('u', 1, read);
  assert.equal(cache.get('u', 1, read), first);
  assert.notEqual(cache.get('u', 2, read), first);
  cache.delete('u');
  cache.get('u', 2, read);
  assert.equal(reads, 3);
});

void test('a document kept as blocks, edited edit by edit, reads as the edited text given whole (lines, offsets, blocks, names)', () => {
  // Hostile edits: line breaks typed into and between \r\n pairs, separators, deletions across lines.
  const pieces = ['\r', '\n', '\r\n', 'a', '###', 'b\r', '\nc', '', '@v = 1\n', '# @name n\n', 'GET /x\n\n{"a": 1}\n'];
  let seed = 7;
  const random = (n: number): number => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n; };
  const memo = new BlockMemo();
  for (let trial = 0; trial < 300; trial++) {
    let editor = TextDocument.create('file:///e.http', 'http', 1, Array.from({ length: 6 }, () => pieces[random(pieces.length)]).join(''));
    let blocks = BlockText.of(editor.getText());
    for (let edit = 0; edit < 4; edit++) {
      const before = new HttpDocument('file:///e.http', editor.version, blocks, memo);
      const expected = new HttpDocument('file:///e.http', editor.version, editor.getText());
      const length = editor.getText().length;
      const start = random(length + 1);
      const end = Math.min(length, start + random(3));
      const change = { range: { start: editor.positionAt(start), end: editor.positionAt(end) }, text: pieces[random(pieces.length)]! + pieces[random(pieces.length)]! };
      editor = TextDocument.update(editor, [change], editor.version + 1);
      blocks = blocks.withChanges([change]);
      const text = editor.getText();
      const kept = new HttpDocument('file:///e.http', editor.version, blocks, memo);
      const own = new HttpDocument('file:///e.http', editor.version, text);
      assert.equal(kept.text, text);
      assert.equal(kept.lineCount, own.lineCount, JSON.stringify(text));
      for (let line = 0; line < own.lineCount; line++) {
        assert.equal(kept.lineText(line), own.lineText(line), `${JSON.stringify(text)} line ${line}`);
        assert.deepEqual(comparable(kept.blockAt(line)), comparable(own.blockAt(line)), `${JSON.stringify(text)} block at line ${line}`);
      }
      for (let offset = 0; offset <= text.length; offset++) assert.deepEqual(kept.positionAt(offset), own.positionAt(offset));
      assert.deepEqual(kept.fileVariableNames, own.fileVariableNames);
      assert.deepEqual(kept.requestNames(), own.requestNames());
      // The previous version's document still reads its own text.
      assert.equal(before.lineCount, expected.lineCount);
      for (let line = 0; line < expected.lineCount; line++) assert.equal(before.lineText(line), expected.lineText(line));
    }
  }
});
