// The real language server over stdio, opened on the documents that used to end its process: a request
// body nesting 10 000 (and 100 000) levels under an operation whose schema the server walks. It answers
// with a diagnostic, keeps answering completion and hover in that body, and is still running.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { CompletionRequest, DidOpenTextDocumentNotification, HoverRequest } from 'vscode-languageserver-protocol/node';
import { startLspSession, type LspSession } from './lspClient';

let session: LspSession;
before(async () => { session = await startLspSession(); });
after(async () => { if (session.child.exitCode === null) await session.close(); });

for (const depth of [10_000, 100_000]) {
  void test(`a ${depth}-deep JSON body: a json-too-deep diagnostic, completion and hover answer, the server lives`, async () => {
    const uri = `file:///hostile/deep-${depth}.http`;
    const text = `POST {{engagement_base_url}}/api/SurveyApi/AddChoiceQuestion\nContent-Type: application/json\n\n${'{"OpCode":'.repeat(depth)}1${'}'.repeat(depth)}\n`;
    const published = session.nextDiagnostics(uri);
    await session.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'http', version: 1, text } });
    const diagnostics = (await published).diagnostics;
    const deep = diagnostics.find((d) => d.code === 'json-too-deep');
    assert.ok(deep, JSON.stringify(diagnostics.map((d) => d.code)));
    assert.equal(deep.message, "The body nests arrays and objects deeper than 512 levels, more than API Workbench reads: it is not checked against the operation's schema.");
    assert.deepEqual(deep.range.start, { line: 3, character: 512 * 10 });
    const position = { line: 3, character: 5_000 };
    await session.connection.sendRequest(CompletionRequest.type, { textDocument: { uri }, position });
    await session.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position });
    assert.equal(session.child.exitCode, null, session.stderr());
  });
}

void test('a 3-million-character body is not parsed per keystroke: a body-too-long diagnostic, the server answers', async () => {
  const uri = 'file:///hostile/long.http';
  const text = `POST {{engagement_base_url}}/api/SurveyApi/AddChoiceQuestion\nContent-Type: application/json\n\n{"QuestionLable": "${'x'.repeat(3_000_000)}"}\n`;
  const published = session.nextDiagnostics(uri);
  await session.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'http', version: 1, text } });
  const diagnostics = (await published).diagnostics;
  assert.deepEqual(diagnostics.filter((d) => d.code === 'body-too-long').map((d) => d.message), [
    "The body is 3.0 million characters: it is not checked against the operation's schema (bodies up to 2 million are).",
  ]);
  await session.connection.sendRequest(CompletionRequest.type, { textDocument: { uri }, position: { line: 3, character: 10 } });
  assert.equal(session.child.exitCode, null, session.stderr());
});
