// Opening a 50 000-line file parses and validates it once, in slices: completions asked one after another
// from the open on are answered while it is validated (counted before the publication, not timed), and
// the diagnostics then come for the whole file.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { CompletionRequest, DidOpenTextDocumentNotification, type CompletionList } from 'vscode-languageserver-protocol/node';
import { buildLargeHttpFile, completionPoints } from '../../bench/completion/workload';
import { startLspSession, type LspSession } from './lspClient';

void describe('opening a 50 000-line file', () => {
  let session: LspSession;
  before(async () => {
    session = await startLspSession();
  });
  after(async () => {
    if (session.child.exitCode === null) await session.close();
  });

  void it('keeps answering completions while the file is validated, then publishes the whole file\'s diagnostics', { timeout: 120_000 }, async () => {
    const text = buildLargeHttpFile(50_000);
    const uri = 'file:///large.http';
    // A body key near the end: the block is parsed on its own, not after the blocks before it.
    const point = completionPoints(text, 400).filter((p) => p.kind === 'body-key').sort((a, b) => b.line - a.line)[0]!;
    let published = false;
    const diagnostics = session.nextDiagnostics(uri).then((p) => { published = true; return p; });
    await session.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'http', version: 1, text } });
    // One completion after another until the diagnostics come: validated in one go, the file would let
    // one through (read before its validation began); in slices, one between any two slices.
    let answered = 0;
    for (let i = 0; i < 100_000 && !published; i++) {
      const list = await session.connection.sendRequest(CompletionRequest.type, { textDocument: { uri }, position: { line: point.line, character: point.character + 1 } }) as CompletionList;
      assert.ok(list.items.length > 0, 'body keys offered');
      if (!published) answered++;
    }
    assert.equal((await diagnostics).version, 1);
    assert.ok(answered >= 3, `${answered} completions answered while the open was validated`);
  });
});
