// Starts the language server (dist/server.js, over node IPC) for `http` documents. The server is
// editor-agnostic; this is only the client wiring. Environment variable NAMES (never values) are sent
// to it so it can complete {{variables}}.
import * as vscode from 'vscode';
import { LanguageClient, TransportKind, type LanguageClientOptions, type ServerOptions } from 'vscode-languageclient/node';
import type { CatalogOverlayNotification, EnvironmentChangedNotification, EnvironmentChangedParams } from '../protocol/lsp';
import { CONTRACT_REFERENCE_DIR } from '../core/reference';
import type { CatalogController } from './catalog/catalogController';
import { COMMANDS } from './commandIds';
import type { EnvironmentController } from './environments/environmentController';

/**
 * The custom notifications' method names (src/protocol/lsp.ts), handed in by the workbench: this bundle
 * then holds no zod (the payload schemas beside the names), which the workbench's bundle already has.
 */
export interface LspMethods {
  readonly environmentChanged: typeof EnvironmentChangedNotification;
  readonly catalogOverlay: typeof CatalogOverlayNotification;
}

export async function startLanguageClient(context: vscode.ExtensionContext, environments: EnvironmentController, catalogs: CatalogController, methods: LspMethods): Promise<LanguageClient> {
  const serverModule = context.asAbsolutePath('dist/server.js');
  const serverOptions: ServerOptions = {
    run: { module: serverModule, transport: TransportKind.ipc },
    debug: { module: serverModule, transport: TransportKind.ipc, options: { execArgv: ['--nolazy', '--inspect=6019'] } },
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [{ language: 'http' }],
    outputChannelName: 'API Workbench Language Server',
    // Citations in hovers open the shipped contract reference at their section (core/reference):
    // the hover trusts that one command and nothing else; diagnostics link the reference file itself.
    initializationOptions: {
      contractReference: {
        command: COMMANDS.openContractReference,
        directory: vscode.Uri.joinPath(context.extensionUri, CONTRACT_REFERENCE_DIR).toString(),
      },
    },
    markdown: { isTrusted: { enabledCommands: [COMMANDS.openContractReference] } },
  };
  const client = new LanguageClient('apiWorkbench', 'API Workbench Language Server', serverOptions, clientOptions);
  context.subscriptions.push({ dispose: () => void client.stop() });
  await client.start();
  const sendEnvironment = (): void => {
    const params: EnvironmentChangedParams = {
      ...(environments.active ? { environment: environments.active.name } : {}),
      variables: environments.variableNames(),
    };
    void client.sendNotification(methods.environmentChanged, params);
  };
  sendEnvironment();
  // Imported OpenAPI operations: the server completes and checks their bodies like built-in ones.
  const sendOverlay = (): void => { void client.sendNotification(methods.catalogOverlay, catalogs.lspParams()); };
  if (catalogs.imports.length > 0) sendOverlay();
  context.subscriptions.push(environments.onDidChange(sendEnvironment), catalogs.onDidChange(sendOverlay));
  return client;
}
