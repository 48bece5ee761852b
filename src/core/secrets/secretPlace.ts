// Where an editor secret was entered, and what it is bound to, as the secret store keeps them. A secret is
// kept under the identity of its place — the workspace folder, the env file in it, the environment — and
// its `<auth id>.<field>` key; its stored text is the value with the origins it was entered or obtained
// for (bindings.ts, originsFor), so a workspace whose env file points the same names at another host
// finds nothing of its own, and is asked before anything is reused there (the editor's ScopedSecretStore).
// Keys of the first versions, `<environment>/<auth id>.<field>`, have no place and no origins: they are
// never handed out as they are (legacyKeyOf finds them for the question).

export interface SecretPlace {
  /** The workspace folder's URI ('' when no folder holds the env file). */
  readonly folder: string;
  /** The env file, relative to its folder. */
  readonly envFile: string;
  readonly environment: string;
}

const PLACED = 'placed:';
const RECORD = 'apiwb-bound-secret:1:';

/** The store key of `key` (`engagement.password`) entered at `place`. */
export function placedKey(place: SecretPlace, key: string): string {
  return `${PLACED}${JSON.stringify([place.folder, place.envFile, place.environment])}/${key}`;
}

/** The place and key of a store key written by placedKey; undefined for any other key. */
export function parsePlacedKey(stored: string): { place: SecretPlace; key: string } | undefined {
  if (!stored.startsWith(PLACED)) return undefined;
  // The JSON array ends at a `]/` that is not inside one of its strings: the first one at which it parses.
  for (let at = stored.indexOf(']/', PLACED.length); at >= 0; at = stored.indexOf(']/', at + 1)) {
    try {
      const parts = JSON.parse(stored.slice(PLACED.length, at + 1)) as unknown;
      if (Array.isArray(parts) && parts.length === 3 && parts.every((p) => typeof p === 'string')) {
        const [folder, envFile, environment] = parts as [string, string, string];
        return { place: { folder, envFile, environment }, key: stored.slice(at + 2) };
      }
    } catch {
      // Not the end of the array yet.
    }
  }
  return undefined;
}

/** The key the first versions kept `key` of `environment` under (no workspace, no env file, no origins). */
export function legacyKeyOf(environment: string, key: string): string {
  return `${environment}/${key}`;
}

interface BoundValue {
  readonly value: string;
  /** The origins it may go to; undefined for a value stored without them (a first version's). */
  readonly origins?: readonly string[];
}

/** The text stored for a value bound to `origins`. */
export function boundRecord(value: string, origins: readonly string[]): string {
  return `${RECORD}${JSON.stringify({ value, origins: [...new Set(origins)].sort() })}`;
}

/** A stored text read back: a bound record, or a plain value (origins unknown). */
export function readBound(stored: string): BoundValue {
  if (!stored.startsWith(RECORD)) return { value: stored };
  try {
    const parsed = JSON.parse(stored.slice(RECORD.length)) as { value?: unknown; origins?: unknown };
    if (typeof parsed.value === 'string' && Array.isArray(parsed.origins) && parsed.origins.every((o) => typeof o === 'string')) {
      return { value: parsed.value, origins: parsed.origins };
    }
  } catch {
    // A damaged record binds its text to nothing.
  }
  return { value: stored, origins: [] };
}

/** "folder/env file, environment 'x'" for questions (no value). */
export function placeWords(place: SecretPlace): string {
  const folder = place.folder ? `${decodeURIComponent(place.folder.replace(/^[a-z-]+:\/\/[^/]*/i, ''))}/` : '';
  return `${folder}${place.envFile}, environment '${place.environment}'`;
}
