// Opening a 50 000-line file parses and validates it once, in slices: its diagnostics are published as
// the pass goes (the top of the file first, then more), completions asked meanwhile are answered between
// slices, and the last publication is exactly what one validation at once reports. An edit made while
// the open's pass runs is not lost: the edited version's diagnostics come, whole.
// Oracle: the language service's validation of the same text at once.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  CompletionRequest, DidChangeTextDocumentNotification, DidOpenTextDocumentNotification, type CompletionList, type Diagnostic, type PublishDiagnosticsParams,
} from 'vscode-languageserver-protocol/node';
import { buildLargeHttpFile, completionPoints } from '../../bench/completion/workload';
import { EnvironmentChangedNotification } from '../../src/protocol/lsp';
import { createHttpLanguageService, HttpDocument } from '../../src/server/service';
import { startLspSession, type LspSession } from './lspClient';

/** The variables of the active environment: the file's other services' base URLs and {{ctcID}} are undefined. */
const ENVIRONMENT = ['engagement_base_url'];
/** The bench's file, with a finding in every survey request (a field name in the wrong case). */
const TEXT = buildLargeHttpFile(50_000).replaceAll('"PageID": 1,', '"PageId": 1,');

function validatedAtOnce(uri: string, version: number, text: string): Diagnostic[] {
  const service = createHttpLanguageService();
  service.setEnvironmentVariables(ENVIRONMENT);
  return service.doValidate(new HttpDocument(uri, version, text));
}

/** `whole` less the undefined variables (which a part leaves out), down to the last line `part` reaches. */
const asPartOf = (whole: readonly Diagnostic[], part: readonly Diagnostic[]): Diagnostic[] => {
  const last = Math.max(...part.map((d) => d.range.start.line));
  return whole.filter((d) => d.code !== 'undefined-variable' && d.range.start.line <= last);
};

void describe('opening a 50 000-line file', () => {
  let session: LspSession;
  before(async () => {
    session = await startLspSession();
    await session.connection.sendNotification(EnvironmentChangedNotification, { variables: ENVIRONMENT });
  });
  after(async () => {
    if (session.child.exitCode === null) await session.close();
  });

  /** Every publication for `uri`, in order (a waiter that never accepts sees each one). */
  const publications = (uri: string): PublishDiagnosticsParams[] => {
    const seen: PublishDiagnosticsParams[] = [];
    void session.nextDiagnostics(uri, (p) => { seen.push(p); return false; });
    return seen;
  };

  void it('publishes the top of the file first, then more, and last exactly what one validation reports; completions answered meanwhile', { timeout: 120_000 }, async () => {
    const uri = 'file:///large.http';
    const whole = validatedAtOnce(uri, 1, TEXT);
    assert.ok(whole.some((d) => d.code === 'undefined-variable') && whole.some((d) => d.code === 'case-mismatch'), 'the file has findings of both kinds');
    // A body key near the end: the block is parsed on its own, not after the blocks before it.
    const point = completionPoints(TEXT, 400).filter((p) => p.kind === 'body-key').sort((a, b) => b.line - a.line)[0]!;
    const seen = publications(uri);
    const complete = session.nextDiagnostics(uri, (p) => p.diagnostics.length === whole.length);
    let done = false;
    void complete.then(() => { done = true; });
    await session.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'http', version: 1, text: TEXT } });
    // One completion after another until the whole file is published: validated in one go, the file
    // would let one through (read before its validation began); in slices, one between any two slices.
    let answered = 0;
    for (let i = 0; i < 100_000 && !done; i++) {
      const list = await session.connection.sendRequest(CompletionRequest.type, { textDocument: { uri }, position: { line: point.line, character: point.character + 1 } }) as CompletionList;
      assert.ok(list.items.length > 0, 'body keys offered');
      if (!done) answered++;
    }
    const last = await complete;
    assert.equal(last.version, 1);
    assert.deepEqual(last.diagnostics, whole, 'the last publication is the whole file, as validated at once');
    assert.ok(answered >= 3, `${answered} completions answered while the open was validated`);
    const parts = seen.slice(0, seen.indexOf(last));
    assert.ok(parts.length >= 1, 'published in parts before the whole');
    assert.ok(parts[0]!.diagnostics.length > 0, 'the first part holds the findings of the top of the file');
    for (const part of parts) {
      assert.equal(part.version, 1);
      assert.ok(part.diagnostics.length < whole.length);
      assert.deepEqual(part.diagnostics, asPartOf(whole, part.diagnostics), 'a part is the whole\'s findings of the blocks done');
    }
  });

  void it('an edit made while the open is validated is not lost: the edited version is published whole', { timeout: 120_000 }, async () => {
    const uri = 'file:///edited-while-opening.http';
    const lines = TEXT.split('\n');
    // Near the end (a block the open's pass has not reached when the edit comes) and at the top.
    const low = lines.lastIndexOf('  "PageId": 1,');
    const high = lines.indexOf('  "PageId": 1,');
    const edited = [...lines];
    edited[low] = '  "Nope": 1, "PageId": 1,';
    edited[high] = '  "PageID": 1,';
    const whole = validatedAtOnce(uri, 2, edited.join('\n'));
    const before = validatedAtOnce(uri, 1, TEXT);
    assert.notDeepEqual(whole, before);
    const seen = publications(uri);
    const first = session.nextDiagnostics(uri);
    await session.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'http', version: 1, text: TEXT } });
    assert.ok((await first).diagnostics.length < before.length, 'the edit comes while the open is validated (after its first part)');
    await session.connection.sendNotification(DidChangeTextDocumentNotification.type, {
      textDocument: { uri, version: 2 },
      contentChanges: [
        { range: { start: { line: low, character: 2 }, end: { line: low, character: 2 } }, text: '"Nope": 1, ' },
        { range: { start: { line: high, character: 7 }, end: { line: high, character: 9 } }, text: 'ID' },
      ],
    });
    const published = await session.nextDiagnostics(uri, (p) => p.version === 2 && p.diagnostics.length === whole.length);
    assert.deepEqual(published.diagnostics, whole);
    const afterTwo = seen.slice(seen.findIndex((p) => p.version === 2));
    assert.ok(afterTwo.every((p) => p.version === 2), 'nothing of the opened version is published after the edited one');
  });
});
