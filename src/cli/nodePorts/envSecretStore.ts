// The CLI's SecretStore: secrets come from environment variables only (APIWB_SECRET_<AUTH ID>_<FIELD>),
// and what sign-in obtains (access tokens) lives in memory for this run and is never written anywhere.
// Which variable gives an auth entry's secret is one rule, SecretVariables (core/secrets/secretVariables.ts):
// the store reads and bindEnvironmentSecrets binds only through it, so a name two secrets could share is
// neither read nor bound to any origin.
import type { Environment } from '../../core/env/model';
import { fieldWords, originsFor, type BoundField, type SecretBindings } from '../../core/secrets/bindings';
import { secretEnvVarName, type SecretStore } from '../../core/secrets/secretStore';
import { refusedWords, SecretVariables, VARIABLE_FIELDS } from '../../core/secrets/secretVariables';
import { remembered } from '../../core/text/remembered';

export const SECRET_ENV_PREFIX = 'APIWB_SECRET_';

export class EnvironmentSecretStore implements SecretStore {
  private readonly obtained = new Map<string, string>();
  private readonly deleted = new Set<string>();

  /**
   * `environment`: its own variables (environmentSecretEnvVarName) are asked first (`apiwb compare`'s two
   * sides). `variables`: the env file's names (all its environments), which tell a name two secrets share.
   */
  constructor(
    private readonly env: Readonly<Record<string, string | undefined>> = process.env,
    private readonly environment?: string,
    private readonly variables: SecretVariables = new SecretVariables(),
  ) {}

  get(key: string): Promise<string | undefined> {
    if (this.obtained.has(key)) return Promise.resolve(this.obtained.get(key));
    if (this.deleted.has(key)) return Promise.resolve(undefined);
    const dot = key.lastIndexOf('.');
    const field = dot < 0 ? '' : key.slice(dot + 1);
    // An auth entry's secret (and what sign-in obtains, never read from a variable): by the one rule.
    if (!key.startsWith('env:') && (VARIABLE_FIELDS.has(field) || OBTAINED_FIELDS.has(field))) {
      return Promise.resolve(this.variables.valueOf(this.env, key.slice(0, dot), field, this.environment));
    }
    // The network's own (`<certificate id>.passphrase`) and `env:<NAME>`.
    const value = this.env[envVarOf(key)];
    return Promise.resolve(value === '' ? undefined : value);
  }

  set(key: string, value: string): Promise<void> {
    this.deleted.delete(key);
    this.obtained.set(key, value);
    return Promise.resolve();
  }

  delete(key: string): Promise<void> {
    this.obtained.delete(key);
    this.deleted.add(key);
    return Promise.resolve();
  }

  /** Keys obtained in this run plus `env:<NAME>` for every APIWB_SECRET_* variable set. */
  keys(): Promise<readonly string[]> {
    const fromEnv = Object.keys(this.env).filter((name) => name.startsWith(SECRET_ENV_PREFIX) && this.env[name]).map((name) => `env:${name}`);
    return Promise.resolve([...this.obtained.keys(), ...fromEnv.filter((k) => !this.deleted.has(k))]);
  }
}

/** envVarOf's answers: a run asks for the same few keys on every request. */
const envVarNames = new Map<string, string>();

/** `engagement.password` → APIWB_SECRET_ENGAGEMENT_PASSWORD; `env:NAME` → NAME. */
function envVarOf(key: string): string {
  return remembered(envVarNames, key, 1_000, envVarNameOf);
}

function envVarNameOf(key: string): string {
  if (key.startsWith('env:')) return key.slice(4);
  const dot = key.lastIndexOf('.');
  return dot < 0 ? secretEnvVarName(key, '') : secretEnvVarName(key.slice(0, dot), key.slice(dot + 1));
}

/** What sign-in obtains: held for the run only, never read from a variable. */
const OBTAINED_FIELDS: ReadonlySet<string> = new Set(['access_token', 'session']);

/** Every APIWB_SECRET_* value, for the CLI's redactor: none of them may ever be printed. */
export function secretValuesFromEnvironment(env: Readonly<Record<string, string | undefined>> = process.env): string[] {
  return Object.entries(env)
    .filter(([name, value]) => name.startsWith(SECRET_ENV_PREFIX) && value)
    .map(([, value]) => value ?? '');
}

/** The fields an APIWB_SECRET_* variable can give an auth entry. */
const ENTERED_FIELDS: readonly BoundField[] = ['password', 'service_key', 'token'];

/**
 * Every APIWB_SECRET_* value of the run, bound before anything is sent: the variable of an auth entry of
 * the run's environment that SecretVariables lets it read, to where its field may go (originsFor); any
 * other one to nowhere (it is held, so it is scrubbed from output, and no request may carry it). Answers
 * one line per variable set for an auth entry of the environment that is not read, and why.
 */
export function bindEnvironmentSecrets(bindings: SecretBindings, env: Readonly<Record<string, string | undefined>>, environment: Environment, variables: SecretVariables = new SecretVariables([environment])): string[] {
  const used = new Set<string>();
  for (const [authId, entry] of Object.entries(environment.auth)) {
    for (const field of ENTERED_FIELDS) {
      // The environment's own variable (apiwb compare's sides) and the plain one both serve it.
      for (const { name, refused } of variables.variablesFor(authId, field, environment.name)) {
        const value = env[name];
        if (!value || refused) continue;
        used.add(name);
        bindings.bind(value, originsFor(field, entry, environment), `${fieldWords(field, authId)} (${name})`);
      }
    }
  }
  for (const [name, value] of Object.entries(env)) {
    if (name.startsWith(SECRET_ENV_PREFIX) && value && !used.has(name)) bindings.bind(value, [], `the value of ${name}`);
  }
  return refusedWords(variables, env, environment);
}
