// LSP conformance: a real LSP client over stdio that declares neither snippet support nor markdown gets
// plain insert text (no `$1`, no `${1:name}`) and plaintext hover and documentation; a client that
// declares both gets snippets and markdown.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  CompletionRequest, HoverRequest, DidOpenTextDocumentNotification, type CompletionItem, type CompletionList, type MarkupContent,
} from 'vscode-languageserver-protocol/node';
import { startLspSession, type LspSession } from './lspClient';
import { markdownToPlainText, snippetToPlainText } from '../../src/server/service/clientCapabilities';

const uri = 'file:///work/scratch/capabilities.http';
const text = [
  'POST {{engagement_base_url}}/api/SurveyApi/AddFeedbackScoreQuestion',
  'Content-Type: application/json',
  '',
  '{',
  '  "OpCode": 12,',
  '  ',
  '}',
  '',
  '###',
  'GET {{fundraising_base_url}}/v1/constituents/',
  '',
].join('\n');
const bodyKey = { line: 5, character: 2 };
const url = { line: 9, character: 42 };
const hoverKey = { line: 4, character: 5 };

let plain: LspSession;
let full: LspSession;

before(async () => {
  [plain, full] = await Promise.all([startLspSession(undefined, { capabilities: {} }), startLspSession()]);
  for (const s of [plain, full]) {
    const published = s.nextDiagnostics(uri);
    await s.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'http', version: 1, text } });
    await published;
  }
});

after(async () => {
  await Promise.all([plain, full].map((s) => (s.child.exitCode === null ? s.close() : Promise.resolve(s.child.exitCode))));
});

const complete = async (s: LspSession, position: { line: number; character: number }): Promise<CompletionItem[]> =>
  ((await s.connection.sendRequest(CompletionRequest.type, { textDocument: { uri }, position })) as CompletionList).items;
const inserted = (item: CompletionItem): string => (item.textEdit && 'newText' in item.textEdit ? item.textEdit.newText : item.insertText ?? item.label);

void test('without snippet support, body keys and URL paths insert plain text with no tab stops', async () => {
  const keys = await complete(plain, bodyKey);
  assert.ok(keys.length > 2, 'body keys are offered');
  for (const item of [...keys, ...await complete(plain, url)]) {
    assert.notEqual(item.insertTextFormat, 2, `${item.label} is not a snippet`);
    assert.doesNotMatch(inserted(item), /\$\d|\$\{\d/, `${item.label} inserts no tab stop`);
  }
  const label = keys.find((k) => /"\$1"/.test(inserted(k)) === false && k.detail?.startsWith('string'));
  assert.ok(label, 'a string field is offered');
  assert.match(inserted(label), /: ""/, 'a string value is an empty string, not "$1"');
  const paths = await complete(plain, url);
  const withParameter = paths.find((p) => String(p.label).includes('{'));
  assert.ok(withParameter, 'a path with a parameter is offered');
  assert.match(inserted(withParameter), /\/v1\/constituents\/constituentId/);
});

void test('with snippet support the same items are snippets', async () => {
  const keys = await complete(full, bodyKey);
  assert.ok(keys.some((k) => k.insertTextFormat === 2 && /\$\d/.test(inserted(k))));
});

void test('a plaintext-only client gets plaintext hover and documentation; a markdown client gets markdown', async () => {
  const hover = await plain.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position: hoverKey });
  const content = hover?.contents as MarkupContent;
  assert.equal(content.kind, 'plaintext');
  assert.match(content.value, /OpCode/);
  assert.doesNotMatch(content.value, /\*\*|`/);
  for (const item of await complete(plain, bodyKey)) {
    if (typeof item.documentation === 'object') assert.equal(item.documentation.kind, 'plaintext', String(item.label));
  }
  const rich = await full.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position: hoverKey });
  assert.equal((rich?.contents as MarkupContent).kind, 'markdown');
  assert.ok((await complete(full, bodyKey)).some((i) => typeof i.documentation === 'object' && i.documentation.kind === 'markdown'));
});

void test('snippet and markdown conversions', () => {
  assert.equal(snippetToPlainText('"ErrorMessage": "$1",'), '"ErrorMessage": "",');
  assert.equal(snippetToPlainText('/v1/${1:constituentId}/x$0'), '/v1/constituentId/x');
  assert.equal(snippetToPlainText('${1|a,b|} \\$2 ${2:a\\}b}'), 'a $2 a}b');
  assert.equal(markdownToPlainText('**ScoreRange** `integer` [seed](https://x.test) *not* nullable'), 'ScoreRange integer seed (https://x.test) not nullable');
});
