// A tree provider that stands in for one that is not loaded yet. Activation registers the views at once
// and loads the workbench (catalog schemas, HTTP client, language client) only when a view or command
// first needs it, so activate() stays cheap. Events of the real provider are forwarded. A view whose
// first level is known without the workbench (the Services view: FirstRows) shows it before the load.
import * as vscode from 'vscode';
import { afterRepliesSent } from './afterReplies';

/** A view's first level, answered while its real provider is not loaded. */
export interface FirstRows<T> {
  readonly rows: () => T[];
  /** The item of one of those rows; undefined for any other node (the real provider draws it). */
  readonly item: (node: T) => vscode.TreeItem | undefined;
}

export class LazyTreeProvider<T> implements vscode.TreeDataProvider<T>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<T | T[] | undefined | null | void>();
  readonly onDidChangeTreeData = this.changed.event;
  private forwarding: vscode.Disposable | undefined;
  private real: vscode.TreeDataProvider<T> | undefined;
  private loading: Promise<vscode.TreeDataProvider<T>> | undefined;
  private disposed = false;

  constructor(private readonly load: () => Promise<vscode.TreeDataProvider<T>>, private readonly firstRows?: FirstRows<T>) {}

  private provider(): Promise<vscode.TreeDataProvider<T>> {
    if (this.real) return Promise.resolve(this.real);
    return (this.loading ??= this.load().then((real) => {
      if (!this.real && !this.disposed) {
        this.real = real;
        this.forwarding = real.onDidChangeTreeData?.((node) => this.changed.fire(node));
      }
      return real;
    }, (error: unknown) => {
      this.loading = undefined; // the next request tries again
      throw error;
    }));
  }

  async getChildren(node?: T): Promise<T[]> {
    if (node === undefined && !this.real && this.firstRows) {
      const rows = this.firstRows.rows();
      // Everything below these rows needs the real provider: load it once they are out (sent to the
      // editor), so its change events reach the view even before anything is expanded. A failed load is
      // the loader's to report; expanding a row tries again.
      afterRepliesSent(() => { this.provider().catch(() => undefined); });
      return rows;
    }
    return (await (await this.provider()).getChildren(node)) ?? [];
  }

  async getTreeItem(node: T): Promise<vscode.TreeItem> {
    const early = this.real ? undefined : this.firstRows?.item(node);
    return early ?? (await this.provider()).getTreeItem(node);
  }

  dispose(): void {
    this.disposed = true;
    this.forwarding?.dispose();
    this.changed.dispose();
  }
}
