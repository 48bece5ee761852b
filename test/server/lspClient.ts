// A real LSP client over the server's stdio, for the server tests and the benchmark.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import {
  createProtocolConnection, StreamMessageReader, StreamMessageWriter, type ProtocolConnection,
  InitializeRequest, InitializedNotification, PublishDiagnosticsNotification, ShutdownRequest, ExitNotification,
  DidOpenTextDocumentNotification, DocumentSymbolRequest, type Diagnostic,
  ShowMessageNotification, type ClientCapabilities, type InitializeResult, type PublishDiagnosticsParams, type ShowMessageParams,
} from 'vscode-languageserver-protocol/node';

const root = join(import.meta.dirname, '../..');

export interface LspSession {
  readonly connection: ProtocolConnection;
  readonly child: ChildProcess;
  readonly initializeResult: InitializeResult;
  /** Resolves with the next diagnostics published for `uri` that satisfy `accept`. */
  nextDiagnostics(uri: string, accept?: (p: PublishDiagnosticsParams) => boolean): Promise<PublishDiagnosticsParams>;
  /** Diagnostics already published for `uri` (since the session started), else the next ones. */
  diagnosticsFor(uri: string, accept?: (p: PublishDiagnosticsParams) => boolean): Promise<PublishDiagnosticsParams>;
  /** window/showMessage notifications received so far. */
  readonly messages: readonly ShowMessageParams[];
  /** Sends shutdown and exit; resolves with the child's exit code. */
  close(): Promise<number | null>;
  stderr(): string;
}

/** What the default session declares: snippets, markdown hover and markdown completion documentation. */
export const FULL_CLIENT_CAPABILITIES: ClientCapabilities = {
  textDocument: { completion: { completionItem: { snippetSupport: true, documentationFormat: ['markdown', 'plaintext'] } }, hover: { contentFormat: ['markdown'] } },
};

/**
 * Starts the server and initializes it: from source (`node --import tsx <entry.ts> ...args`), or a
 * bundle as shipped (`node <entry.js> ...args`, no loader: what the extension and `apiwb lsp` run).
 */
export async function startLspSession(
  entry: readonly string[] = ['src/server/main.ts', '--stdio'],
  client: {
    readonly capabilities?: ClientCapabilities;
    readonly initializationOptions?: unknown;
    readonly rootUri?: string | null;
    readonly workspaceFolders?: { uri: string; name: string }[] | null;
  } = {},
): Promise<LspSession> {
  const loader = entry.some((a) => a.endsWith('.ts')) ? ['--import', 'tsx'] : [];
  const child = spawn(process.execPath, [...loader, ...entry], { cwd: root, stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const connection = createProtocolConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
  const waiters: Array<{ uri: string; accept: (p: PublishDiagnosticsParams) => boolean; resolve: (p: PublishDiagnosticsParams) => void }> = [];
  const published: PublishDiagnosticsParams[] = [];
  const messages: ShowMessageParams[] = [];
  connection.onNotification(ShowMessageNotification.type, (params) => { messages.push(params); });
  connection.onNotification(PublishDiagnosticsNotification.type, (params) => {
    published.push(params);
    const index = waiters.findIndex((w) => w.uri === params.uri && w.accept(params));
    if (index !== -1) waiters.splice(index, 1)[0]?.resolve(params);
  });
  connection.listen();
  // A server that dies before answering must fail the caller, not leave it waiting forever.
  const died = exited.then((code) => { throw new Error(`the language server exited (${code}) before initialize: ${stderr}`); });
  const initializeResult = await Promise.race([
    connection.sendRequest(InitializeRequest.type, {
      processId: process.pid,
      rootUri: client.rootUri ?? null,
      capabilities: client.capabilities ?? FULL_CLIENT_CAPABILITIES,
      workspaceFolders: client.workspaceFolders ?? null,
      ...(client.initializationOptions === undefined ? {} : { initializationOptions: client.initializationOptions }),
    }),
    died,
  ]);
  died.catch(() => undefined);
  await connection.sendNotification(InitializedNotification.type, {});
  return {
    connection,
    child,
    initializeResult,
    nextDiagnostics: (uri, accept = () => true) => new Promise((resolve) => waiters.push({ uri, accept, resolve })),
    diagnosticsFor: (uri, accept = () => true) => {
      const seen = published.find((p) => p.uri === uri && accept(p));
      return seen ? Promise.resolve(seen) : new Promise((resolve) => waiters.push({ uri, accept, resolve }));
    },
    messages,
    async close() {
      await connection.sendRequest(ShutdownRequest.type);
      await connection.sendNotification(ExitNotification.type);
      const code = await exited;
      connection.dispose();
      return code;
    },
    stderr: () => stderr,
  };
}

/**
 * Opens `text` as `uri` and returns its whole file's diagnostics. A file is published as its validation
 * goes (slices of a few milliseconds: on a busy machine even a short file's first publication can be part
 * of it), then whole; the outline is answered once the whole is published, so the diagnostics are the
 * last publication before that answer.
 */
export async function openSettled(session: LspSession, uri: string, text: string): Promise<Diagnostic[]> {
  let last: PublishDiagnosticsParams | undefined;
  void session.nextDiagnostics(uri, (p) => { last = p; return false; });
  await session.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'http', version: 1, text } });
  await session.connection.sendRequest(DocumentSymbolRequest.type, { textDocument: { uri } });
  if (!last) throw new Error(`no diagnostics were published for ${uri} before its outline was answered`);
  return last.diagnostics;
}
