// The baseline of bench/activation.ts: the smallest useful extension (a tree view and a command).
import * as vscode from 'vscode';

export function activate(context: vscode.ExtensionContext): void {
  const tree: vscode.TreeDataProvider<string> = { getChildren: () => ['a', 'b', 'c'], getTreeItem: (s) => new vscode.TreeItem(s) };
  context.subscriptions.push(
    vscode.window.createTreeView('baseline.view', { treeDataProvider: tree }),
    vscode.commands.registerCommand('baseline.hello', () => vscode.window.showInformationMessage('hello')),
  );
}
