// `apiwb run` and http-client.private.env.json, as the JetBrains HTTP Client CLI reads it beside the env
// file: its values override the env file's for the same environment (core/env/privateEnvLayer.ts), every
// one a secret — redacted from every line, --out file and report, and bound by the one binding rule
// (core/secrets/bindings.ts, bindPrivateFile) before anything is sent: every environment's values, each
// bound to its own environment's origins (a run holds them all, so another environment's is refused and masked). An auth entry's Password, Service
// Key or Token found there serves sign-in when no APIWB_SECRET_* variable gives it (a variable wins: it is
// what this invocation was given). Once per run, stderr says when git would commit the file
// (core/env/privateEnvGit.ts). The file is read, never written.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parseEnvFile } from '../core/env/loadEnvFile';
import type { Environment } from '../core/env/model';
import { PRIVATE_ENV_FILE_NAME } from '../core/env/privateEnv';
import { privateEnvAdvice, privateEnvCommit, privateEnvCommitWords } from '../core/env/privateEnvGit';
import { readPrivateEnvLayer } from '../core/env/privateEnvLayer';
import { selectEnvironment } from '../core/env/session';
import { bindPrivateFile, privateValuesOf, unprotectedPrivateValues, unprotectedPrivateWords, type BoundField, type PrivateAuthValue, type SecretBindings } from '../core/secrets/bindings';
import type { SecretStore } from '../core/secrets';
import type { Redactor } from '../core/secrets/redact';
import { SecretVariables } from '../core/secrets/secretVariables';

export interface RunEnvironment {
  readonly environment: Environment;
  /** Which APIWB_SECRET_* variable gives which secret, from the names of every environment of the env file. */
  readonly variables: SecretVariables;
  /** Every value the private file gives any environment (for the Redactor and the --out sink). */
  readonly privateValues: readonly string[];
  /**
   * Binds them where they may go in `guard` (the send boundary's), and answers the run's SecretStore:
   * `inner` first (APIWB_SECRET_*), then the auth entries' values of the private file.
   */
  secure(guard: SecretBindings, inner: SecretStore): SecretStore;
}

interface LoadOptions {
  /** A path as messages show it. */
  readonly shown: (path: string) => string;
  /** Learns every private value before anything is printed. */
  readonly redactor: Redactor;
  /** One line for stderr. */
  readonly warn: (line: string) => void;
}

const BOUND_FIELDS: ReadonlySet<string> = new Set<BoundField>(['password', 'service_key', 'token']);

/** The run's environment from `envPath` and, beside it, the private file when there is one. */
export async function loadRunEnvironment(envPath: string, name: string, { shown, redactor, warn }: LoadOptions): Promise<RunEnvironment> {
  const sharedText = readFileSync(envPath, 'utf8');
  const privatePath = join(dirname(envPath), PRIVATE_ENV_FILE_NAME);
  const layer = existsSync(privatePath) ? readPrivateEnvLayer(readFileSync(privatePath, 'utf8'), shown(privatePath), sharedText) : undefined;
  const file = parseEnvFile(sharedText, shown(envPath), layer);
  const environment = selectEnvironment(file, name);
  const variables = new SecretVariables(Object.values(file.environments));
  if (!layer) return { environment, variables, privateValues: [], secure: (_guard, inner) => inner };

  const authValuesOf = (environmentName: string): PrivateAuthValue[] => layer.authSecretsOf(environmentName)
    .filter((move) => BOUND_FIELDS.has(move.field))
    .map((move) => ({ authId: move.authId, field: move.field as BoundField, value: move.value }));
  const authValues = authValuesOf(name);
  // Only the run's own auth values serve its sign-ins; every environment's values are secrets of the run.
  const byKey = new Map(layer.authSecretsOf(name).map((move) => [move.key, move.value]));
  const environments = Object.values(file.environments);
  const privateValues = [...new Set(environments.flatMap((each) => privateValuesOf(each, authValuesOf(each.name))))];
  redactor.addKnownSecrets(privateValues);
  const unprotected = unprotectedPrivateWords(environment, unprotectedPrivateValues(environment, authValues));
  if (unprotected) warn(redactor.text(unprotected));
  const commit = await privateEnvCommit(privatePath);
  if (commit) warn(redactor.text(`warning: ${privateEnvCommitWords(layer.file, commit)}: ${privateEnvAdvice(commit)}.`));
  return {
    environment,
    variables,
    privateValues,
    secure: (guard, inner) => {
      bindPrivateFile(guard, environments, environment, authValuesOf);
      // A value the run deleted (a refused credential) is not handed out again from the file.
      const deleted = new Set<string>();
      return {
        get: async (key) => (await inner.get(key)) ?? (deleted.has(key) ? undefined : byKey.get(key)),
        set: (key, value) => {
          deleted.delete(key);
          return inner.set(key, value);
        },
        delete: (key) => {
          deleted.add(key);
          return inner.delete(key);
        },
        keys: async () => [...new Set([...(await inner.keys()), ...[...byKey.keys()].filter((key) => !deleted.has(key))])],
      };
    },
  };
}
