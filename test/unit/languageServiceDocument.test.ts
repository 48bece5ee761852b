// The incremental path (parse only the block under the cursor) must see exactly what the full parse sees.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
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
  void test(`blockAt on every line equals the full parse: ${name}`, () => {
    const full = new HttpDocument('file:///x.http', 1, text).file;
    for (let line = 0; line < full.lines.length; line++) {
      const fresh = new HttpDocument('file:///x.http', 1, text);
      const expected = full.blocks.find((b) => b.firstLine <= line && line <= b.lastLine);
      assert.deepEqual(comparable(fresh.blockAt(line)), comparable(expected), `line ${line}`);
      assert.equal(fresh.lineText(line), full.lines[line]?.text, `text of line ${line}`);
      const offset = full.lines[line]?.offset ?? 0;
      assert.deepEqual(fresh.positionAt(offset), { line, character: 0 });
      assert.equal(fresh.offsetAt({ line, character: 0 }), offset);
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
