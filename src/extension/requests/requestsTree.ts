// The Requests view: scratch files (extension storage) and collections (the workspace's .http files,
// grouped by folder), each expanding to its requests. Opening a request reveals its line.
import * as vscode from 'vscode';
import { parseHttpFile, writtenRequestLine } from '../../core/httpfile';
import type { ScratchFiles } from './scratchFiles';
import { withAccessibleName } from '../treeItems';

export type RequestsNode =
  | { readonly kind: 'group'; readonly group: 'scratches' | 'collections' }
  | { readonly kind: 'folder'; readonly folder: string; readonly files: readonly vscode.Uri[] }
  | { readonly kind: 'file'; readonly uri: vscode.Uri; readonly scratch: boolean }
  | { readonly kind: 'request'; readonly uri: vscode.Uri; readonly index: number; readonly label: string; readonly line: number; readonly detail: string }
  | { readonly kind: 'empty'; readonly text: string };

export class RequestsTreeProvider implements vscode.TreeDataProvider<RequestsNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<RequestsNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly disposables: vscode.Disposable[] = [this.changed];

  constructor(private readonly scratches: ScratchFiles) {
    const watcher = vscode.workspace.createFileSystemWatcher('**/*.{http,rest}');
    this.disposables.push(
      watcher, watcher.onDidCreate(() => this.refresh()), watcher.onDidDelete(() => this.refresh()), watcher.onDidChange(() => this.refresh()),
      scratches.onDidChange(() => this.refresh()),
      vscode.workspace.onDidSaveTextDocument((d) => { if (d.languageId === 'http') this.refresh(); }),
    );
  }

  refresh(): void { this.changed.fire(undefined); }

  dispose(): void { for (const d of this.disposables) d.dispose(); }

  async getChildren(node?: RequestsNode): Promise<RequestsNode[]> {
    if (!node) return [{ kind: 'group', group: 'scratches' }, { kind: 'group', group: 'collections' }];
    switch (node.kind) {
      case 'group': {
        if (node.group === 'scratches') {
          const files = await this.scratches.list();
          return files.length ? files.map((uri): RequestsNode => ({ kind: 'file', uri, scratch: true })) : [{ kind: 'empty', text: 'No scratches yet: use "New Request Scratch" on an operation' }];
        }
        const files = await vscode.workspace.findFiles('**/*.{http,rest}', '**/node_modules/**', 2000);
        if (files.length === 0) return [{ kind: 'empty', text: 'No .http files in the workspace' }];
        const byFolder = new Map<string, vscode.Uri[]>();
        for (const uri of files) {
          const folder = folderLabel(vscode.Uri.joinPath(uri, '..'));
          byFolder.set(folder, [...(byFolder.get(folder) ?? []), uri]);
        }
        return [...byFolder.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([folder, list]): RequestsNode => ({
          kind: 'folder', folder, files: list.sort((a, b) => a.path.localeCompare(b.path)),
        }));
      }
      case 'folder':
        return node.files.map((uri): RequestsNode => ({ kind: 'file', uri, scratch: false }));
      case 'file': {
        const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(node.uri));
        return parseHttpFile(text).requests.map((r): RequestsNode => {
          const written = writtenRequestLine(r);
          return { kind: 'request', uri: node.uri, index: r.index, label: r.name ?? written, line: r.range.start.line, detail: written };
        });
      }
      default:
        return [];
    }
  }

  getTreeItem(node: RequestsNode): vscode.TreeItem {
    return withAccessibleName(this.treeItem(node));
  }

  private treeItem(node: RequestsNode): vscode.TreeItem {
    switch (node.kind) {
      case 'group': {
        const item = new vscode.TreeItem(node.group === 'scratches' ? 'Scratches' : 'Collections', vscode.TreeItemCollapsibleState.Expanded);
        item.id = `group:${node.group}`;
        item.iconPath = new vscode.ThemeIcon(node.group === 'scratches' ? 'notebook' : 'library');
        item.tooltip = node.group === 'scratches' ? 'Scratch .http files kept in the extension storage' : 'The workspace\'s .http files, reviewable in git';
        return item;
      }
      case 'folder': {
        const item = new vscode.TreeItem(node.folder, vscode.TreeItemCollapsibleState.Expanded);
        item.iconPath = vscode.ThemeIcon.Folder;
        item.contextValue = 'collection';
        return item;
      }
      case 'file': {
        const item = new vscode.TreeItem(node.uri, vscode.TreeItemCollapsibleState.Collapsed);
        item.contextValue = node.scratch ? 'scratchFile' : 'collectionFile';
        item.command = { command: 'vscode.open', title: 'Open', arguments: [node.uri] };
        return item;
      }
      case 'request': {
        const item = new vscode.TreeItem(node.label);
        // An unnamed request is labelled by its request line already.
        if (node.detail !== node.label) item.description = node.detail;
        item.contextValue = 'request';
        item.iconPath = new vscode.ThemeIcon('symbol-event');
        const position = new vscode.Position(node.line, 0);
        item.command = { command: 'vscode.open', title: 'Open', arguments: [node.uri, { selection: new vscode.Range(position, position) }] };
        return item;
      }
      case 'empty': {
        const item = new vscode.TreeItem(node.text);
        item.iconPath = new vscode.ThemeIcon('info');
        return item;
      }
    }
  }
}

/** A folder relative to the workspace; the workspace folder itself by its name. */
function folderLabel(folder: vscode.Uri): string {
  const root = vscode.workspace.getWorkspaceFolder(folder);
  if (root && root.uri.toString() === folder.toString()) return root.name;
  return vscode.workspace.asRelativePath(folder, false);
}
