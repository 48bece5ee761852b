// A view of the SecretStore scoped to where a secret was entered: the workspace folder, the env file in it and
// the environment (core/secrets/secretPlace.ts), so `engagement.password` entered for `production` of one
// repository is never what another repository's `production` gets — both commonly name their environment
// and auth entry alike, and a cloned env file can point those names at any host. Each value is kept with
// the origins it is bound to (core/secrets/bindings.ts, originsFor) and handed out by `get` only while the
// env file still sends it there. Anything else — the same names in another workspace or env file, a key of
// the first versions (`<environment>/<auth id>.<field>`, no host recorded), an env file that now points
// elsewhere — is handed out by `adopt` only, once the user has answered a question naming both hosts.
// vscode-free: the place, the environment and the question come from functions.
import type { Environment } from '../../core/env/model';
import { authEntryOf } from '../../core/env/model';
import { environmentOrigins, originsFor, type BoundField } from '../../core/secrets/bindings';
import type { SecretStore } from '../../core/secrets';
import type { PinnedSecrets } from '../../core/secrets/secretStore';
import { boundRecord, legacyKeyOf, parsePlacedKey, placedKey, placeWords, readBound, type SecretPlace } from '../../core/secrets/secretPlace';

/** Where secrets are entered now: the env file's place, and its environment (for the origins). */
export interface SecretScope {
  readonly place: SecretPlace;
  readonly environment: Environment;
}

/** A value kept elsewhere that this place would send to other hosts: the user is asked first. */
export interface AdoptQuestion {
  /** `engagement.password` */
  readonly key: string;
  /** In words, naming both hosts (no value). */
  readonly message: string;
  /** The hosts it was entered or obtained for (empty: none recorded). */
  readonly was: readonly string[];
  /** The hosts it would go to from here. */
  readonly now: readonly string[];
  /** The button that says yes. */
  readonly accept: string;
}

type ConfirmAdopt = (question: AdoptQuestion) => Promise<boolean>;

/** The legacy key of `key` in `scope` (the first versions' `<environment>/<key>`). */
export function scopedSecretKey(scope: string, key: string): string {
  return legacyKeyOf(scope, key);
}

/** The origins a key of an auth entry may go to from `environment` (a session goes with its token). */
function originsOfKey(key: string, environment: Environment): string[] {
  const dot = key.lastIndexOf('.');
  const authId = dot < 0 ? key : key.slice(0, dot);
  const raw = dot < 0 ? '' : key.slice(dot + 1);
  const field: BoundField = raw === 'password' || raw === 'service_key' || raw === 'token' ? raw : 'access_token';
  return raw === 'password' || raw === 'service_key' || raw === 'token' || raw === 'access_token' || raw === 'session'
    ? originsFor(field, authEntryOf(environment, authId), environment)
    : environmentOrigins(environment);
}

function covers(bound: readonly string[], needed: readonly string[]): boolean {
  return needed.every((origin) => bound.includes(origin));
}

function hostsWords(origins: readonly string[]): string {
  return origins.length === 0 ? 'no host' : origins.join(', ');
}

function fieldOf(key: string): string {
  const raw = key.slice(key.lastIndexOf('.') + 1);
  return raw === 'service_key' ? 'service key' : raw === 'access_token' ? 'token' : raw;
}

export class ScopedSecretStore implements SecretStore {
  /**
   * `declined`: questions answered "no" in this session (this place's key ← where it was kept), not asked
   * again; a pinned view shares its store's.
   */
  constructor(
    private readonly inner: SecretStore,
    private readonly scope: () => SecretScope,
    private readonly confirm: ConfirmAdopt = () => Promise.resolve(false),
    private readonly declined = new Set<string>(),
  ) {}

  private mine(key: string): string {
    return placedKey(this.scope().place, key);
  }

  /**
   * This store at the place and environment in use now, whatever the user switches to later: a sign-in
   * keeps what it obtains, and binds it, for the scope it was asked in, never the one current when it ends.
   */
  pinned(): PinnedSecrets {
    const scope = this.scope();
    return { store: new ScopedSecretStore(this.inner, () => scope, this.confirm, this.declined), place: placedKey(scope.place, '') };
  }

  /** This place's value, only while the env file sends it where it was bound. */
  async get(key: string): Promise<string | undefined> {
    const stored = await this.inner.get(this.mine(key));
    if (stored === undefined) return undefined;
    const bound = readBound(stored);
    if (key.endsWith('.session')) return bound.value;
    return bound.origins && covers(bound.origins, originsOfKey(key, this.scope().environment)) ? bound.value : undefined;
  }

  set(key: string, value: string): Promise<void> {
    return this.inner.set(this.mine(key), boundRecord(value, originsOfKey(key, this.scope().environment)));
  }

  /** Keeps `value` for `key` at another place of this workspace (an import of its private env file). */
  setAt(scope: SecretScope, key: string, value: string): Promise<void> {
    return this.inner.set(placedKey(scope.place, key), boundRecord(value, originsOfKey(key, scope.environment)));
  }

  delete(key: string): Promise<void> {
    return this.inner.delete(this.mine(key));
  }

  /** The keys of this place only, without the place. */
  async keys(): Promise<readonly string[]> {
    const prefix = this.mine('');
    return (await this.inner.keys()).filter((k) => k.startsWith(prefix)).map((k) => k.slice(prefix.length));
  }

  /** A value kept for these names elsewhere, or bound to other hosts: handed out only when the user says so. */
  async adopt(key: string): Promise<string | undefined> {
    if (key.endsWith('.session')) return undefined;
    const { place, environment } = this.scope();
    const mine = placedKey(place, key);
    const now = originsOfKey(key, environment);
    const found = await this.keptElsewhere(place, key);
    if (!found || this.declined.has(`${mine}\u0000${found.storeKey}`)) return undefined;
    const was = found.bound.origins ?? [];
    const question = this.question(key, place, found.from, was, now);
    if (!(await this.confirm(question))) {
      this.declined.add(`${mine}\u0000${found.storeKey}`);
      return undefined;
    }
    await this.inner.set(mine, boundRecord(found.bound.value, found.storeKey === mine ? [...was, ...now] : now));
    // A token goes with its session (its expiry); a first version's key is moved, not copied.
    if (key.endsWith('.access_token')) {
      const session = await this.inner.get(found.storeKey.replace(/access_token$/, 'session'));
      if (session !== undefined) await this.inner.set(mine.replace(/access_token$/, 'session'), session);
    }
    if (found.from === 'legacy') await this.inner.delete(found.storeKey);
    return found.bound.value;
  }

  /** This place's own value bound elsewhere, else the same environment and key at another place, else a first version's key. */
  private async keptElsewhere(place: SecretPlace, key: string): Promise<{ storeKey: string; bound: ReturnType<typeof readBound>; from: SecretPlace | 'legacy' } | undefined> {
    const mine = placedKey(place, key);
    const own = await this.inner.get(mine);
    if (own !== undefined) return { storeKey: mine, bound: readBound(own), from: place };
    for (const storeKey of await this.inner.keys()) {
      const parsed = parsePlacedKey(storeKey);
      if (!parsed || parsed.key !== key || parsed.place.environment !== place.environment) continue;
      const stored = await this.inner.get(storeKey);
      if (stored !== undefined) return { storeKey, bound: readBound(stored), from: parsed.place };
    }
    const legacy = legacyKeyOf(place.environment, key);
    const old = await this.inner.get(legacy);
    return old === undefined ? undefined : { storeKey: legacy, bound: { value: readBound(old).value }, from: 'legacy' };
  }

  private question(key: string, place: SecretPlace, from: SecretPlace | 'legacy', was: readonly string[], now: readonly string[]): AdoptQuestion {
    const what = `The ${fieldOf(key)} of auth '${key.slice(0, key.lastIndexOf('.'))}'`;
    const here = placeWords(place);
    const whence = from === 'legacy'
      ? `was stored by an earlier version for environment '${place.environment}', without the host it is for`
      : from.folder === place.folder && from.envFile === place.envFile
        ? `was entered for ${hostsWords(was)}, and ${here}, now points it at ${hostsWords(now)}`
        : `was entered in ${placeWords(from)}, for ${hostsWords(was)}; ${here}, points the same names at ${hostsWords(now)}`;
    const message = `${what} ${whence}. Send it to ${hostsWords(now)}? (No: nothing is sent; sign in or enter it again for this workspace.)`;
    return { key, message, was, now, accept: `Send It to ${hostsWords(now)}` };
  }
}

/** Every secret the store holds with the origins it is bound to (a first version's value: none), for the send boundary. */
export async function heldSecrets(store: SecretStore): Promise<{ value: string; origins: readonly string[]; what: string }[]> {
  const held: { value: string; origins: readonly string[]; what: string }[] = [];
  for (const storeKey of await store.keys()) {
    if (storeKey.endsWith('.session')) continue;
    const stored = await store.get(storeKey);
    if (stored === undefined) continue;
    const bound = readBound(stored);
    const placed = parsePlacedKey(storeKey);
    const key = placed?.key ?? storeKey.slice(storeKey.indexOf('/') + 1);
    const where = placed ? placeWords(placed.place) : 'kept by an earlier version, host unknown';
    held.push({ value: bound.value, origins: bound.origins ?? [], what: `the ${fieldOf(key)} of auth '${key.slice(0, key.lastIndexOf('.'))}' (${where})` });
  }
  return held;
}
