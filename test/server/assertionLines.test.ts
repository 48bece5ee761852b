// The language server over stdio on `??` lines and other tools' constructs: completion of subjects,
// comparisons and business arguments; hover saying what a line checks; diagnostics for a malformed
// assertion (error), a construct kept and not run (information naming its tool) and a request line
// swallowed into a body (warning).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  CompletionRequest, HoverRequest, type CompletionList, type MarkupContent,
} from 'vscode-languageserver-protocol/node';
import { openSettled, startLspSession, type LspSession } from './lspClient';

const uri = 'file:///work/scratch/assertions.http';
const lines = [
  '< {% request.variables.set("a", "1") %}',
  'GET {{fundraising_base_url}}/v1/constituents?limit=5',
  '',
  '?? status == 200',
  '?? ',
  '?? status ',
  '?? business ',
  '?? colour == red',
  '> {% client.test("x", () => {}) %}',
  '',
  '###',
  'POST {{fundraising_base_url}}/v1/constituents',
  'Content-Type: application/json',
  '',
  '{}',
  '',
  'GET {{fundraising_base_url}}/v1/constituents',
];
const text = lines.join('\n');
let session: LspSession;
let diagnostics: Array<{ code?: string | number; severity?: number; range: { start: { line: number } }; message: string }>;

before(async () => {
  session = await startLspSession();
  diagnostics = await openSettled(session, uri, text);
});
after(async () => { if (session.child.exitCode === null) await session.close(); });

const labels = async (line: number): Promise<string[]> =>
  ((await session.connection.sendRequest(CompletionRequest.type, { textDocument: { uri }, position: { line, character: lines[line]?.length ?? 0 } })) as CompletionList).items.map((i) => String(i.label));

void test('completion: subjects after ??, comparisons after a subject, ok/code after business', async () => {
  assert.deepEqual(await labels(4), ['status', 'header', 'body', 'duration', 'business', 'rows']);
  const comparisons = await labels(5);
  for (const c of ['==', '!=', '<', '>=', 'includes', 'exists', 'isArray']) assert.ok(comparisons.includes(c), c);
  assert.deepEqual(await labels(6), ['ok', 'code']);
});

void test('hover on an assertion line says what it checks', async () => {
  const hover = await session.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position: { line: 3, character: 4 } });
  const value = (hover?.contents as MarkupContent).value;
  assert.match(value, /\?\? status\*\* checks the HTTP status code/);
  assert.match(value, /`==`: equal/);
});

void test('diagnostics: malformed assertion (error), kept scripts (information naming the tool), missing ### (warning)', () => {
  const at = (code: string): Array<[number, number | undefined]> => diagnostics.filter((d) => d.code === code).map((d) => [d.range.start.line, d.severity]);
  assert.deepEqual(at('malformed-assertion'), [[4, 1], [5, 1], [6, 1], [7, 1]]);
  assert.match(diagnostics.find((d) => d.range.start.line === 7)?.message ?? '', /Unknown assertion subject 'colour'/);
  assert.deepEqual(at('kept-construct'), [[0, 3], [8, 3]]);
  for (const d of diagnostics.filter((x) => x.code === 'kept-construct')) assert.match(d.message, /JetBrains HTTP Client/);
  assert.deepEqual(at('missing-separator'), [[16, 2]]);
});
