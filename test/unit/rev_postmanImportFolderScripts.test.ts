// Invariant C (import): nothing of another tool's file is dropped without a word. The Postman import
// (src/core/interop/postman/importCollection.ts collect) says a request's scripts are not imported, but a
// folder's or the collection's own scripts (`event` beside `item`: a prerequest script that sets a
// header or a variable for every request under it) are dropped unsaid.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { importPostmanCollection } from '../../src/core/interop/postman/importCollection';

const SCHEMA = 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json';
const script = (line: string): unknown[] => [{ listen: 'prerequest', script: { type: 'text/javascript', exec: [line] } }];
const request = { name: 'list', request: { method: 'GET', url: 'http://a.test/items' } };

void describe('Postman import: scripts above the requests are said', () => {
  void it('a folder\'s prerequest script: a warning', () => {
    const text = JSON.stringify({ info: { name: 'c', schema: SCHEMA }, item: [{ name: 'F', event: script('pm.request.headers.add({key: "X-Tenant", value: "t1"});'), item: [request] }] });
    const imported = importPostmanCollection(text, 'c.json');
    assert.equal(imported.files.length, 1);
    assert.ok(imported.warnings.some((w) => /script/i.test(w)), `warnings: ${JSON.stringify(imported.warnings)}`);
  });
  void it('the collection\'s prerequest script: a warning', () => {
    const text = JSON.stringify({ info: { name: 'c', schema: SCHEMA }, event: script('pm.variables.set("id", "7");'), item: [request] });
    const imported = importPostmanCollection(text, 'c.json');
    assert.equal(imported.files.length, 1);
    assert.ok(imported.warnings.some((w) => /script/i.test(w)), `warnings: ${JSON.stringify(imported.warnings)}`);
  });
});
