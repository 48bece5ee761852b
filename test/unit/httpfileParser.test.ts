import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseHttpFile, printNormalizedHttpFile } from '../../src/core/httpfile';
import { printHttpFile, toBlockSpecs } from './httpfilePrint';
import { summarize } from './httpfileSummary';

const fixtures = join(import.meta.dirname, '../fixtures/http');
const httpFixtures = readdirSync(fixtures).filter((f) => f.endsWith('.http'));

for (const name of httpFixtures) {
  const text = readFileSync(join(fixtures, name), 'utf8');
  void test(`fixture ${name} parses to its expected structure`, () => {
    const expected: unknown = JSON.parse(readFileSync(join(fixtures, name.replace(/\.http$/, '.expected.json')), 'utf8'));
    assert.deepEqual(summarize(parseHttpFile(text)), expected);
  });
  void test(`fixture ${name} round-trips byte for byte`, () => {
    assert.equal(printHttpFile(parseHttpFile(text)), text);
  });
  void test(`fixture ${name}: the normalised form is stable and keeps the requests`, () => {
    const once = printNormalizedHttpFile(toBlockSpecs(parseHttpFile(text)));
    const twice = printNormalizedHttpFile(toBlockSpecs(parseHttpFile(once)));
    assert.equal(twice, once);
    const before = parseHttpFile(text).requests.map((r) => [r.name, r.requestLine.method, r.headers.length, r.body?.kind]);
    const after = parseHttpFile(once).requests.map((r) => [r.name, r.requestLine.method, r.headers.length, r.body?.kind]);
    assert.deepEqual(after, before);
  });
}

const edgeInputs: Record<string, string> = {
  empty: '',
  'only a newline': '\n',
  'only comments': '# one\n// two\n#three',
  'separator at EOF': 'GET https://x.test\n###',
  'separator at EOF with newline': 'GET https://x.test\n###\n',
  'only separators': '###\n###\n###',
  'CRLF throughout': 'POST https://x.test/a\r\nContent-Type: application/json\r\n\r\n{\r\n  "a": 1\r\n}\r\n',
  'lone CR line breaks': 'GET https://x.test\rAccept: */*\r',
  'mixed line breaks': 'GET https://x.test\r\n\n###\rGET https://y.test\n',
  'no trailing newline': 'GET https://x.test',
  'JSON body with blank lines': 'POST https://x.test\n\n{\n\n  "a": 1,\n\n  "b": [\n\n  ]\n}\n\n\n',
  'unterminated handler': 'GET https://x.test\n\n> {%\n client.log(1);\n',
  'unterminated variable': 'GET {{host/a\nX: {{y\n',
  'malformed header': 'GET https://x.test\nnot a header\n',
  'whitespace only lines': '   \n\t\n  ',
  'body without blank line': 'POST https://x.test\nContent-Type: application/json\n{"a":1}\n',
};

for (const [name, text] of Object.entries(edgeInputs)) {
  void test(`edge input round-trips: ${name}`, () => {
    assert.equal(printHttpFile(parseHttpFile(text)), text);
  });
}

void test('empty file: one block, no request, no diagnostic', () => {
  const file = parseHttpFile('');
  assert.equal(file.blocks.length, 1);
  assert.equal(file.requests.length, 0);
  assert.deepEqual(file.diagnostics, []);
});

void test('only comments: no request', () => {
  const file = parseHttpFile(edgeInputs['only comments'] ?? '');
  assert.equal(file.requests.length, 0);
  assert.equal(file.blocks[0]?.comments.length, 3);
});

void test('a JSON body keeps its inner blank lines and drops trailing ones', () => {
  const body = parseHttpFile(edgeInputs['JSON body with blank lines'] ?? '').requests[0]?.body;
  assert.equal(body?.kind, 'inline');
  assert.equal(body?.kind === 'inline' ? body.text : '', '{\n\n  "a": 1,\n\n  "b": [\n\n  ]\n}');
  assert.deepEqual(body?.range, { start: { line: 2, character: 0 }, end: { line: 9, character: 1 } });
});

void test('CRLF: the body text keeps CRLF inside and its offset points at the first body character', () => {
  const text = edgeInputs['CRLF throughout'] ?? '';
  const body = parseHttpFile(text).requests[0]?.body;
  assert.ok(body?.kind === 'inline');
  assert.equal(body.text, '{\r\n  "a": 1\r\n}');
  assert.equal(text.slice(body.offset, body.offset + body.text.length), body.text);
});

void test('faults become diagnostics, never exceptions', () => {
  assert.deepEqual(parseHttpFile(edgeInputs['unterminated handler'] ?? '').diagnostics.map((d) => d.code), ['unterminated-handler', 'kept-construct']);
  assert.deepEqual(parseHttpFile(edgeInputs['unterminated variable'] ?? '').diagnostics.map((d) => d.code), ['unterminated-variable', 'unterminated-variable']);
  assert.deepEqual(parseHttpFile(edgeInputs['malformed header'] ?? '').diagnostics.map((d) => d.code), ['malformed-header']);
  assert.deepEqual(parseHttpFile(edgeInputs['body without blank line'] ?? '').diagnostics.map((d) => d.code), ['missing-blank-line']);
});

void test('ranges are precise: method, url, version, header name and value, variable name', () => {
  const file = parseHttpFile('@h = x\n\nPOST  {{host}}/a?b=1  HTTP/1.1\nX-API-Key:  {{ tenant }}\n');
  const r = file.requests[0];
  assert.ok(r);
  assert.deepEqual(r.requestLine.methodRange, { start: { line: 2, character: 0 }, end: { line: 2, character: 4 } });
  assert.deepEqual(r.requestLine.urlRange, { start: { line: 2, character: 6 }, end: { line: 2, character: 20 } });
  assert.deepEqual(r.requestLine.httpVersionRange, { start: { line: 2, character: 22 }, end: { line: 2, character: 30 } });
  assert.deepEqual(r.queryParameters.map((q) => [q.name, q.value, q.valueRange.start.character]), [['b', '1', 19]]);
  const header = r.headers[0];
  assert.deepEqual([header?.nameRange.end.character, header?.valueRange.start.character, header?.value], [9, 12, '{{ tenant }}']);
  const tenant = r.references.find((v) => v.name === 'tenant');
  assert.deepEqual(tenant?.nameRange, { start: { line: 3, character: 15 }, end: { line: 3, character: 21 } });
  assert.deepEqual(file.blocks[0]?.variables[0]?.valueRange, { start: { line: 0, character: 5 }, end: { line: 0, character: 6 } });
});

void test('a bare URL is a GET; lower-case methods are accepted', () => {
  const file = parseHttpFile('https://x.test/a\n###\nget https://x.test/b\n');
  assert.deepEqual(file.requests.map((r) => [r.requestLine.method, r.requestLine.methodWritten, r.requestLine.url]), [
    ['GET', false, 'https://x.test/a'],
    ['GET', true, 'https://x.test/b'],
  ]);
});

/** The methods a request line may start with, written out here: the parser's list must hold each of them. */
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS', 'CONNECT', 'TRACE'];

void test('every method, in lower case too, is a request line\'s method (not a GET of the text)', () => {
  for (const method of METHODS) {
    const file = parseHttpFile(`${method.toLowerCase()} https://x.test/b\n`);
    assert.deepEqual(file.requests.map((r) => [r.requestLine.method, r.requestLine.methodWritten, r.requestLine.url]), [[method, true, 'https://x.test/b']], method);
  }
  // Not a method, and no URL alone: no request line at all (never a GET of the text), and said.
  const fetched = parseHttpFile('fetch https://x.test/b\n');
  assert.deepEqual([fetched.requests.length, fetched.diagnostics.map((d) => [d.code, d.range.start.line])], [0, [['unrecognised-line', 0]]], 'not a method');
});

void test('every method starts a request line swallowed into a body after a blank line (missing ###)', () => {
  for (const method of METHODS) {
    const file = parseHttpFile(`POST https://x.test/a\n\n{"a": 1}\n\n${method} https://x.test/b\n`);
    assert.deepEqual(file.diagnostics.filter((d) => d.code === 'missing-separator').map((d) => d.range.start.line), [4], method);
  }
  assert.equal(parseHttpFile('POST https://x.test/a\n\n{"a": 1}\n\nFETCH https://x.test/b\n').diagnostics.some((d) => d.code === 'missing-separator'), false);
});

void test('the @name directive wins over the ### title; both forms of comment prefix work', () => {
  const file = parseHttpFile('### Title\n// @name fromDirective\nGET https://x.test\n### Other\nGET https://y.test\n');
  assert.deepEqual(file.requests.map((r) => r.name), ['fromDirective', 'Other']);
});

void test('a ### title is the separator line after all its leading #s, trimmed', () => {
  const file = parseHttpFile('#### Four\nGET https://x.test/1\n###Tight\nGET https://x.test/2\n###   Spaced out  \nGET https://x.test/3\n###\nGET https://x.test/4\n');
  assert.deepEqual(file.blocks.map((b) => b.separator?.title), ['Four', 'Tight', 'Spaced out', '']);
  assert.deepEqual(file.requests.map((r) => r.name), ['Four', 'Tight', 'Spaced out', undefined]);
});

// Generated inputs: random line soups built from every construct, including broken ones.
const pieces = ['###', '### name', '# @name a', '// @paging page-number', '@v = {{x}}', 'GET {{h}}/p?a=1', 'POST https://x.test HTTP/1.1',
  '  &b=2', 'Content-Type: application/json', 'broken header', '', '', '{', '  "k": "{{v}}",', '}', '< ./f.json', '> {%', '%}', '> ./h.js',
  '<> r.json', '# comment', '{{unclosed', '\t', 'https://bare.test'];
const breaks = ['\n', '\r\n', '\r'];

void test('generated inputs round-trip byte for byte and never throw', () => {
  let seed = 42;
  const random = (n: number): number => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n; };
  for (let run = 0; run < 500; run++) {
    const count = random(30);
    let text = '';
    for (let i = 0; i < count; i++) text += (pieces[random(pieces.length)] ?? '') + (i < count - 1 || random(2) ? breaks[random(3)] ?? '\n' : '');
    const file = parseHttpFile(text);
    assert.equal(printHttpFile(file), text, JSON.stringify(text));
    const normalised = printNormalizedHttpFile(toBlockSpecs(file));
    assert.equal(printNormalizedHttpFile(toBlockSpecs(parseHttpFile(normalised))), normalised, JSON.stringify(text));
  }
});

void test('an inline body is its lines with the breaks between them, as written (generated inputs, every kind of break)', () => {
  let seed = 7;
  // The high bits of the generator: its low bits repeat too soon to ever put a body after a request line.
  const random = (n: number): number => { seed = (seed * 1103515245 + 12345) % 2147483648; return Math.floor(seed / 65536) % n; };
  let bodies = 0;
  for (let run = 0; run < 500; run++) {
    const count = random(30);
    let text = '';
    for (let i = 0; i < count; i++) text += (pieces[random(pieces.length)] ?? '') + (i < count - 1 || random(2) ? breaks[random(3)] ?? '\n' : '');
    const file = parseHttpFile(text);
    for (const request of file.requests) {
      const body = request.body;
      if (body?.kind !== 'inline') continue;
      bodies++;
      const lines = file.lines.slice(body.range.start.line, body.range.end.line + 1);
      const joined = lines.map((line, k) => line.text + (k < lines.length - 1 ? line.eol : '')).join('');
      assert.equal(body.text, joined, JSON.stringify(text));
      assert.equal(body.offset, lines[0]?.offset, JSON.stringify(text));
    }
  }
  assert.ok(bodies > 100, `enough bodies to mean something (${bodies})`);
});

void test('references are found on every line of a body, and only there where it holds {{', () => {
  const file = parseHttpFile('POST https://x.test\nContent-Type: application/json\n\n{\n  "a": "{{one}}",\n  "b": "{{ two }}{{three}}"\n}\n###\nPOST https://x.test\n\n{ "c": "{{open" }\n###\nPOST https://x.test\n\n{ "d": "{ {no} }", "e": "{\n{" }\n');
  assert.deepEqual(file.requests.map((r) => r.references.map((v) => [v.name, v.nameRange.start.line, v.nameRange.start.character])), [
    [['one', 4, 10], ['two', 5, 11], ['three', 5, 19]],
    [],
    [],
  ]);
  assert.deepEqual(file.diagnostics.map((d) => [d.code, d.range.start.line]), [['unterminated-variable', 10]]);
});
