// Rule: the Postman import drops no script without a word, whatever level it is on. An `event` (a
// prerequest or test script) on a request, on a folder (it runs for every request under it) or on the
// collection root is not imported, and one warning names where it was and how many
// (src/core/interop/postman/importCollection.ts sayScripts).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { importPostmanCollection } from '../../src/core/interop/postman/importCollection';

const SCHEMA = 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json';
const script = (line: string): unknown[] => [{ listen: 'prerequest', script: { type: 'text/javascript', exec: [line] } }];
const request = { name: 'list', request: { method: 'GET', url: 'http://a.test/items' } };

void describe('Postman import: a script on any level is said', () => {
  void it('a folder\'s prerequest script: a warning', () => {
    const text = JSON.stringify({ info: { name: 'c', schema: SCHEMA }, item: [{ name: 'F', event: script('pm.request.headers.add({key: "X-Tenant", value: "t1"});'), item: [request] }] });
    const imported = importPostmanCollection(text, 'c.json');
    assert.equal(imported.files.length, 1);
    assert.ok(imported.warnings.some((w) => /^folder F: 1 script\(s\) not imported/.test(w)), `warnings: ${JSON.stringify(imported.warnings)}`);
  });
  void it('the collection\'s prerequest script: a warning', () => {
    const text = JSON.stringify({ info: { name: 'c', schema: SCHEMA }, event: script('pm.variables.set("id", "7");'), item: [request] });
    const imported = importPostmanCollection(text, 'c.json');
    assert.equal(imported.files.length, 1);
    assert.ok(imported.warnings.some((w) => /^the collection: 1 script\(s\) not imported/.test(w)), `warnings: ${JSON.stringify(imported.warnings)}`);
  });
  void it('a request\'s own script: a warning naming the request', () => {
    const text = JSON.stringify({ info: { name: 'c', schema: SCHEMA }, item: [{ ...request, event: script('pm.test("ok", () => {});') }] });
    const imported = importPostmanCollection(text, 'c.json');
    assert.ok(imported.warnings.some((w) => /^list: 1 script\(s\) not imported/.test(w)), `warnings: ${JSON.stringify(imported.warnings)}`);
  });
  void it('no script, an empty event list: no warning', () => {
    const text = JSON.stringify({ info: { name: 'c', schema: SCHEMA }, event: [], item: [{ name: 'F', event: [], item: [request] }] });
    assert.deepEqual(importPostmanCollection(text, 'c.json').warnings, []);
  });
});
