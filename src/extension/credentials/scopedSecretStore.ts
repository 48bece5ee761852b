// A view of the SecretStore scoped to one environment: `engagement.password` is kept as
// `<environment>/engagement.password`, so a password or token stored for `production` is never sent to
// `staging`'s host (both commonly name their auth entry `engagement`; seed 000 §5.2 has separate bases).
// vscode-free: the environment name comes from a function.
import type { SecretStore } from '../../core/secrets';

/** The key under which `key` of environment `scope` is kept in the underlying store. */
export function scopedSecretKey(scope: string, key: string): string {
  return `${scope}/${key}`;
}

export class ScopedSecretStore implements SecretStore {
  constructor(private readonly inner: SecretStore, private readonly scope: () => string) {}

  private prefix(): string {
    return scopedSecretKey(this.scope(), '');
  }

  get(key: string): Promise<string | undefined> {
    return this.inner.get(this.prefix() + key);
  }

  set(key: string, value: string): Promise<void> {
    return this.inner.set(this.prefix() + key, value);
  }

  delete(key: string): Promise<void> {
    return this.inner.delete(this.prefix() + key);
  }

  /** The keys of the current environment only, without the scope. */
  async keys(): Promise<readonly string[]> {
    const prefix = this.prefix();
    return (await this.inner.keys()).filter((k) => k.startsWith(prefix)).map((k) => k.slice(prefix.length));
  }
}
