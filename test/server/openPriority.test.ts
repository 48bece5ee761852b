// As a file opens, an editor asks for its folding ranges, outline and lenses, which need the whole file
// parsed. The server answers them once the open's pass has published the whole file's diagnostics (they
// are not needed to publish, and answered between validation's slices they held the diagnostics back),
// or once a change or the close ends that first pass; they never wait for anything else. Observed as the
// order in which the client receives the messages, not by timing.
import { after, before, describe, it, mock } from 'node:test';
import assert from 'node:assert/strict';
import {
  CodeLensRequest, DidChangeTextDocumentNotification, DidCloseTextDocumentNotification, DidOpenTextDocumentNotification, DocumentSymbolRequest, FoldingRangeRequest,
} from 'vscode-languageserver-protocol/node';
import {
  AbstractMessageReader, AbstractMessageWriter, createConnection, PublishDiagnosticsNotification,
  type DataCallback, type Disposable, type Message, type MessageReader, type MessageWriter, type NotificationMessage, type RequestMessage, type ResponseMessage,
} from 'vscode-languageserver/node';
import { createHttpLanguageService, HttpDocument, HttpDocumentCache } from '../../src/server/service';
import { startServer } from '../../src/server/server';
import { startLspSession, type LspSession } from './lspClient';

const block = (i: number): string => [
  `### Question ${i}`,
  `POST {{engagement_base_url}}/api/SurveyApi/AddChoiceQuestion`,
  'Content-Type: application/json',
  '',
  `{ "OpCode": ${i}, "PageID": 1, "QuestionLable": "x" }`,
  '',
].join('\n');
/** Enough blocks that validation takes several slices. */
const TEXT = Array.from({ length: 400 }, (_, i) => block(i)).join('\n');

void describe('open-time requests over stdio', () => {
  let session: LspSession;
  before(async () => {
    // A long pause before a change's validation: what the change's pass would publish cannot come during a test.
    session = await startLspSession(undefined, { initializationOptions: { validationDelayMs: 10_000 } });
  });
  after(async () => {
    if (session.child.exitCode === null) await session.close();
  });

  /** Sends didOpen, then the three requests an editor sends; resolves with the order the client got the answers and the diagnostics in. */
  async function openAndAsk(uri: string, text: string, between?: () => Promise<void>): Promise<{ order: string[]; answers: unknown[] }> {
    const order: string[] = [];
    // Every publication of the opened version (a waiter that never accepts sees each one).
    void session.nextDiagnostics(uri, (p) => {
      if (p.version === 1) order.push(`diagnostics of ${p.diagnostics.filter((d) => d.code === 'unknown-field').length} blocks`);
      return false;
    });
    await session.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'http', version: 1, text } });
    const textDocument = { uri };
    const asked = [
      session.connection.sendRequest(FoldingRangeRequest.type, { textDocument }).then((a) => (order.push('folding'), a)),
      session.connection.sendRequest(DocumentSymbolRequest.type, { textDocument }).then((a) => (order.push('outline'), a)),
      session.connection.sendRequest(CodeLensRequest.type, { textDocument }).then((a) => (order.push('lenses'), a)),
    ];
    await between?.();
    return { order, answers: await Promise.all(asked) };
  }

  void it('answers folding, outline and lenses after the whole file\'s diagnostics, with what the service says', { timeout: 30_000 }, async () => {
    const uri = 'file:///open-priority/a.http';
    const { order, answers } = await openAndAsk(uri, TEXT);
    // The file is published as its pass goes (parts first), and the answers come after the whole.
    assert.deepEqual(order.slice(-4), ['diagnostics of 400 blocks', 'folding', 'outline', 'lenses'], order.join(', '));
    assert.ok(order.slice(0, -4).every((o) => o.startsWith('diagnostics of ')), order.join(', '));
    const service = createHttpLanguageService();
    const document = new HttpDocument(uri, 1, TEXT);
    assert.deepEqual(answers, [service.foldingRanges(document), service.documentSymbols(document), service.codeLenses(document)]);
    assert.equal((answers[1] as unknown[]).length, 400, 'one outline entry per request');
    const expected = service.doValidate(document);
    assert.deepEqual((await session.diagnosticsFor(uri, (p) => p.version === 1 && p.diagnostics.length === expected.length)).diagnostics, expected);
  });

  void it('a change before the first diagnostics releases them at once: they do not wait for the change\'s validation', { timeout: 30_000 }, async () => {
    const uri = 'file:///open-priority/b.http';
    const { order } = await openAndAsk(uri, TEXT, () => session.connection.sendNotification(DidChangeTextDocumentNotification.type, {
      textDocument: { uri, version: 2 }, contentChanges: [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, text: '# x\n' }],
    }));
    assert.deepEqual(order.filter((o) => !o.startsWith('diagnostics')), ['folding', 'outline', 'lenses']);
    // Version 1's pass either published (a part, or the whole) before the change came (then first), or was made stale by it (then never).
    assert.ok(order.slice(order.indexOf('folding')).every((o) => !o.startsWith('diagnostics')), order.join(', '));
  });

  void it('a close before the first diagnostics releases them too, and a document never opened is answered at once', { timeout: 30_000 }, async () => {
    const uri = 'file:///open-priority/c.http';
    const { answers } = await openAndAsk(uri, TEXT, () => session.connection.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri } }));
    assert.equal(answers.length, 3);
    const never = { uri: 'file:///open-priority/never.http' };
    assert.deepEqual(await session.connection.sendRequest(CodeLensRequest.type, { textDocument: never }), []);
    assert.deepEqual(await session.connection.sendRequest(FoldingRangeRequest.type, { textDocument: never }), []);
  });
});

/** A message reader the test feeds by hand (the server in this process, no stdio). */
class Reader extends AbstractMessageReader implements MessageReader {
  private callback: DataCallback = () => undefined;
  listen(callback: DataCallback): Disposable {
    this.callback = callback;
    return { dispose: () => undefined };
  }
  send(message: Message): void {
    this.callback(message);
  }
}

/** `n` turns of the event loop (the server answers a message per turn). */
const turns = async (n: number): Promise<void> => {
  for (let i = 0; i < n; i++) await new Promise<void>((resolve) => setImmediate(resolve));
};

// Over stdio the writer sends a message on a later turn of the event loop than the one it is queued
// on: released when the publication was queued, the requests waiting for it (three answers over the
// whole file) ran before it was written and held it back. They go once it is written: here the writer
// holds the whole file's publication (the parts before it go through) until the test lets it go, and
// nothing is answered meanwhile.
/** A publication of all of TEXT's 400 blocks (a part holds fewer). */
const isWhole = (message: Message): boolean => (message as NotificationMessage).method === PublishDiagnosticsNotification.method
  && ((message as NotificationMessage).params as { diagnostics: Array<{ code?: unknown }> }).diagnostics.filter((d) => d.code === 'unknown-field').length === 400;

void describe('open-time requests wait until the publication is written', () => {
  /** A client side in memory: the test sends messages in, and sees every message the server writes. */
  class HeldWriter extends AbstractMessageWriter implements MessageWriter {
    readonly written: Message[] = [];
    private letGo: () => void = () => undefined;
    private startedPublishing: () => void = () => undefined;
    /** Resolves when the server writes the whole file's publication; that write completes only once let go. */
    readonly publishing = new Promise<void>((resolve) => { this.startedPublishing = resolve; });
    write(message: Message): Promise<void> {
      if (isWhole(message) && !this.written.some(isWhole)) {
        this.written.push(message);
        this.startedPublishing();
        return new Promise((resolve) => { this.letGo = resolve; });
      }
      this.written.push(message);
      return Promise.resolve();
    }
    release(): void {
      this.letGo();
    }
    end(): void {}
  }

  void it('answers folding, outline and lenses only after the whole file\'s publication is written', { timeout: 30_000 }, async () => {
    const reader = new Reader();
    const writer = new HeldWriter();
    const connection = createConnection(reader, writer);
    startServer(connection);
    after(() => connection.dispose());
    const uri = 'file:///open-priority/held.http';
    const answered = (id: number): boolean => writer.written.some((m) => (m as ResponseMessage).id === id);
    reader.send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { processId: null, rootUri: null, capabilities: {} } } as RequestMessage);
    await turns(5);
    assert.ok(answered(1), 'initialize answered');
    reader.send({ jsonrpc: '2.0', method: 'initialized', params: {} } as NotificationMessage);
    reader.send({ jsonrpc: '2.0', method: DidOpenTextDocumentNotification.method, params: { textDocument: { uri, languageId: 'http', version: 1, text: TEXT } } } as NotificationMessage);
    const textDocument = { uri };
    reader.send({ jsonrpc: '2.0', id: 2, method: FoldingRangeRequest.method, params: { textDocument } } as RequestMessage);
    reader.send({ jsonrpc: '2.0', id: 3, method: DocumentSymbolRequest.method, params: { textDocument } } as RequestMessage);
    reader.send({ jsonrpc: '2.0', id: 4, method: CodeLensRequest.method, params: { textDocument } } as RequestMessage);
    await writer.publishing;
    await turns(20);
    assert.deepEqual([2, 3, 4].filter(answered), [], 'nothing answered while the publication is being written');
    writer.release();
    for (let i = 0; i < 200 && ![2, 3, 4].every(answered); i++) await turns(1);
    assert.deepEqual([2, 3, 4].filter(answered), [2, 3, 4], 'all three answered once it is written');
  });
});

// A file the parser throws on (the guard's "hostile file"): its open's pass fails before its first slice,
// and what waits for that pass must still be answered, not left waiting until the file changes or closes.
void describe('open-time requests of a file the parser throws on', () => {
  class RecordingWriter extends AbstractMessageWriter implements MessageWriter {
    readonly written: Message[] = [];
    write(message: Message): Promise<void> {
      this.written.push(message);
      return Promise.resolve();
    }
    end(): void {}
  }

  void it('folding, outline and lenses are answered (empty) when the open\'s pass throws before it starts', { timeout: 30_000 }, async () => {
    const uri = 'file:///open-priority/throws.http';
    // eslint-disable-next-line @typescript-eslint/unbound-method -- the original, applied to its own `this` below
    const get = HttpDocumentCache.prototype.get;
    mock.method(HttpDocumentCache.prototype, 'get', function (this: HttpDocumentCache, ...args: Parameters<HttpDocumentCache['get']>) {
      if (args[0] === uri) throw new RangeError('Maximum call stack size exceeded');
      return get.apply(this, args);
    });
    after(() => mock.restoreAll());
    const reader = new Reader();
    const writer = new RecordingWriter();
    const connection = createConnection(reader, writer);
    startServer(connection);
    after(() => connection.dispose());
    const answered = (id: number): boolean => writer.written.some((m) => (m as ResponseMessage).id === id);
    reader.send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { processId: null, rootUri: null, capabilities: {} } } as RequestMessage);
    await turns(5);
    reader.send({ jsonrpc: '2.0', method: 'initialized', params: {} } as NotificationMessage);
    reader.send({ jsonrpc: '2.0', method: DidOpenTextDocumentNotification.method, params: { textDocument: { uri, languageId: 'http', version: 1, text: block(0) } } } as NotificationMessage);
    const textDocument = { uri };
    reader.send({ jsonrpc: '2.0', id: 2, method: FoldingRangeRequest.method, params: { textDocument } } as RequestMessage);
    reader.send({ jsonrpc: '2.0', id: 3, method: DocumentSymbolRequest.method, params: { textDocument } } as RequestMessage);
    reader.send({ jsonrpc: '2.0', id: 4, method: CodeLensRequest.method, params: { textDocument } } as RequestMessage);
    for (let i = 0; i < 50 && ![2, 3, 4].every(answered); i++) await new Promise<void>((resolve) => setTimeout(resolve, 10));
    assert.deepEqual([2, 3, 4].filter(answered), [2, 3, 4], 'all three answered though the open\'s pass failed');
  });
});
