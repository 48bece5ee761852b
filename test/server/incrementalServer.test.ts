// The incremental language server over stdio, driven by a real LSP client: validation waits for a
// pause after the last change of a burst (observed as the versions diagnostics are published for, not
// by timing), kept block findings follow edits (an edited block's findings change, the others' move
// with their lines; deleting, merging and splitting blocks), and completion answers from the text of
// the latest version before validation has seen it.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  CompletionRequest, DidChangeTextDocumentNotification, DidCloseTextDocumentNotification, DidOpenTextDocumentNotification,
  type CompletionList, type Diagnostic, type PublishDiagnosticsParams, type TextDocumentContentChangeEvent,
} from 'vscode-languageserver-protocol/node';
import { createHttpLanguageService, HttpDocument } from '../../src/server/service';
import { VALIDATION_DELAY_MS, validationDelayFrom } from '../../src/server/server';
import { startLspSession, type LspSession } from './lspClient';

const SURVEY = (operation: string, body: string): string => [
  `POST {{engagement_base_url}}/api/SurveyApi/${operation}`,
  'Content-Type: application/json',
  '',
  body,
  '',
].join('\n');

/** Three blocks, each with findings of its own: an unknown field, a paging range, a wrong type. */
const TEXT = [
  '### A',
  SURVEY('AddFeedbackScoreQuestion', '{ "OpCode": 1, "PageID": 1, "QuestionLable": "x", "ScoreRange": 1 }'),
  '### B',
  'GET {{engagement_base_url}}/api/Transaction/GetOrdersByCustomer?ctcID=7&pageSize=900',
  '',
  '### C',
  SURVEY('AddChoiceQuestion', '{ "OpCode": "one", "PageID": 1 }'),
].join('\n');

/** What a fresh, uncached pass reports for `text` (the server's service, no kept findings). */
function fresh(text: string): Diagnostic[] {
  return createHttpLanguageService().doValidate(new HttpDocument('file:///fresh.http', 1, text));
}

const lineOf = (text: string, needle: string): number => text.split('\n').findIndex((l) => l.includes(needle));
const at = (diagnostics: readonly Diagnostic[], code: string): number[] => diagnostics.filter((d) => d.code === code).map((d) => d.range.start.line);

void describe('the incremental server over stdio', () => {
  let session: LspSession;
  before(async () => {
    session = await startLspSession();
  });
  after(async () => {
    if (session.child.exitCode === null) await session.close();
  });

  /** Opens `uri` with `text` and waits for its first diagnostics. */
  async function open(uri: string, text: string): Promise<Diagnostic[]> {
    const first = session.nextDiagnostics(uri, (p) => p.version === 1);
    await session.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'http', version: 1, text } });
    return (await first).diagnostics;
  }

  /** Sends `changes` as versions next.. of `uri`, back to back; resolves with the last version's diagnostics. */
  async function change(uri: string, from: number, changes: readonly TextDocumentContentChangeEvent[]): Promise<PublishDiagnosticsParams> {
    const last = from + changes.length - 1;
    const done = session.nextDiagnostics(uri, (p) => p.version === last);
    for (const [i, contentChanges] of changes.entries()) {
      await session.connection.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri, version: from + i }, contentChanges: [contentChanges] });
    }
    return done;
  }

  /** Replaces the whole text (one change) and checks the server's diagnostics against a fresh pass. */
  async function replaceAll(uri: string, version: number, text: string): Promise<Diagnostic[]> {
    const { diagnostics } = await change(uri, version, [{ text }]);
    assert.deepEqual(diagnostics, fresh(text), `version ${version}: what a fresh pass over the same text reports`);
    return diagnostics;
  }

  void it('publishes once for a burst of changes, for its last version (the pause counts from the last change)', async () => {
    const uri = 'file:///burst.http';
    const seen: Array<number | undefined> = [];
    // Sees every publication for uri, declining each so that the waiters below still get theirs.
    void session.nextDiagnostics(uri, (p) => { seen.push(p.version); return false; });
    await open(uri, TEXT);
    const line = lineOf(TEXT, '"QuestionLable"');
    const character = TEXT.split('\n')[line]!.indexOf('"QuestionLable"') + 1;
    // Ten keystrokes sent back to back: far closer together than the validation delay.
    const keys = [...'QuestionLa'].map((key, i): TextDocumentContentChangeEvent => ({
      range: { start: { line, character: character + i }, end: { line, character: character + i } }, text: key,
    }));
    const last = await change(uri, 2, keys);
    assert.equal(last.version, 11);
    assert.deepEqual(seen, [1, 11], 'one publication for the open, one for the burst: none for versions 2–10');
  });

  void it('a burst longer than the validation delay, keys closer than it, still publishes once: the pause counts from the last key', async () => {
    // A server of its own with a 600 ms pause; six keys 150 ms apart span 750 ms. A timer started by
    // the first key of the burst would publish in the middle of it.
    const slow = await startLspSession(undefined, { initializationOptions: { validationDelayMs: 600 } });
    try {
      const uri = 'file:///slow-burst.http';
      const seen: Array<number | undefined> = [];
      void slow.nextDiagnostics(uri, (p) => { seen.push(p.version); return false; });
      const first = slow.nextDiagnostics(uri, (p) => p.version === 1);
      await slow.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'http', version: 1, text: TEXT } });
      await first;
      const done = slow.nextDiagnostics(uri, (p) => p.version === 7);
      for (let version = 2; version <= 7; version++) {
        if (version > 2) await new Promise((resolve) => setTimeout(resolve, 150));
        await slow.connection.sendNotification(DidChangeTextDocumentNotification.type, {
          textDocument: { uri, version }, contentChanges: [{ range: { start: { line: 0, character: 5 }, end: { line: 0, character: 5 } }, text: 'x' }],
        });
      }
      await done;
      assert.deepEqual(seen, [1, 7]);
    } finally {
      await slow.close();
    }
  });

  void it('after an edit in one block, only that block\'s findings change; an insertion above moves the others with their lines', async () => {
    const uri = 'file:///blocks.http';
    const opened = await open(uri, TEXT);
    assert.deepEqual(opened, fresh(TEXT));
    assert.deepEqual(at(opened, 'unknown-field'), [lineOf(TEXT, 'QuestionLable')]);
    assert.deepEqual(at(opened, 'out-of-range'), [lineOf(TEXT, 'pageSize=900')]);
    assert.deepEqual(at(opened, 'wrong-type'), [lineOf(TEXT, '"OpCode": "one"')]);

    // Block B fixed: its finding goes, A's and C's stay exactly as they were.
    const fixed = TEXT.replace('pageSize=900', 'pageSize=90');
    const afterFix = await replaceAll(uri, 2, fixed);
    assert.deepEqual(at(afterFix, 'out-of-range'), []);
    assert.deepEqual(afterFix, opened.filter((d) => d.code !== 'out-of-range'));

    // Three lines inserted above everything: every finding moves down three lines, nothing else changes.
    const inserted = `# one\n# two\n# three\n${fixed}`;
    const afterInsert = await replaceAll(uri, 3, inserted);
    assert.deepEqual(afterInsert, afterFix.map((d) => ({ ...d, range: { start: { ...d.range.start, line: d.range.start.line + 3 }, end: { ...d.range.end, line: d.range.end.line + 3 } } })));

    // Block B deleted: C's findings move up by B's lines.
    const bLines = TEXT.split('\n').filter((_l, i) => i >= lineOf(TEXT, '### B') && i < lineOf(TEXT, '### C')).length;
    const deleted = inserted.replace(/### B\n[^\n]*\n\n/, '');
    assert.equal(deleted.split('\n').length, inserted.split('\n').length - bLines);
    const afterDelete = await replaceAll(uri, 4, deleted);
    assert.deepEqual(at(afterDelete, 'wrong-type'), [at(afterInsert, 'wrong-type')[0]! - bLines]);
    assert.deepEqual(at(afterDelete, 'unknown-field'), at(afterInsert, 'unknown-field'));
  });

  void it('merging two blocks (a ### line deleted) and splitting one (a ### line typed) re-validate what changed', async () => {
    const uri = 'file:///merge.http';
    await open(uri, TEXT);
    // Without `### C`, C's request is read as B's body (a missing separator), and C's findings go.
    const merged = TEXT.replace('### C\n', '');
    const afterMerge = await replaceAll(uri, 2, merged);
    assert.ok(afterMerge.some((d) => d.code === 'missing-separator'), JSON.stringify(afterMerge.map((d) => d.code)));
    assert.deepEqual(at(afterMerge, 'wrong-type'), [], 'C is no request of its own any more');
    // The separator typed back: C is a request again, with its finding on its line.
    const afterSplit = await replaceAll(uri, 3, TEXT);
    assert.deepEqual(at(afterSplit, 'wrong-type'), [lineOf(TEXT, '"OpCode": "one"')]);
    // A separator typed inside A's headers splits A: the body is no longer A's.
    const split = TEXT.replace('Content-Type: application/json\n\n{ "OpCode": 1', '###\nContent-Type: application/json\n\n{ "OpCode": 1');
    const afterInnerSplit = await replaceAll(uri, 4, split);
    assert.deepEqual(at(afterInnerSplit, 'unknown-field'), [], 'the body with the unknown field is in a block with no request line');
  });

  void it('completion answers from the version just typed, before validation has seen it', async () => {
    const uri = 'file:///typed.http';
    const text = SURVEY('AddFeedbackScoreQuestion', '{\n  \n}');
    await open(uri, text);
    const order: string[] = [];
    const validated = session.nextDiagnostics(uri, (p) => p.version === 2).then(() => order.push('diagnostics v2'));
    // The request line now names another operation: completion in the body must offer its keys.
    const line = 0;
    const from = text.indexOf('AddFeedbackScoreQuestion');
    await session.connection.sendNotification(DidChangeTextDocumentNotification.type, {
      textDocument: { uri, version: 2 },
      contentChanges: [{ range: { start: { line, character: from }, end: { line, character: from + 'AddFeedbackScoreQuestion'.length } }, text: 'AddChoiceQuestion' }],
    });
    const list = await session.connection.sendRequest(CompletionRequest.type, { textDocument: { uri }, position: { line: 4, character: 2 } }) as CompletionList;
    order.push('completion v2');
    const labels = list.items.map((i) => i.label);
    assert.ok(labels.includes('Choices'), `AddChoiceQuestion's keys: ${labels.join(', ')}`);
    assert.ok(!labels.includes('UseEmoticons'), 'not the previous operation\'s');
    await validated;
    assert.deepEqual(order, ['completion v2', 'diagnostics v2'], 'the completion did not wait for the validation');
    await session.connection.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri } });
  });

  void it('takes a validation delay from initializationOptions only when it is a whole number of ms up to 10 s', () => {
    assert.equal(validationDelayFrom({ validationDelayMs: 0 }), 0);
    assert.equal(validationDelayFrom({ validationDelayMs: 600 }), 600);
    for (const hostile of [undefined, null, 'x', {}, { validationDelayMs: -1 }, { validationDelayMs: 1.5 }, { validationDelayMs: 1e9 }, { validationDelayMs: '600' }, { validationDelayMs: Number.NaN }]) {
      assert.equal(validationDelayFrom(hostile), VALIDATION_DELAY_MS, JSON.stringify(hostile));
    }
  });
});
