// Composition root: build the parts, register them as disposables, return the test API. Nothing else.
import * as vscode from 'vscode';
import { createCatalog } from '../core/catalog';
import { ServicesTreeProvider } from './servicesTree';
import { registerCommands } from './commands';
import type { ApiWorkbenchTestApi } from './testApi';

export function activate(context: vscode.ExtensionContext): ApiWorkbenchTestApi {
  const catalog = createCatalog();
  const servicesTree = new ServicesTreeProvider(catalog);
  context.subscriptions.push(
    servicesTree,
    vscode.window.createTreeView('apiWorkbench.services', { treeDataProvider: servicesTree, showCollapseAll: true }),
  );
  registerCommands(context, { servicesTree });
  return {
    ready: Promise.resolve(),
    catalog: () => catalog,
    servicesTree,
  };
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
