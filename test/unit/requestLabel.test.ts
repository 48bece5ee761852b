// A request's label (core/httpfile/requestLabel.ts), the one the panel, History, compare and the
// collection commands show: its `# @name`, else its `###` title, else its place in the file.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { parseHttpFile, requestLabel } from '../../src/core/httpfile';

void test('named, titled and unnamed requests', () => {
  const file = parseHttpFile('###\n# @name orders\nGET /orders\n\n### Lookups\nGET /lookups\n\n###\nGET /plain\n');
  assert.deepEqual([0, 1, 2].map((i) => requestLabel(file, i)), ['orders', 'Lookups', 'request 3']);
  assert.equal(requestLabel(file, 7), 'request 8', 'a place past the last request is still named by its place');
});
