// `apiwb lsp --stdio`: the same language server the extension starts, for any LSP client.
import { createConnection, ProposedFeatures } from 'vscode-languageserver/node';
import { startServer } from '../server/server';
import type { Subcommand } from './subcommands';

const TRANSPORTS = ['--stdio', '--node-ipc'];

export const lspSubcommand: Subcommand = {
  run(args) {
    if (args.includes('--help') || args.includes('-h')) {
      process.stdout.write('Usage: apiwb lsp --stdio | --node-ipc | --socket=PORT\n\nServes completion, hover, diagnostics, CodeLens, outline and folding for .http files.\nIt holds no secret and makes no network call.\n');
      return Promise.resolve(0);
    }
    if (!args.some((a) => TRANSPORTS.includes(a) || a.startsWith('--socket='))) {
      process.stderr.write('apiwb lsp: choose a transport: --stdio, --node-ipc or --socket=PORT\n');
      return Promise.resolve(2);
    }
    // createConnection reads the transport from process.argv; the process ends on the LSP `exit`.
    startServer(createConnection(ProposedFeatures.all));
    return new Promise<number>(() => undefined);
  },
};
