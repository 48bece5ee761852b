// Composition root. activate() only registers the views and commands and returns the test API; the
// workbench behind them (workbench.ts: catalog schemas, HTTP client, language client) is loaded on first
// need, or right after activation, so activation stays cheap (bench/activation.ts measures it).
import * as vscode from 'vscode';
import { registerCommands } from './commands';
import { LazyTreeProvider } from './lazyTree';
import type { ApiWorkbenchTestApi } from './testApi';
import type { Workbench } from './workbench';

export function activate(context: vscode.ExtensionContext): ApiWorkbenchTestApi {
  const output = vscode.window.createOutputChannel('API Workbench');
  const log = (line: string): void => output.appendLine(`[${new Date().toISOString()}] ${line}`);
  let loading: Promise<Workbench> | undefined;
  let loaded: Workbench | undefined;
  // './workbench.js' is a bundle of its own (scripts/build.mjs), so activation never even parses it.
  const workbench = (): Promise<Workbench> => (loading ??= import('./workbench.js').then(
    (m) => (loaded = m.createWorkbench(context, log)),
    (error: unknown) => { loading = undefined; throw error; }, // a later command tries again
  ));

  const services = new LazyTreeProvider(() => workbench().then((w) => w.servicesTree));
  const environments = new LazyTreeProvider(() => workbench().then((w) => w.environmentsTree));
  const requests = new LazyTreeProvider(() => workbench().then((w) => w.requestsTree));
  const history = new LazyTreeProvider(() => workbench().then((w) => w.history.tree));
  context.subscriptions.push(
    output, services, environments, requests, history,
    vscode.window.createTreeView('apiWorkbench.services', { treeDataProvider: services, showCollapseAll: true }),
    vscode.window.createTreeView('apiWorkbench.environments', { treeDataProvider: environments }),
    vscode.window.createTreeView('apiWorkbench.requests', { treeDataProvider: requests, showCollapseAll: true }),
    // Two selected entries compare with each other (the command gets the selection as its second argument).
    vscode.window.createTreeView('apiWorkbench.history', { treeDataProvider: history, canSelectMany: true }),
  );
  registerCommands(context, workbench);

  // Load right after activation (an .http file wants its language server), but not during it.
  const ready = new Promise<void>((resolve) => setTimeout(resolve, 0)).then(() => workbench()).then((w) => w.ready);
  ready.catch((error: unknown) => log(`API Workbench failed to load: ${error instanceof Error ? error.stack ?? error.message : String(error)}`));

  const part = <K extends keyof Workbench>(key: K): Workbench[K] => {
    if (!loaded) throw new Error('API Workbench is still loading: await the test API\'s `ready` first');
    return loaded[key];
  };
  return {
    ready,
    catalog: () => part('catalogs').current,
    get servicesTree() { return part('servicesTree'); },
    get environmentsTree() { return part('environmentsTree'); },
    get requestsTree() { return part('requestsTree'); },
    get environments() { return part('environments'); },
    get scratches() { return part('scratches'); },
    get results() { return part('results'); },
    get sender() { return part('sender'); },
    get history() { return part('history'); },
  };
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
