import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseHttpFile, resolveRequest } from '../../src/core/httpfile';
import { evaluateJsonPath } from '../../src/core/httpfile/jsonPathLite';
import { fileVariablesFor, resolveVariables, type NamedResponse } from '../../src/core/httpfile/resolve';
import { fileVariablesByScan, referenceNames, requestAt } from '../../src/core/httpfile/resolve';
import { braceHeavyTexts, REFERENCE_EXPRESSION } from './braceTexts';

const login: NamedResponse = {
  status: 200,
  headers: { 'Content-Type': 'application/json', 'X-Request-Id': 'r-1' },
  bodyText: JSON.stringify({ access_token: 'tok', token_type: 'bearer', nested: { list: [{ id: 7 }] } }),
  origin: 'http://login.test',
};
const responses = new Map([['login', login]]);

void test('environment and file variables, file variables win and may reference others', () => {
  const result = resolveVariables('{{base}}/a/{{id}}', { environment: { base: 'http://env', id: '1' }, fileVariables: { base: '{{root}}/v1', root: 'http://file' } });
  assert.equal(result.text, 'http://file/v1/a/1');
  assert.deepEqual(result.unresolved, []);
});

void test('undefined variables stay as written and are reported once', () => {
  const result = resolveVariables('{{missing}} and {{ missing }}', { environment: {} });
  assert.equal(result.text, '{{missing}} and {{ missing }}');
  assert.deepEqual(result.unresolved.map((u) => [u.name, u.reason]), [['missing', 'undefined']]);
});

void test('a cycle is reported, not looped', () => {
  const result = resolveVariables('{{a}}', { fileVariables: { a: '{{b}}', b: '{{a}}' } });
  assert.ok(result.unresolved.some((u) => u.reason === 'cycle'));
});

void test('named responses: JSONPath-lite body values and case-insensitive headers', () => {
  const scope = { responses };
  assert.equal(resolveVariables('{{login.response.body.$.access_token}}', scope).text, 'tok');
  assert.equal(resolveVariables('{{login.response.body.$.nested.list[0].id}}', scope).text, '7');
  assert.equal(resolveVariables("{{login.response.body.$['token_type']}}", scope).text, 'bearer');
  assert.equal(resolveVariables('{{login.response.body.nested}}', scope).text, '{"list":[{"id":7}]}');
  assert.equal(resolveVariables('{{login.response.headers.x-request-id}}', scope).text, 'r-1');
});

void test('named responses: not sent yet, missing path, unsupported JSONPath, non-JSON body', () => {
  const reasons = (text: string, extra?: Map<string, NamedResponse>): string[] =>
    resolveVariables(text, { responses: extra ?? responses }).unresolved.map((u) => u.reason);
  assert.deepEqual(reasons('{{other.response.body.$.x}}'), ['no-response']);
  assert.deepEqual(reasons('{{login.response.body.$.nope}}'), ['not-found']);
  assert.deepEqual(reasons('{{login.response.body.$..id}}'), ['unsupported']);
  assert.deepEqual(reasons('{{login.response.headers.Nope}}'), ['not-found']);
  assert.deepEqual(reasons('{{t.response.body.$.a}}', new Map([['t', { ...login, bodyText: '<html>' }]])), ['not-found']);
});

void test('dynamic variables go to the port with their arguments', () => {
  const calls: string[] = [];
  const dynamic = { resolve: (name: string, args: string) => { calls.push(`${name}|${args}`); return name === '$auth.token' ? 'secret-token' : undefined; } };
  const result = resolveVariables('Bearer {{$auth.token("engagement")}} {{$uuid}}', { dynamic });
  assert.equal(result.text, 'Bearer secret-token {{$uuid}}');
  assert.deepEqual(calls, ['$auth.token|("engagement")', '$uuid|']);
  assert.deepEqual(result.unresolved.map((u) => u.reason), ['dynamic']);
  assert.deepEqual(resolveVariables('{{$uuid}}', {}).unresolved.map((u) => u.reason), ['dynamic']);
});

void test('resolveRequest: URL with continuation lines, headers, body, directives, include', () => {
  const file = parseHttpFile([
    '@size = 100',
    '# @name orders',
    '# @paging page-number',
    'GET {{base}}/api/Transaction/GetOrdersByCustomer',
    '  ?ctcID=5',
    '  &pageSize={{size}}',
    'Authorization: Bearer {{login.response.body.$.access_token}}',
    '###',
    '@size = 7',
    'POST {{base}}/x',
    '',
    '<@ ./body.json',
  ].join('\n'));
  const first = resolveRequest(file, 0, { environment: { base: 'http://h' }, responses });
  assert.deepEqual(first && { ...first }, {
    method: 'GET',
    url: 'http://h/api/Transaction/GetOrdersByCustomer?ctcID=5&pageSize=100',
    headers: { Authorization: 'Bearer tok' },
    body: undefined,
    bodyInclude: undefined,
    directives: { name: 'orders', paging: 'page-number' },
    name: 'orders',
    unresolved: [],
  });
  const second = resolveRequest(file, 1, { environment: {} });
  assert.equal(second?.url, '{{base}}/x');
  assert.deepEqual(second?.bodyInclude, { path: './body.json', substituteVariables: true });
  assert.deepEqual(second?.unresolved.map((u) => u.name), ['base']);
  assert.equal(resolveRequest(file, 5, {}), undefined);
});

void test('evaluateJsonPath handles roots and indexes', () => {
  assert.deepEqual(evaluateJsonPath([1, 2], '$[1]'), { found: true, value: 2 });
  assert.deepEqual(evaluateJsonPath({ a: null }, '$.a'), { found: true, value: null });
  assert.deepEqual(evaluateJsonPath({}, '$[0]'), { found: false, reason: 'not-found' });
});

void test('fileVariablesFor (indexed once per file) answers exactly as the block scan, for every request index, hostile ones too', () => {
  const text = [
    '@base = http://one', '@token = t0',
    'GET {{base}}/a', '',
    '### second', '@base = http://two', 'GET {{base}}/b', '@late = after the request line', '',
    '### no request here', '@orphan = {{base}}', '',
    '### third', '# @name third', 'POST {{base}}/c', 'Content-Type: application/json', '', '{"a": "{{token}}"}', '',
    '###', '@base = http://last', '@token = t3',
  ].join('\n');
  const files = [parseHttpFile(text), parseHttpFile(''), parseHttpFile('@only = x\n'), parseHttpFile('GET http://x\n')];
  for (const file of files) {
    for (const index of [-Infinity, -1, 0, 0.5, 1, 1.5, 2, 3, 4, 99, Infinity, NaN]) {
      assert.deepEqual(fileVariablesFor(file, index), fileVariablesByScan(file, index), `request index ${index}`);
      const scanned = file.blocks.find((b) => b.request?.index === index);
      assert.equal(requestAt(file, index)?.block, scanned, `block of request ${index}`);
    }
  }
  const [file] = files;
  assert.deepEqual(fileVariablesFor(file!, 1), { base: 'http://two', token: 't0' });
  assert.equal(resolveRequest(file!, 2, {})?.url, 'http://two/c');
  // A file whose requests are not numbered 0, 1, 2… in block order (not the parser's) is scanned, not indexed.
  const renumbered = { ...file!, blocks: file!.blocks.map((b) => (b.request ? { ...b, request: { ...b.request, index: b.request.index + 10 } } : b)) };
  for (const index of [0, 10, 11, 12, 13]) {
    assert.deepEqual(fileVariablesFor(renumbered, index), fileVariablesByScan(renumbered, index), `renumbered ${index}`);
    assert.equal(requestAt(renumbered, index)?.block, renumbered.blocks.find((b) => b.request?.index === index));
  }
});

void test('substitution replaces exactly the spans /\\{\\{\\s*([^{}]*?)\\s*\\}\\}/g finds, on brace-heavy random texts', () => {
  // resolveVariables walks references with the vocabulary's nextReference (test/unit/secretVocabulary.test.ts
  // holds it to the same expression); substitution must replace those spans and nothing else.
  const environment: Record<string, string> = { a: 'A', b: 'B', 'a a': 'AA', '': 'EMPTY' };
  for (const text of braceHeavyTexts(5000, 7)) {
    assert.deepEqual(referenceNames(text), Array.from(text.matchAll(REFERENCE_EXPRESSION), (m) => m[1]!), JSON.stringify(text));
    const substituted = text.replace(REFERENCE_EXPRESSION, (whole, name: string) => environment[name] ?? whole);
    assert.equal(resolveVariables(text, { environment }).text, substituted, JSON.stringify(text));
  }
});
