// Composition root. activate() only registers the views and commands and returns the test API; the
// workbench behind them (workbench.ts: catalog schemas, HTTP client, language client) is a bundle of its
// own, loaded on first need: a command, a view other than Services, an open .http document (its language
// server), or right after the Services view's first rows, which come from the precomputed service rows
// (CONTRACT_SERVICE_ROWS) without it. bench/activation.ts measures activation until those rows.
import * as vscode from 'vscode';
import { afterFilesRead } from './afterFilesRead';
import { afterRepliesSent } from './afterReplies';
import { CONTRACT_SERVICE_ROWS } from '../core/catalog/serviceRows.generated';
import { registerCommands } from './commands';
import { LazyTreeProvider } from './lazyTree';
import type { ServicesNode } from './servicesTree';
import type { ApiWorkbenchTestApi } from './testApi';
import { serviceTreeItem } from './treeItems';
import type { Workbench } from './workbench';


export function activate(context: vscode.ExtensionContext): ApiWorkbenchTestApi {
  const output = vscode.window.createOutputChannel('API Workbench');
  const log = (line: string): void => output.appendLine(`[${new Date().toISOString()}] ${line}`);
  let loading: Promise<Workbench> | undefined;
  let loaded: Workbench | undefined;
  // './workbench.js' is a bundle of its own (scripts/build.mjs), so activation never even parses it. It is
  // loaded as require() would, not import(): import() of a CommonJS file goes through Node's ESM loader, which
  // scans the whole bundle twice (format detection, export names) before running it; and through V8's code
  // cache kept in the global storage (workbenchBundle.ts), so a later session skips most of its compile. The load waits until
  // the answers given so far are sent (afterRepliesSent), so a view's answer that does not need it (the
  // Services view's first rows) reaches the editor before the bundle blocks the thread.
  const workbench = (): Promise<Workbench> => (loading ??= new Promise<void>((resolve) => afterRepliesSent(resolve)).then(() => {
    const storage: unknown = context.globalStorageUri?.fsPath;
    // Required here, not imported: the code cache's modules (crypto, vm) load with the bundle, after the first rows.
    const { requireWorkbench } = require('./workbenchBundle') as typeof import('./workbenchBundle');
    const w = requireWorkbench(typeof storage === 'string' && storage !== '' ? storage : undefined).createWorkbench(context, log);
    w.ready.catch((error: unknown) => log(`API Workbench failed to load: ${error instanceof Error ? error.stack ?? error.message : String(error)}`));
    return (loaded = w);
  }).catch((error: unknown) => {
    loading = undefined; // a later command tries again
    log(`API Workbench failed to load: ${error instanceof Error ? error.stack ?? error.message : String(error)}`);
    throw error;
  }));
  const loadSoon = (): void => {
    workbench().catch(() => undefined); // logged above
  };

  const services = new LazyTreeProvider<ServicesNode>(() => workbench().then((w) => w.servicesTree), {
    rows: () => CONTRACT_SERVICE_ROWS.map((service) => ({ kind: 'service', service })),
    item: (node) => (node.kind === 'service' ? serviceTreeItem(node.service) : undefined),
  });
  // Not before the env file was read: until then the view would say there is none, and a command would
  // act without the environment (a Send would go out without its variables and auth).
  const withFilesRead = afterFilesRead(workbench, (read) => {
    void vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: 'API Workbench: looking for the environment files in this workspace…' }, () => read);
  });
  const environments = new LazyTreeProvider(() => withFilesRead().then((w) => w.environmentsTree));
  const requests = new LazyTreeProvider(() => workbench().then((w) => w.requestsTree));
  const history = new LazyTreeProvider(() => workbench().then((w) => w.history.tree));
  context.subscriptions.push(
    output, services, environments, requests, history,
    vscode.window.createTreeView('apiWorkbench.services', { treeDataProvider: services, showCollapseAll: true }),
    vscode.window.createTreeView('apiWorkbench.environments', { treeDataProvider: environments }),
    vscode.window.createTreeView('apiWorkbench.requests', { treeDataProvider: requests, showCollapseAll: true }),
    // Two selected entries compare with each other (the command gets the selection as its second argument).
    vscode.window.createTreeView('apiWorkbench.history', { treeDataProvider: history, canSelectMany: true }),
    // An .http document wants its language server (started by the workbench): load as soon as one is open.
    vscode.workspace.onDidOpenTextDocument((document) => {
      if (document.languageId === 'http') loadSoon();
    }),
  );
  registerCommands(context, withFilesRead);
  // Activated by onLanguage:http: the document is already open.
  if (vscode.workspace.textDocuments.some((document) => document.languageId === 'http')) loadSoon();

  const part = <K extends keyof Workbench>(key: K): Workbench[K] => {
    if (!loaded) throw new Error('API Workbench is still loading: await the test API\'s `ready` first');
    return loaded[key];
  };
  return {
    // Loads the workbench if nothing has yet, then waits for the env file and the language client.
    get ready() { return workbench().then((w) => w.ready); },
    catalog: () => part('catalogs').current,
    get servicesTree() { return part('servicesTree'); },
    get environmentsTree() { return part('environmentsTree'); },
    get requestsTree() { return part('requestsTree'); },
    get environments() { return part('environments'); },
    get scratches() { return part('scratches'); },
    get results() { return part('results'); },
    get sender() { return part('sender'); },
    get history() { return part('history'); },
    get compare() { return part('compare'); },
  };
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
