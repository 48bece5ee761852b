// JetBrains' http-client.private.env.json as the JetBrains HTTP Client CLI reads it beside
// http-client.env.json: environments of the same shape, whose values override the shared file's for the
// same environment (the private `$shared`, then the private environment, over the shared file's own), and
// whose every value is a secret. The order, from weakest: shared $shared, shared environment, private
// $shared, private environment. Values an auth entry takes (its Password, Service Key or Token, written
// in the private file or referred to as "{{variable}}" by the shared file) are found by the plan of the
// editor's import (privateEnv.ts), the one rule of where such a value goes. Read only, never written.
import type { PrivateSecretMove } from './privateEnv';
import { planPrivateEnvImport } from './privateEnv';
import { readEnvJson, variablesOf, zodError } from './loadEnvFile';
import { envFileSchema } from './schema';

const SHARED = '$shared';

export interface PrivateEnvLayer {
  /** The private file, as messages show it. */
  readonly file: string;
  /** Its environments, in file order (`$shared` excluded). */
  readonly names: readonly string[];
  /** The variables it gives an environment: its `$shared`, then the environment's own over them. */
  variablesOf(environment: string): Record<string, string>;
  /** The values it gives an environment's auth entries (the environment's own over `$shared`'s). */
  authSecretsOf(environment: string): readonly PrivateSecretMove[];
}

/**
 * `text`: the private file; `sharedText`: http-client.env.json, read for the `{{variable}}` references of
 * its auth entries. Throws an EnvFileError naming the private file, with line and column, when it is not
 * a JSON object of environments.
 */
export function readPrivateEnvLayer(text: string, file: string, sharedText: string): PrivateEnvLayer {
  const { raw, locate } = readEnvJson(text, file);
  const top = envFileSchema.safeParse(raw);
  if (!top.success) throw zodError(top.error, file, undefined, [], locate);
  const environments = top.data;
  const moves = planPrivateEnvImport(text, sharedText).moves;
  return {
    file,
    names: Object.keys(environments).filter((name) => name !== SHARED),
    variablesOf: (environment) => ({
      ...variablesOf(environments[SHARED] ?? {}),
      ...(environment === SHARED || !Object.hasOwn(environments, environment) ? {} : variablesOf(environments[environment] ?? {})),
    }),
    authSecretsOf: (environment) => {
      const own = moves.filter((m) => m.environment === environment);
      const shared = moves.filter((m) => m.environment === SHARED && !own.some((o) => o.key === m.key));
      return [...own, ...shared];
    },
  };
}
