// The incremental path (parse only the block under the cursor) must see exactly what the full parse sees.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { HttpDocument, HttpDocumentCache } from '../../src/server/service';
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
  void test(`blockAt on every line equals the full parse, with and without the editor's line index: ${name}`, () => {
    const full = new HttpDocument('file:///x.http', 1, text).file;
    const editor = TextDocument.create('file:///x.http', 'http', 1, text);
    for (let line = 0; line < full.lines.length; line++) {
      for (const fresh of [new HttpDocument('file:///x.http', 1, text), new HttpDocument('file:///x.http', 1, text, editor)]) {
        const expected = full.blocks.find((b) => b.firstLine <= line && line <= b.lastLine);
        assert.deepEqual(comparable(fresh.blockAt(line)), comparable(expected), `line ${line}`);
        assert.equal(fresh.lineText(line), full.lines[line]?.text, `text of line ${line}`);
        const offset = full.lines[line]?.offset ?? 0;
        assert.deepEqual(fresh.positionAt(offset), { line, character: 0 });
        assert.equal(fresh.offsetAt({ line, character: 0 }), offset);
        assert.equal(fresh.lineCount, full.lines.length);
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

void test('the editor\'s line index, kept up to date edit by edit, cuts lines as the text does; a stale one is not read', () => {
  // Hostile edits: line breaks typed into and between \r\n pairs, separators, deletions across lines.
  const pieces = ['\r', '\n', '\r\n', 'a', '###', 'b\r', '\nc', ''];
  let seed = 7;
  const random = (n: number): number => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n; };
  for (let trial = 0; trial < 300; trial++) {
    let editor = TextDocument.create('file:///e.http', 'http', 1, Array.from({ length: 6 }, () => pieces[random(pieces.length)]).join(''));
    for (let edit = 0; edit < 4; edit++) {
      const before = new HttpDocument('file:///e.http', editor.version, editor.getText(), editor);
      const expected = new HttpDocument('file:///e.http', editor.version, editor.getText());
      const length = editor.getText().length;
      const start = random(length + 1);
      const end = Math.min(length, start + random(3));
      editor = TextDocument.update(editor, [{ range: { start: editor.positionAt(start), end: editor.positionAt(end) }, text: pieces[random(pieces.length)]! + pieces[random(pieces.length)]! }], editor.version + 1);
      const text = editor.getText();
      const indexed = new HttpDocument('file:///e.http', editor.version, text, editor);
      const own = new HttpDocument('file:///e.http', editor.version, text);
      assert.equal(indexed.lineCount, own.lineCount, JSON.stringify(text));
      for (let line = 0; line < own.lineCount; line++) assert.equal(indexed.lineText(line), own.lineText(line), `${JSON.stringify(text)} line ${line}`);
      for (let offset = 0; offset <= text.length; offset++) assert.deepEqual(indexed.positionAt(offset), own.positionAt(offset));
      // The previous version's document: its editor moved on, so it reads its own text's lines.
      assert.equal(before.lineCount, expected.lineCount);
      for (let line = 0; line < expected.lineCount; line++) assert.equal(before.lineText(line), expected.lineText(line));
    }
  }
});
