// The SecretStore port on VS Code SecretStorage: the only place the extension keeps a password, service
// key or token. SecretStorage cannot list its keys, so the key NAMES (e.g. "engagement.password" — never
// values) are indexed in globalState for "forget all credentials" and for redaction of known values.
import type * as vscode from 'vscode';
import type { SecretStore } from '../../core/secrets';

const PREFIX = 'apiWorkbench.secret.';
const INDEX = 'apiWorkbench.secretKeyIndex';

export class SecretStorageStore implements SecretStore {
  /** Index updates are read-modify-write: chained, so two concurrent sets cannot lose a key. */
  private indexUpdates: Promise<void> = Promise.resolve();

  constructor(private readonly storage: vscode.SecretStorage, private readonly index: vscode.Memento) {}

  private updateIndex(change: (keys: string[]) => string[]): Promise<void> {
    const run = (): Thenable<void> => this.index.update(INDEX, change(this.indexed()));
    this.indexUpdates = this.indexUpdates.then(run, run);
    return this.indexUpdates;
  }

  get(key: string): Promise<string | undefined> {
    return Promise.resolve(this.storage.get(PREFIX + key));
  }

  async set(key: string, value: string): Promise<void> {
    await this.storage.store(PREFIX + key, value);
    await this.updateIndex((keys) => (keys.includes(key) ? keys : [...keys, key]));
  }

  async delete(key: string): Promise<void> {
    await this.storage.delete(PREFIX + key);
    await this.updateIndex((keys) => keys.filter((k) => k !== key));
  }

  keys(): Promise<readonly string[]> {
    return Promise.resolve(this.indexed());
  }

  private indexed(): string[] {
    return this.index.get<string[]>(INDEX, []);
  }
}
