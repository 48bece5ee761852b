// REST Client's `rest-client.environmentVariables` setting ({ "$shared": {...}, "<env>": { "<name>": value } },
// in user, workspace and folder settings) as environments of http-client.env.json. Later scopes win per
// variable (user < workspace < workspace folder), as VS Code reads settings. REST Client's
// `{{$shared name}}` is replaced by that $shared value (an env-file value is used as written: a `{{…}}`
// in it would be sent as it is), and a value still holding a `{{…}}` (`{{$processEnv X}}`, another
// variable) is left out with why. A value that
// must not be written to a file — the env-file check's own rule (isLiteralSecret: a literal under a secret
// name, or a JWT) — is handed back for the secret store instead, so the file written always loads.
import { isLiteralSecret } from '../secrets/vocabulary';
import { isJsonObject } from '../json/numberText';

export interface RestClientSource {
  /** 'user settings', 'workspace settings', …: for the report. */
  readonly scope: string;
  readonly value: unknown;
}

export interface RestClientSecret {
  readonly environment: string;
  readonly name: string;
  readonly value: string;
}

export interface RestClientEnvironments {
  /** Per environment (`$shared` included), the variables to write into the env file. */
  readonly environments: Readonly<Record<string, Readonly<Record<string, string | number | boolean>>>>;
  /** The values that look secret: for SecretStorage, never for the file. */
  readonly secrets: readonly RestClientSecret[];
  /** `<env>.<name>` left out, with why (names only). */
  readonly skipped: readonly string[];
  /** The scopes that held the setting. */
  readonly scopes: readonly string[];
}

const SHARED_REFERENCE = /\{\{\s*\$shared\s+([^\s{}]+)\s*\}\}/g;
const ANY_REFERENCE = /\{\{[^}]*\}\}/;

export function restClientEnvironments(sources: readonly RestClientSource[]): RestClientEnvironments {
  const merged = new Map<string, Map<string, unknown>>();
  const skipped: string[] = [];
  const scopes: string[] = [];
  for (const source of sources) {
    if (source.value === undefined) continue;
    if (!isJsonObject(source.value)) {
      skipped.push(`${source.scope}: not an object of environments`);
      continue;
    }
    scopes.push(source.scope);
    for (const [environment, variables] of Object.entries(source.value)) {
      if (!isJsonObject(variables)) {
        skipped.push(`${environment} (${source.scope}): not an object of variables`);
        continue;
      }
      const target = merged.get(environment) ?? new Map<string, unknown>();
      for (const [name, value] of Object.entries(variables)) target.set(name, value);
      merged.set(environment, target);
    }
  }
  const environments: Record<string, Record<string, string | number | boolean>> = {};
  const secrets: RestClientSecret[] = [];
  const shared = merged.get('$shared') ?? new Map<string, unknown>();
  for (const [environment, variables] of merged) {
    const kept: Record<string, string | number | boolean> = {};
    for (const [name, value] of variables) {
      if (typeof value === 'number' || typeof value === 'boolean') {
        kept[name] = value;
      } else if (typeof value !== 'string') {
        skipped.push(`${environment}.${name}: not a text, number or true/false`);
      } else {
        const missing: string[] = [];
        const text = value.replace(SHARED_REFERENCE, (whole, sharedName: string) => {
          const sharedValue = shared.get(sharedName);
          if (typeof sharedValue === 'string' || typeof sharedValue === 'number' || typeof sharedValue === 'boolean') return String(sharedValue);
          missing.push(sharedName);
          return whole;
        });
        const fromSecret = [...value.matchAll(SHARED_REFERENCE)].some((m) => { const v = shared.get(m[1]!); return typeof v === 'string' && isLiteralSecret(m[1]!, v); });
        if (missing.length > 0) skipped.push(`${environment}.${name}: refers to $shared ${missing.join(', ')}, which is not defined`);
        else if (ANY_REFERENCE.test(text)) skipped.push(`${environment}.${name}: refers to ${ANY_REFERENCE.exec(text)![0]}, which a value of the env file cannot (write it in the request instead)`);
        else if (fromSecret || isLiteralSecret(name, text)) secrets.push({ environment, name, value: text });
        else kept[name] = text;
      }
    }
    environments[environment] = kept;
  }
  return { environments, secrets, skipped, scopes };
}

/**
 * The credential store's key of a secret variable (`token.variable`): the `<id>.<field>` keys of
 * ScopedSecretStore, whose field `variable` is bound to its environment's origins (bindings.ts).
 */
export function secretVariableKey(name: string): string {
  return `${name}.variable`;
}
