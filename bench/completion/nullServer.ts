// The baseline of bench/completion.ts: a language server that keeps the documents in sync like ours
// (incremental sync over stdio) and answers every request with nothing. What the bench measures above
// it is our own work; what it measures of this server is the transport and the editor protocol.
import { createConnection, ProposedFeatures, TextDocuments, TextDocumentSyncKind } from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';

const connection = createConnection(ProposedFeatures.all);
const documents = new TextDocuments(TextDocument);
connection.onInitialize(() => ({ capabilities: { textDocumentSync: TextDocumentSyncKind.Incremental, completionProvider: { triggerCharacters: ['"'] } } }));
documents.onDidOpen((event) => void connection.sendDiagnostics({ uri: event.document.uri, version: event.document.version, diagnostics: [] }));
connection.onCompletion(() => ({ isIncomplete: false, items: [] }));
documents.listen(connection);
connection.listen();
