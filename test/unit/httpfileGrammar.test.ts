// The TextMate grammar tokenised by the engine VS Code uses (vscode-textmate + oniguruma).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { loadWASM, OnigScanner, OnigString } from 'vscode-oniguruma';
import { INITIAL, parseRawGrammar, Registry, type IGrammar } from 'vscode-textmate';

const root = join(import.meta.dirname, '../..');
let grammar: IGrammar;

before(async () => {
  const wasm = readFileSync(createRequire(import.meta.url).resolve('vscode-oniguruma/release/onig.wasm'));
  await loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength));
  const registry = new Registry({
    onigLib: Promise.resolve({ createOnigScanner: (patterns: string[]) => new OnigScanner(patterns), createOnigString: (s: string) => new OnigString(s) }),
    // Only our grammar: the embedded source.json / source.js are the editor's and are skipped here.
    loadGrammar: (scopeName: string) => Promise.resolve(scopeName === 'source.http'
      ? parseRawGrammar(readFileSync(join(root, 'syntaxes/http.tmLanguage.json'), 'utf8'), 'http.tmLanguage.json')
      : null),
  });
  const loaded = await registry.loadGrammar('source.http');
  assert.ok(loaded);
  grammar = loaded;
});

/** Each line's tokens as `text => innermost scope`, whitespace-only tokens left out. */
function tokenize(text: string): Array<Array<[string, string]>> {
  let state = INITIAL;
  return text.split('\n').map((line) => {
    const result = grammar.tokenizeLine(line, state);
    state = result.ruleStack;
    return result.tokens
      .map((t): [string, string] => [line.slice(t.startIndex, t.endIndex), t.scopes.at(-1) ?? ''])
      .filter(([s]) => s.trim() !== '');
  });
}

function scopeOf(lines: Array<Array<[string, string]>>, line: number, text: string): string | undefined {
  return lines[line]?.find(([t]) => t.trim() === text.trim())?.[1];
}

const sample = [
  '@size = 100', // 0
  '### Orders', // 1
  '# @name orders', // 2
  'GET {{engagement_base_url}}/api/Transaction/GetOrdersByCustomer?ctcID=7 HTTP/1.1', // 3
  '  &pageSize={{size}}', // 4
  'Authorization: Bearer {{$auth.token("engagement")}}', // 5
  '', // 6
  '###', // 7
  '// a comment', // 8
  'POST {{engagement_base_url}}/api/SurveyApi/AddChoiceQuestion', // 9
  'Content-Type: application/json', // 10
  '', // 11
  '{', // 12
  '  "OpCode": {{opCode}}', // 13
  '}', // 14
  '', // 15
  '> {%', // 16
  '  client.log(1);', // 17
  '%}', // 18
  '###', // 19
  'POST {{fundraising_base_url}}/v1/transactions', // 20
  '', // 21
  '< ./payment.json', // 22
].join('\n');

void test('grammar: request line, query, version, variables', () => {
  const t = tokenize(sample);
  assert.equal(scopeOf(t, 3, 'GET'), 'keyword.control.http-method.http');
  assert.equal(scopeOf(t, 3, 'engagement_base_url'), 'variable.other.http');
  assert.equal(scopeOf(t, 3, 'ctcID'), 'variable.parameter.query.http');
  assert.equal(scopeOf(t, 3, 'HTTP/1.1'), 'constant.language.http-version.http');
  assert.equal(scopeOf(t, 4, 'pageSize'), 'variable.parameter.query.http');
  assert.equal(scopeOf(t, 4, 'size'), 'variable.other.http');
});

void test('grammar: separators, directives, comments, file variables', () => {
  const t = tokenize(sample);
  assert.equal(scopeOf(t, 1, '###'), 'punctuation.separator.request.http');
  assert.equal(scopeOf(t, 1, ' Orders'), 'entity.name.section.request.http');
  assert.equal(scopeOf(t, 2, 'name'), 'keyword.other.directive.http');
  assert.equal(scopeOf(t, 2, 'orders'), 'string.unquoted.directive-value.http');
  assert.equal(scopeOf(t, 8, ' a comment'), 'comment.line.http');
  assert.equal(scopeOf(t, 0, 'size'), 'variable.other.definition.http');
  assert.equal(scopeOf(t, 0, '100'), 'string.unquoted.variable-value.http');
});

void test('grammar: headers, dynamic variables, JSON body, handler, include', () => {
  const t = tokenize(sample);
  assert.equal(scopeOf(t, 5, 'Authorization'), 'support.type.header-name.http');
  assert.equal(scopeOf(t, 5, '$auth.token'), 'support.variable.dynamic.http');
  assert.equal(scopeOf(t, 10, 'application/json'), 'string.unquoted.header-value.http');
  assert.equal(scopeOf(t, 12, '{'), 'meta.embedded.block.json');
  assert.equal(scopeOf(t, 13, 'opCode'), 'variable.other.http');
  assert.equal(scopeOf(t, 16, '>'), 'keyword.operator.response-handler.http');
  assert.equal(scopeOf(t, 17, 'client.log(1);'), 'meta.embedded.block.javascript');
  assert.equal(scopeOf(t, 18, '%}'), 'punctuation.section.embedded.end.http');
  assert.equal(scopeOf(t, 19, '###'), 'punctuation.separator.request.http');
  assert.equal(scopeOf(t, 22, '<'), 'keyword.operator.include.http');
  assert.equal(scopeOf(t, 22, './payment.json'), 'string.unquoted.path.http');
});

void test('grammar: a header-like line in a body is not a header; a bare URL is a request', () => {
  const t = tokenize('POST /x\n\nname: value\n###\nhttps://example.test/a?b=1');
  assert.notEqual(scopeOf(t, 2, 'name'), 'support.type.header-name.http');
  assert.equal(scopeOf(t, 4, 'b'), 'variable.parameter.query.http');
});
