// Everything behind the views and commands, built on first need (see extension.ts and lazyTree.ts):
// the catalog, the env file and credentials, scratch files, the results panel, the sender and the
// language client. Loaded with a dynamic import so none of it runs during activate().
import * as vscode from 'vscode';
import { useNumberLocale } from '../core/results/format';
import { CatalogController } from './catalog/catalogController';
import { CollectionCommands } from './collections/collectionCommands';
import { GenerateCommands } from './codegen/generateCommands';
import { CompareController } from './compare/compareController';
import { CredentialCommands } from './credentials/credentialCommands';
import { SecretStorageStore } from './credentials/secretStorageStore';
import { TokenStatusBar } from './credentials/tokenStatusBar';
import { EnvironmentController } from './environments/environmentController';
import { EnvironmentsTreeProvider } from './environments/environmentsTree';
import { HistoryController } from './history/historyController';
import { NetworkCommands } from './network/networkCommands';
import { Redactor, knownSecretValues } from '../core/secrets';
import { afterRepliesSent } from './afterReplies';
import { CatalogOverlayNotification, EnvironmentChangedNotification } from '../protocol/lsp';
import { requireLanguageClient } from './workbenchBundle';
import { RequestsTreeProvider } from './requests/requestsTree';
import { ScratchFiles } from './requests/scratchFiles';
import { ResultsPanel } from './results/ResultsPanel';
import { SendController, type SendTarget } from './send/sendController';
import { sendFrom } from './send/sendFrom';
import { importPrivateEnvFile, type PrivateEnvImportOptions, type PrivateEnvImportReport } from './credentials/privateEnvImport';
import { importRestClientEnvironments, type RestClientEnvironmentsOptions, type RestClientEnvironmentsReport } from './environments/restClientImport';
import type { RequestsNode } from './requests/requestsTree';
import { ServicesTreeProvider } from './servicesTree';
import { faultText } from '../core/text/faultText';

export interface Workbench {
  /** Resolves when the env file is loaded and the language client has started (or failed, logged). */
  readonly ready: Promise<void>;
  /** Resolves when the env file and the OpenAPI overlays were read (or failed, reported): before the language client. */
  readonly filesRead: Promise<void>;
  /** The contracts plus imported OpenAPI overlays; `current` changes on import. */
  readonly catalogs: CatalogController;
  readonly servicesTree: ServicesTreeProvider;
  readonly environmentsTree: EnvironmentsTreeProvider;
  readonly requestsTree: RequestsTreeProvider;
  readonly environments: EnvironmentController;
  readonly scratches: ScratchFiles;
  readonly results: ResultsPanel;
  readonly sender: SendController;
  readonly credentialCommands: CredentialCommands;
  readonly collectionCommands: CollectionCommands;
  /** Generate Code and Generate Paging Loop. */
  readonly generate: GenerateCommands;
  readonly networkCommands: NetworkCommands;
  readonly history: HistoryController;
  /** Compare Environments… (the request sent on two environments, compared record by record). */
  readonly compare: CompareController;
  /** The Send commands: a CodeLens target, a Requests view node, or the request under the cursor. */
  sendFrom(target: SendTarget | RequestsNode | undefined, followPages: boolean): Promise<unknown>;
  importPrivateEnvFile(options: PrivateEnvImportOptions): Promise<PrivateEnvImportReport | undefined>;
  importRestClientEnvironments(options: RestClientEnvironmentsOptions): Promise<RestClientEnvironmentsReport | undefined>;
}

/**
 * The language client, a bundle of its own (about a fifth of the workbench's code), loaded and started once
 * the answers already given (the views' first rows) are sent: it never holds back a view.
 */
function startLanguageClientLater(...args: Parameters<typeof import('./languageClient').startLanguageClient>): Promise<unknown> {
  return new Promise<void>((resolve) => afterRepliesSent(resolve)).then(() => {
    const storage: unknown = args[0].globalStorageUri?.fsPath;
    return requireLanguageClient(typeof storage === 'string' && storage !== '' ? storage : undefined).startLanguageClient(...args);
  });
}

export function createWorkbench(context: vscode.ExtensionContext, log: (line: string) => void): Workbench {
  // Counts said by the editor (History, notifications) in the user's locale, as the panel says them.
  useNumberLocale(vscode.env.language);
  const secrets = new SecretStorageStore(context.secrets, context.globalState);
  const environments = new EnvironmentController(context.workspaceState, secrets);
  const catalogs = new CatalogController(context.globalStorageUri, log, () => environments.refreshGuard());
  const scratches = new ScratchFiles(context.globalStorageUri);
  const servicesTree = new ServicesTreeProvider(catalogs.current);
  const environmentsTree = new EnvironmentsTreeProvider(environments);
  const requestsTree = new RequestsTreeProvider(scratches);
  const results = new ResultsPanel({ extensionUri: context.extensionUri, log });
  const resultsFolder = (): vscode.Uri => {
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri ?? context.globalStorageUri;
    return vscode.Uri.joinPath(folder, 'apiwb-results');
  };
  const sender = new SendController(() => catalogs.current, environments, results, log, resultsFolder);
  const statusBar = new TokenStatusBar(environments);
  const collectionCommands = new CollectionCommands(environments, catalogs);
  // Per workspace: VS Code's storage for this workspace (global storage when no folder is open).
  const historyFolder = vscode.Uri.joinPath(context.storageUri ?? context.globalStorageUri, 'history');
  const history = new HistoryController(
    historyFolder,
    // What SecretStorage holds, and every value this session bound (a {{$processEnv}} or .env value too).
    async () => new Redactor([...(await knownSecretValues(secrets)), ...environments.guard.values()]),
    results,
    (block, target) => collectionCommands.saveBlock(block, target),
    log,
  );
  sender.recorder = (record) => history.record(record);
  sender.earlier = (uri, file, index) => history.earlierOf(uri, file, index);
  history.network = () => environments.network.resolve();
  // A proxy password or a passphrase stored or forgotten (any command, another window): the next request uses it.
  context.subscriptions.push(context.secrets.onDidChange((event) => {
    if (/(^|[./])proxy\.password$|\.passphrase$/.test(event.key)) environments.network.invalidate();
  }));
  const compare = new CompareController(() => catalogs.current, environments, () => history.store, log, context.extensionUri);
  context.subscriptions.push(history, catalogs, catalogs.onDidChange(() => servicesTree.setCatalog(catalogs.current)), environments, scratches, servicesTree, environmentsTree, requestsTree, results, sender, statusBar, compare);

  // A broken env file or overlay is reported by its loader; the language server starts regardless.
  const filesRead = Promise.allSettled([environments.load(), catalogs.restore()]).then(() => undefined);
  const ready = filesRead.then(() => Promise.all([
    statusBar.update(),
    startLanguageClientLater(context, environments, catalogs, { environmentChanged: EnvironmentChangedNotification, catalogOverlay: CatalogOverlayNotification }).then(
      () => log('language server started'),
      (error: unknown) => log(`language server failed to start: ${faultText(error)}`),
    ),
  ])).then(() => undefined);

  return {
    ready, filesRead, catalogs, servicesTree, environmentsTree, requestsTree, environments, scratches, results, sender,
    credentialCommands: new CredentialCommands(environments),
    networkCommands: new NetworkCommands(environments),
    collectionCommands,
    generate: new GenerateCommands(environments, catalogs, (node) => collectionCommands.requestAt(node as RequestsNode | undefined)),
    history,
    compare,
    sendFrom: (target, followPages) => sendFrom(target, followPages, sender),
    importPrivateEnvFile: (options) => importPrivateEnvFile(environments, options),
    importRestClientEnvironments: (options) => importRestClientEnvironments(environments, options),
  };
}
