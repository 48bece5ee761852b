// The language server's per-edit work against its oracle, over stdio with a real LSP client: a document
// opened and then edited (typing in one block, adding and removing `###` separators, edits spanning
// blocks, pastes, CRLF) answers exactly as a fresh open of the edited text does: the same diagnostics,
// completions, hovers, outline, folding ranges and lenses. The edited document keeps its blocks and
// re-cuts and re-parses only what an edit touched; the fresh one parses everything once.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  CodeLensRequest, CompletionRequest, DidChangeTextDocumentNotification, DidCloseTextDocumentNotification, DidOpenTextDocumentNotification,
  DocumentSymbolRequest, FoldingRangeRequest, HoverRequest, type Position, type TextDocumentContentChangeEvent,
} from 'vscode-languageserver-protocol/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { EnvironmentChangedNotification } from '../../src/protocol/lsp';
import { parseHttpFile } from '../../src/core/httpfile';
import { buildLargeHttpFile } from '../../bench/completion/workload';
import { openSettled, startLspSession, type LspSession } from './lspClient';

const START = [
  '@host = {{engagement_base_url}}',
  '',
  '### Score',
  '# @name score',
  'POST {{engagement_base_url}}/api/SurveyApi/AddFeedbackScoreQuestion',
  'Content-Type: application/json',
  '',
  '{ "OpCode": 1, "PageID": 1, "QuestionLable": "x", "ScoreRange": 1 }',
  '',
  '?? status == 200',
  '',
  '### Orders',
  'GET {{engagement_base_url}}/api/Transaction/GetOrdersByCustomer?ctcID={{score.response.body.$.ID}}&pageSize=900',
  '',
  '### Choice',
  'POST {{engagement_base_url}}/api/SurveyApi/AddChoiceQuestion',
  'Content-Type: application/json',
  '',
  '{',
  '  "OpCode": "one",',
  '  "PageID": {{missing}}',
  '}',
  '',
].join('\n');

/** Texts an edit puts in: separators typed and pasted, blocks, line breaks, body keys, references. */
const PIECES = [
  '#', '###', '### New\n', '\n', '\r\n', '"', '"Q', 'x', '{{host}}', '{{nope}}', '@v = 2\n', '# @name other\n',
  'GET {{engagement_base_url}}/api/Transaction/GetOrdersByCustomer?pageSize=5\n', '\n### Split\nPOST {{engagement_base_url}}/api/SurveyApi/AddLabelQuestion\n\n{ "OpCode": 2 }\n',
];

/** The positions the oracle is asked at: the start, middle and end of every line. */
function positionsOf(text: string): Position[] {
  const lines = text.split(/\r\n|\r|\n/);
  return lines.flatMap((line, i) => [...new Set([0, line.length >> 1, line.length])].map((character) => ({ line: i, character })));
}

/** The fresh open's outline, lenses and folding (read from per-block parses) against the whole file parsed at once. */
function assertOutlineOfFullParse(text: string, answers: { symbols: Array<{ selectionRange: unknown; range: { start: unknown } }>; folding: Array<{ startLine: number; kind?: string }>; lenses: Array<{ range: unknown; command: { arguments: Array<{ requestIndex: number }> } }> }): void {
  const file = parseHttpFile(text);
  assert.deepEqual(answers.symbols.map((s) => s.selectionRange), file.requests.map((r) => r.requestLine.range), 'symbols at the request lines');
  assert.deepEqual(answers.symbols.map((s) => s.range.start), file.blocks.filter((b) => b.request).map((b) => b.range.start), 'symbols from the block starts');
  const regions = answers.folding.filter((f) => f.kind === 'region').map((f) => f.startLine);
  assert.deepEqual(regions, file.blocks.filter((b) => regions.includes(b.firstLine)).map((b) => b.firstLine), 'folding regions at block starts');
  const seen = new Set<string>();
  const sends = answers.lenses.filter((l) => !seen.has(JSON.stringify(l.range)) && seen.add(JSON.stringify(l.range)));
  assert.deepEqual(sends.map((l) => [l.range, l.command.arguments[0]!.requestIndex]), file.requests.map((r) => [r.requestLine.range, r.index]), 'a Send lens per request, at its index');
}

void describe('an edited document answers as a fresh open of its text', () => {
  let session: LspSession;
  before(async () => {
    session = await startLspSession(undefined, { initializationOptions: { validationDelayMs: 0 } });
    await session.connection.sendNotification(EnvironmentChangedNotification, { environment: 'dev', variables: ['engagement_base_url'] });
  });
  after(async () => {
    if (session.child.exitCode === null) await session.close();
  });

  /** Everything the server answers for `uri`, with `uri` itself written out of the answers. */
  async function answers(uri: string, text: string, positions = positionsOf(text)): Promise<unknown> {
    const textDocument = { uri };
    const ask = <R>(request: Promise<R>): Promise<unknown> => request.then((r) => JSON.parse(JSON.stringify(r ?? null).replaceAll(uri, 'URI')) as unknown);
    return {
      symbols: await ask(session.connection.sendRequest(DocumentSymbolRequest.type, { textDocument })),
      folding: await ask(session.connection.sendRequest(FoldingRangeRequest.type, { textDocument })),
      lenses: await ask(session.connection.sendRequest(CodeLensRequest.type, { textDocument })),
      completions: await Promise.all(positions.map((position) => ask(session.connection.sendRequest(CompletionRequest.type, { textDocument, position })))),
      hovers: await Promise.all(positions.map((position) => ask(session.connection.sendRequest(HoverRequest.type, { textDocument, position })))),
    };
  }

  let fresh = 0;
  /** Opens `text` under a new name, takes its first diagnostics and answers, and closes it. */
  async function oracle(text: string, positions?: Position[]): Promise<{ diagnostics: unknown; answers: unknown }> {
    const uri = `file:///oracle-${++fresh}.http`;
    const result = { diagnostics: await openSettled(session, uri, text), answers: await answers(uri, text, positions) };
    assertOutlineOfFullParse(text, result.answers as { symbols: Array<{ selectionRange: unknown; range: { start: unknown } }>; folding: Array<{ startLine: number; kind?: string }>; lenses: Array<{ range: unknown; command: { arguments: Array<{ requestIndex: number }> } }> });
    await session.connection.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri } });
    return result;
  }

  async function assertLikeFresh(uri: string, version: number, editor: TextDocument, note: string, diagnostics: unknown, positions?: Position[]): Promise<void> {
    const text = editor.getText();
    const expected = await oracle(text, positions);
    assert.deepEqual(diagnostics, expected.diagnostics, `diagnostics after ${note}`);
    assert.deepEqual(await answers(uri, text, positions), expected.answers, `answers after ${note}`);
    void version;
  }

  void it('after each random edit (separators, spans, pastes, CRLF), as after opening the edited text', { timeout: 240_000 }, async () => {
    let seed = 5;
    const next = (n: number): number => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n; };
    for (let run = 0; run < 4; run++) {
      const uri = `file:///edited-${run}.http`;
      const start = run % 2 === 0 ? START : START.replaceAll('\n', '\r\n');
      const editor = TextDocument.create(uri, 'http', 1, start);
      const opened = session.nextDiagnostics(uri, (p) => p.version === 1);
      await session.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'http', version: 1, text: start } });
      await opened;
      for (let step = 0; step < 8; step++) {
        const text = editor.getText();
        const a = next(text.length + 1);
        // One edit in three spans up to 120 characters (across blocks), the others a few.
        const b = Math.min(text.length, a + (next(3) === 0 ? next(120) : next(3)));
        const change: TextDocumentContentChangeEvent = { range: { start: editor.positionAt(a), end: editor.positionAt(b) }, text: PIECES[next(PIECES.length)]! };
        const version = editor.version + 1;
        TextDocument.update(editor, [change], version);
        const published = session.nextDiagnostics(uri, (p) => p.version === version);
        await session.connection.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri, version }, contentChanges: [change] });
        const { diagnostics } = await published;
        await assertLikeFresh(uri, version, editor, `run ${run} step ${step}: [${a}, ${b}) ← ${JSON.stringify(change.text)} in ${JSON.stringify(text)}`, diagnostics);
      }
      await session.connection.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri } });
    }
  });

  void it('typing a separator splits a block, deleting it joins two, and a change spanning three blocks re-cuts them', { timeout: 60_000 }, async () => {
    const uri = 'file:///separators.http';
    const editor = TextDocument.create(uri, 'http', 1, START);
    const opened = session.nextDiagnostics(uri, (p) => p.version === 1);
    await session.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'http', version: 1, text: START } });
    await opened;
    const lines = START.split('\n');
    const line = (needle: string): number => lines.findIndex((l) => l.startsWith(needle));
    const steps: Array<[string, TextDocumentContentChangeEvent]> = [
      ['a separator typed above the body', { range: { start: { line: line('{ "OpCode": 1'), character: 0 }, end: { line: line('{ "OpCode": 1'), character: 0 } }, text: '###\n' }],
      ['the ### of Orders deleted', { range: { start: { line: line('### Orders') + 1, character: 0 }, end: { line: line('### Orders') + 1, character: 3 } }, text: '' }],
      ['from the first request line to the middle of the last body', { range: { start: { line: line('POST') , character: 10 }, end: { line: line('  "OpCode": "one"') + 1, character: 5 } }, text: '"' }],
    ];
    for (const [note, change] of steps) {
      const version = editor.version + 1;
      TextDocument.update(editor, [change], version);
      const published = session.nextDiagnostics(uri, (p) => p.version === version);
      await session.connection.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri, version }, contentChanges: [change] });
      const { diagnostics } = await published;
      await assertLikeFresh(uri, version, editor, note, diagnostics);
    }
  });

  void it('in a 50 000-line file (thousands of blocks), edits near its start, middle and end and across blocks answer as a fresh open', { timeout: 240_000 }, async () => {
    const uri = 'file:///large-edited.http';
    const start = buildLargeHttpFile(50_000);
    const editor = TextDocument.create(uri, 'http', 1, start);
    const opened = session.nextDiagnostics(uri, (p) => p.version === 1);
    await session.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'http', version: 1, text: start } });
    await opened;
    // Published as its pass goes, then whole (answered once it is): from then on a version is published whole.
    await session.connection.sendRequest(DocumentSymbolRequest.type, { textDocument: { uri } });
    let seed = 17;
    const next = (n: number): number => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n; };
    const touched: number[] = [];
    // Places and spans: a keystroke, a separator typed (a block split), a span over more blocks than a
    // leaf of the server's block tree holds deleted, a paste of blocks; at the file's start, its end and between.
    const edits: Array<(length: number) => [number, number, string]> = [
      (length) => { const a = next(length); return [a, a, 'x']; },
      () => [0, 0, '### New\n'],
      (length) => { const a = next(length); return [a, a, '\n###\n']; },
      (length) => { const a = next(length - 15_000); return [a, a + 12_000, '']; },
      (length) => [length, length, PIECES.at(-1)!],
      (length) => { const a = (length >> 1) + next(200); return [a, a + 2, PIECES[next(PIECES.length)]!]; },
      (length) => { const a = length - 100 - next(900); return [a, a + 40, '"Q'];},
    ];
    for (const [step, edit] of edits.entries()) {
      const text = editor.getText();
      const [a, b, piece] = edit(text.length);
      const change: TextDocumentContentChangeEvent = { range: { start: editor.positionAt(a), end: editor.positionAt(b) }, text: piece };
      const version = editor.version + 1;
      TextDocument.update(editor, [change], version);
      const published = session.nextDiagnostics(uri, (p) => p.version === version);
      await session.connection.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri, version }, contentChanges: [change] });
      const { diagnostics } = await published;
      // Asked around every edit so far (the lines it made and its neighbours'), at the file's ends and at random lines.
      touched.push(editor.positionAt(a).line);
      const after = editor.getText();
      const lines = after.split(/\r\n|\r|\n/);
      const asked = new Set([0, lines.length - 1, ...touched.flatMap((l) => [l - 3, l - 1, l, l + 1, l + 2, l + 6]), ...Array.from({ length: 40 }, () => next(lines.length))]);
      const positions = [...asked].filter((l) => l >= 0 && l < lines.length).flatMap((l) => [0, lines[l]!.length >> 1, lines[l]!.length].map((character) => ({ line: l, character })));
      await assertLikeFresh(uri, version, editor, `step ${step}: [${a}, ${b}) ← ${JSON.stringify(piece)}`, diagnostics, positions);
    }
    await session.connection.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri } });
  });
});
