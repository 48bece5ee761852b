// A tree provider that stands in for one that is not loaded yet. Activation registers the views at once
// and loads the workbench (catalog schemas, HTTP client, language client) only when a view or command
// first needs it, so activate() stays cheap. Events of the real provider are forwarded.
import * as vscode from 'vscode';

export class LazyTreeProvider<T> implements vscode.TreeDataProvider<T>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<T | T[] | undefined | null | void>();
  readonly onDidChangeTreeData = this.changed.event;
  private forwarding: vscode.Disposable | undefined;
  private real: vscode.TreeDataProvider<T> | undefined;

  constructor(private readonly load: () => Promise<vscode.TreeDataProvider<T>>) {}

  private async provider(): Promise<vscode.TreeDataProvider<T>> {
    if (this.real) return this.real;
    const real = await this.load();
    if (!this.real) {
      this.real = real;
      this.forwarding = real.onDidChangeTreeData?.((node) => this.changed.fire(node));
    }
    return real;
  }

  async getChildren(node?: T): Promise<T[]> {
    return (await (await this.provider()).getChildren(node)) ?? [];
  }

  async getTreeItem(node: T): Promise<vscode.TreeItem> {
    return (await this.provider()).getTreeItem(node);
  }

  dispose(): void {
    this.forwarding?.dispose();
    this.changed.dispose();
  }
}
