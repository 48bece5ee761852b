// Composition root: build the parts, register them as disposables, return the test API. Nothing else.
import * as vscode from 'vscode';
import { createCatalog } from '../core/catalog';
import { ResponseHistory } from '../core/results/history';
import { registerCommands } from './commands';
import { CredentialCommands } from './credentials/credentialCommands';
import { SecretStorageStore } from './credentials/secretStorageStore';
import { TokenStatusBar } from './credentials/tokenStatusBar';
import { EnvironmentController } from './environments/environmentController';
import { EnvironmentsTreeProvider } from './environments/environmentsTree';
import { startLanguageClient } from './languageClient';
import { RequestsTreeProvider } from './requests/requestsTree';
import { ScratchFiles } from './requests/scratchFiles';
import { ResultsPanel } from './results/ResultsPanel';
import { SendController } from './send/sendController';
import { ServicesTreeProvider } from './servicesTree';
import type { ApiWorkbenchTestApi } from './testApi';

export function activate(context: vscode.ExtensionContext): ApiWorkbenchTestApi {
  const output = vscode.window.createOutputChannel('API Workbench');
  const log = (line: string): void => output.appendLine(`[${new Date().toISOString()}] ${line}`);
  const catalog = createCatalog();
  const secrets = new SecretStorageStore(context.secrets, context.globalState);
  const environments = new EnvironmentController(context.workspaceState, secrets);
  const scratches = new ScratchFiles(context.globalStorageUri);
  const servicesTree = new ServicesTreeProvider(catalog);
  const environmentsTree = new EnvironmentsTreeProvider(environments);
  const requestsTree = new RequestsTreeProvider(scratches);
  const results = new ResultsPanel({ extensionUri: context.extensionUri, log, history: new ResponseHistory(context.workspaceState) });
  const resultsFolder = (): vscode.Uri => {
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri ?? context.globalStorageUri;
    return vscode.Uri.joinPath(folder, 'apiwb-results');
  };
  const sender = new SendController(() => catalog, environments, results, log, resultsFolder);
  const statusBar = new TokenStatusBar(environments);
  context.subscriptions.push(
    output, environments, scratches, servicesTree, environmentsTree, requestsTree, results, sender, statusBar,
    vscode.window.createTreeView('apiWorkbench.services', { treeDataProvider: servicesTree, showCollapseAll: true }),
    vscode.window.createTreeView('apiWorkbench.environments', { treeDataProvider: environmentsTree }),
    vscode.window.createTreeView('apiWorkbench.requests', { treeDataProvider: requestsTree, showCollapseAll: true }),
  );
  registerCommands(context, {
    catalog: () => catalog, servicesTree, requestsTree, scratches, sender,
    credentials: new CredentialCommands(environments),
  });

  // Nothing slow runs before activate() returns: the env file and the language server load after.
  const ready = environments.load().then(() => Promise.all([
    statusBar.update(),
    startLanguageClient(context, environments).then(
      () => log('language server started'),
      (error: unknown) => log(`language server failed to start: ${error instanceof Error ? error.message : String(error)}`),
    ),
  ])).then(() => undefined);

  return { ready, catalog: () => catalog, servicesTree, environmentsTree, requestsTree, environments, scratches, results, sender };
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
