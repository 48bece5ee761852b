// The Raw JSON view's colouring (src/webview/jsonTokens.ts): every character of the body is in exactly one
// run, in order (the text shown is the body, whatever it holds), and keys, strings, numbers, booleans and
// null get their kinds; text past the limit stays one plain run.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { jsonRuns, MAX_HIGHLIGHTED } from '../../src/webview/jsonTokens';

void test('runs rebuild the body exactly and name each token', () => {
  const body = JSON.stringify({ id: 'BK-1', nights: 3, rate: -1.5e2, ok: true, none: null, note: 'say "true" : 1', list: [1, 'a'] }, null, 2);
  const runs = jsonRuns(body);
  assert.equal(runs.map((r) => r.text).join(''), body);
  const kinds = runs.filter((r) => r.kind).map((r) => `${r.kind}:${r.text}`);
  assert.deepEqual(kinds, ['key:"id"', 'string:"BK-1"', 'key:"nights"', 'number:3', 'key:"rate"', 'number:-150', 'key:"ok"', 'boolean:true', 'key:"none"', 'null:null',
    'key:"note"', 'string:"say \\"true\\" : 1"', 'key:"list"', 'number:1', 'string:"a"']);
});

void test('text that is not JSON is kept whole; a huge body is one plain run', () => {
  const text = '<html>not json</html>';
  assert.equal(jsonRuns(text).map((r) => r.text).join(''), text);
  const huge = 'x'.repeat(MAX_HIGHLIGHTED + 1);
  assert.deepEqual(jsonRuns(huge), [{ text: huge }]);
});
