// Request scratch files: `.http` files kept in the extension's global storage (not the workspace), one
// per "New request scratch", pre-filled from the catalog. Listed in the Requests view.
import * as vscode from 'vscode';
import type { Operation } from '../../core/catalog';
import { scratchForOperation } from '../../core/scratch/scratchTemplate';

export class ScratchFiles {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;

  constructor(private readonly storage: vscode.Uri) {}

  get folder(): vscode.Uri {
    return vscode.Uri.joinPath(this.storage, 'scratches');
  }

  async create(op: Operation): Promise<vscode.Uri> {
    await vscode.workspace.fs.createDirectory(this.folder);
    const existing = new Set((await this.list()).map((u) => u.path.split('/').pop()));
    let name = `${op.name}.http`;
    for (let n = 2; existing.has(name); n++) name = `${op.name}-${n}.http`;
    const uri = vscode.Uri.joinPath(this.folder, name);
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(scratchForOperation(op)));
    this.changed.fire();
    return uri;
  }

  async list(): Promise<vscode.Uri[]> {
    try {
      const entries = await vscode.workspace.fs.readDirectory(this.folder);
      return entries
        .filter(([name, type]) => type === vscode.FileType.File && /\.(http|rest)$/i.test(name))
        .map(([name]) => vscode.Uri.joinPath(this.folder, name))
        .sort((a, b) => a.path.localeCompare(b.path));
    } catch {
      return [];
    }
  }

  async delete(uri: vscode.Uri): Promise<void> {
    await vscode.workspace.fs.delete(uri);
    this.changed.fire();
  }

  dispose(): void {
    this.changed.dispose();
  }
}
