// Invariants (c) and (f): nothing is dropped without a word; bad input gets a clear error. A Postman item
// that holds both `item` (children) and `request` is read as a folder only: its own request is left out
// and no warning names it. An item with neither is written as a request `GET ` with no URL, again unsaid.
// Now (collect in src/core/interop/postman/importCollection.ts): an item's request is imported wherever
// it has one, beside its folder when it has children; an item with neither is said and left out; and the
// printer refuses a request line with no URL, whatever the importer hands it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseHttpFile } from '../../src/core/httpfile/parser';
import { importPostmanCollection } from '../../src/core/interop/postman/importCollection';

const SCHEMA = 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json';

void describe('Postman items that are not plainly a request or a folder', () => {
  void it('an item with a request and children: its request is imported, or said not to be', () => {
    const imported = importPostmanCollection(JSON.stringify({
      info: { name: 'c', schema: SCHEMA },
      item: [{ name: 'parent', request: { method: 'DELETE', url: 'https://api.example.com/parent' }, item: [{ name: 'child', request: { method: 'GET', url: 'https://api.example.com/child' } }] }],
    }), 'c.json');
    const urls = imported.files.flatMap((f) => parseHttpFile(f.text).requests.map((r) => r.requestLine.url));
    const said = imported.warnings.some((w) => w.includes('parent'));
    assert.ok(urls.includes('https://api.example.com/parent') || said, `requests imported: ${JSON.stringify(urls)}; warnings: ${JSON.stringify(imported.warnings)}`);
    assert.ok(urls.includes('https://api.example.com/child'), `the children are imported too: ${JSON.stringify(urls)}`);
  });

  void it('an item with no request: said, not written as a request of nothing', () => {
    const imported = importPostmanCollection(JSON.stringify({ info: { name: 'c', schema: SCHEMA }, item: [{ name: 'empty' }] }), 'c.json');
    const written = imported.files.flatMap((f) => parseHttpFile(f.text).requests.map((r) => `${r.requestLine.method} ${r.requestLine.url}`));
    const said = imported.warnings.some((w) => w.includes('empty'));
    assert.ok(said, `no word about item 'empty'; written: ${JSON.stringify(written)}`);
  });

  void it('a request with no URL: said, not written as a request line of a method alone', () => {
    const imported = importPostmanCollection(JSON.stringify({ info: { name: 'c', schema: SCHEMA }, item: [{ name: 'nowhere', request: { method: 'POST' } }] }), 'c.json');
    const written = imported.files.flatMap((f) => parseHttpFile(f.text).requests.map((r) => `${r.requestLine.method} ${r.requestLine.url}`));
    assert.deepEqual(written, []);
    assert.ok(imported.warnings.some((w) => w.startsWith('nowhere:')), `no word about item 'nowhere': ${JSON.stringify(imported.warnings)}`);
  });
});
