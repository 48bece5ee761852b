// Environments: named sets of variables plus the auth entries requests refer to with {{$auth.token("id")}}.
// Read from a JetBrains-style `http-client.env.json` shared by the extension and the CLI. No secret here:
// the secret parts of an auth entry come from the SecretStore.
import type { EnvironmentNetwork } from './networkConfig';

/**
 * - password-grant: JetBrains `"Type": "OAuth2", "Grant Type": "Password"` (engagement, seed 000 §5.1).
 * - basic-api-key: our `"Type": "Basic+X-API-Key"` (fundraising system auth, seed 001 §5.1).
 * - jwt-bearer: our `"Type": "JWT Bearer"`, a token pasted by the user (seed 001 §5.2).
 * - unsupported: a JetBrains OAuth2 entry with a grant these services do not use; kept so the file still loads.
 */
export type AuthKind = 'password-grant' | 'basic-api-key' | 'jwt-bearer' | 'unsupported';

export interface AuthEntry {
  readonly id: string;
  readonly kind: AuthKind;
  /** Where it was declared: JetBrains' own section, or ours (which JetBrains and httpYac ignore). */
  readonly section: 'Security.Auth' | 'ApiWorkbench.Auth';
  /** Field values as written, `{{variables}}` already resolved against the environment. */
  readonly tokenUrl?: string;
  readonly username?: string;
  readonly permissionName?: string;
  readonly tenantCode?: string;
  /** Why an unsupported entry cannot be used, in words. */
  readonly unsupportedReason?: string;
}

export interface Environment {
  readonly name: string;
  /** Plain variables ($shared merged underneath), all as strings. */
  readonly variables: Readonly<Record<string, string>>;
  readonly auth: Readonly<Record<string, AuthEntry>>;
  /** Its proxy, certificate authorities and client certificates, when the env file gives any (networkConfig.ts). */
  readonly network?: EnvironmentNetwork;
  /**
   * The variables whose value came from http-client.private.env.json (privateEnvLayer.ts): every one a
   * secret, bound by bindPrivateValues (secrets/bindings.ts); and that file, as shown in messages.
   */
  readonly privateVariables?: readonly string[];
  readonly privateFile?: string;
}

export interface EnvFile {
  readonly path: string;
  /** In file order, `$shared` excluded. */
  readonly names: readonly string[];
  readonly environments: Readonly<Record<string, Environment>>;
}

/**
 * The file's environment of that name, looked up as an own property only: `constructor`, `__proto__` or
 * `toString` name no environment (a plain object would hand back Object's own members).
 */
export function environmentNamed(file: EnvFile, name: string): Environment | undefined {
  return Object.hasOwn(file.environments, name) ? file.environments[name] : undefined;
}

/** The environment's auth entry of that id, an own property only (see environmentNamed). */
export function authEntryOf(environment: Environment, authId: string): AuthEntry | undefined {
  return Object.hasOwn(environment.auth, authId) ? environment.auth[authId] : undefined;
}

/** A problem with an env file, located as precisely as we can: file, environment, key, line and column. */
export class EnvFileError extends Error {
  constructor(
    readonly detail: string,
    readonly where: { file: string; env?: string; key?: string; line?: number; column?: number },
  ) {
    super(formatEnvError(detail, where));
    this.name = 'EnvFileError';
  }
}

function formatEnvError(detail: string, where: EnvFileError['where']): string {
  const position = where.line === undefined ? '' : `:${where.line}${where.column === undefined ? '' : `:${where.column}`}`;
  const scope = [
    where.env === undefined ? undefined : `environment '${where.env}'`,
    where.key === undefined ? undefined : `key '${where.key}'`,
  ].filter(Boolean).join(', ');
  return `${where.file}${position}: ${scope ? `${scope}: ` : ''}${detail}`;
}
