// The language server's entry (bundled to dist/server.js). createConnection reads the transport from
// argv: `--stdio` (apiwb lsp --stdio, any LSP client) or `--node-ipc` (vscode-languageclient).
import { createConnection, ProposedFeatures } from 'vscode-languageserver/node';
import { startServer } from './server';

startServer(createConnection(ProposedFeatures.all));
