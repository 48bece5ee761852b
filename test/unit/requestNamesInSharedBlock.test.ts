// A `###` block may hold more than one request (a request line right after another, as httpYac reads
// it; the parser makes each its own request with its own `# @name`). Every one of those names is a request
// named before what follows it: a later reference to it is no undefined variable.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseHttpFile } from '../../src/core/httpfile';
import { createHttpLanguageService, HttpDocument } from '../../src/server/service';

const TEXT = [
  '### A',
  '# @name first',
  'GET {{base}}/a',
  '# @name second',
  'GET {{base}}/b?x={{first.response.body.$.id}}',
  '',
  '### C',
  'GET {{base}}/c?y={{second.response.body.$.id}}',
  '',
].join('\n');

void test('the second request of a ### block is named for what follows, and may use the first', () => {
  // The parser reads three requests, named first, second and C.
  assert.deepEqual(parseHttpFile(TEXT).requests.map((r) => r.name), ['first', 'second', 'C']);
  const service = createHttpLanguageService();
  service.setEnvironmentVariables(['base']);
  const undefinedNames = service.doValidate(new HttpDocument('file:///t.http', 1, TEXT))
    .filter((d) => d.code === 'undefined-variable')
    .map((d) => `${d.range.start.line}: ${d.message}`);
  assert.deepEqual(undefinedNames, [], 'both references name a request written above them');
});

void test('a third request of the block may use the second; a request named below, or the request itself, is no request before', () => {
  const text = [
    '### A',
    '# @name first',
    'GET {{base}}/a?x={{second.response.body.$.id}}&y={{first.response.body.$.id}}',
    '# @name second',
    'GET {{base}}/b',
    '# @name third',
    'GET {{base}}/c?z={{second.response.body.$.id}}',
    '',
  ].join('\n');
  const service = createHttpLanguageService();
  service.setEnvironmentVariables(['base']);
  const warned = service.doValidate(new HttpDocument('file:///u.http', 1, text))
    .filter((d) => d.code === 'undefined-variable')
    .map((d) => `${d.range.start.line}: ${d.message}`);
  assert.deepEqual(warned, [
    "2: No request named 'second' comes before this one (# @name second).",
    "2: No request named 'first' comes before this one (# @name first).",
  ]);
});
