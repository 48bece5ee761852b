// The SecretStore port: the only place a password, service key or token may live. The extension adapts
// VS Code SecretStorage to it, the CLI adapts environment variables, tests use the in-memory store.
// Keys are `<authId>.<field>` (see secretKey) so every adapter can map them the same way.
import { readBound } from './secretPlace';

export interface SecretStore {
  get(key: string): Promise<string | undefined>;
  set(key: string, value: string): Promise<void>;
  delete(key: string): Promise<void>;
  /** Every key currently held (for "forget all credentials" and for redaction of known values). */
  keys(): Promise<readonly string[]>;
  /**
   * For a key `get` has no value for HERE, a value kept elsewhere (another workspace or env file, an
   * earlier version's key, origins the env file no longer names), handed out only once the user has said
   * it may go where it would now go. Asked only when a secret is about to be used (sign-in, a send), never
   * to show a state. Absent: nothing is kept elsewhere.
   */
  adopt?(key: string): Promise<string | undefined>;
  /**
   * This store held at the place it serves now (the editor's: workspace folder, env file, environment),
   * for work that may end after the user switched: what it reads and writes stays at that place. Absent:
   * the store serves one place only.
   */
  pinned?(): PinnedSecrets;
}

/** A store held at one place, and the text naming that place (no value): work in flight is keyed by it. */
export interface PinnedSecrets {
  readonly store: SecretStore;
  readonly place: string;
}

/** The secret fields an auth entry can have. Input secrets are typed by the user; obtained ones come from sign-in. */
export type SecretField = 'password' | 'service_key' | 'token' | 'access_token' | 'session';

export function secretKey(authId: string, field: SecretField): string {
  return `${authId}.${field}`;
}

/** `APIWB_SECRET_<AUTH ID>_<FIELD>`: upper-cased, every non-alphanumeric character becomes `_`. */
export function secretEnvVarName(authId: string, field: string): string {
  return `APIWB_SECRET_${envPart(authId)}_${envPart(field)}`;
}

/**
 * `APIWB_SECRET_<ENVIRONMENT>__<AUTH ID>_<FIELD>`: the same secret for one environment only, asked
 * before the plain name where a run holds two environments' credentials (`apiwb compare`).
 */
export function environmentSecretEnvVarName(environment: string, authId: string, field: string): string {
  return `APIWB_SECRET_${envPart(environment)}__${envPart(authId)}_${envPart(field)}`;
}

/** THE rule of a name as a variable writes it: upper-cased, every character but A-Z and 0-9 as `_`. */
export function envPart(text: string): string {
  return text.toUpperCase().replace(/[^A-Z0-9]/g, '_');
}

export class MemorySecretStore implements SecretStore {
  private readonly values = new Map<string, string>();

  constructor(initial: Readonly<Record<string, string>> = {}) {
    for (const [key, value] of Object.entries(initial)) this.values.set(key, value);
  }

  get(key: string): Promise<string | undefined> {
    return Promise.resolve(this.values.get(key));
  }

  set(key: string, value: string): Promise<void> {
    this.values.set(key, value);
    return Promise.resolve();
  }

  delete(key: string): Promise<void> {
    this.values.delete(key);
    return Promise.resolve();
  }

  keys(): Promise<readonly string[]> {
    return Promise.resolve([...this.values.keys()]);
  }
}

/** Every secret value the store holds, so a Redactor can scrub it from any text. */
export async function knownSecretValues(store: SecretStore): Promise<string[]> {
  const values: string[] = [];
  for (const key of await store.keys()) {
    const value = await store.get(key);
    // A value kept with its origins is stored as a record (secretPlace.ts): the value is what is known.
    if (value) values.push(readBound(value).value);
  }
  return values;
}
