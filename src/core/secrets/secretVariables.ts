// Which APIWB_SECRET_* variable gives which secret, one-to-one: a variable is read for a secret only when
// no other secret could have the same name. The names (secretStore.ts) upper-case a name and write every
// other character as `_`, which two names can share: `prod-eu` and `prod.eu`, `Svc` and `svc`; an auth id
// `production--svc` is read as APIWB_SECRET_PRODUCTION__SVC_<FIELD>, environment `production`'s own name for
// its auth `svc`; an auth id `proxy` would read the proxy's APIWB_SECRET_PROXY_PASSWORD. So a name is read
// only when
//   - its field is one a variable gives (PASSWORD, SERVICE_KEY, TOKEN: what sign-in obtains is not read),
//   - each of its environment and auth id parts starts and ends with a letter or digit and holds no `__`
//     (the environment's own names are `<ENVIRONMENT>__<AUTH ID>_<FIELD>`),
//   - no other environment (for an environment's own name) and no other auth id of the env file, in any of
//     its environments, gives the same part,
//   - it is not a name the product keeps for something else (the proxy password, certificate passphrases).
// A variable refused is never read: it stays a secret bound to no origin (bindEnvironmentSecrets), so it
// is masked and never sent, and the run says why (refusedWords), naming the variable, never its value.
import type { Environment } from '../env/model';
import { environmentSecretEnvVarName, envPart as part, secretEnvVarName } from './secretStore';

/** The fields a variable may give: what a user enters. */
export const VARIABLE_FIELDS: ReadonlySet<string> = new Set(['password', 'service_key', 'token']);

/** The name the product keeps for the proxy password: never an auth entry's (the passphrases' end in _PASSPHRASE, no field's). */
export const PROXY_PASSWORD_VARIABLE = 'APIWB_SECRET_PROXY_PASSWORD';

/** A variable that would give a secret: its name, and why it is not read (undefined: it is read). */
export interface SecretVariable {
  readonly name: string;
  readonly refused?: string;
}

/** Why a part cannot be told from the separators around it (undefined: it can). */
function partProblem(kind: string, text: string): string | undefined {
  const written = part(text);
  if (written === '' || written.startsWith('_') || written.endsWith('_') || written.includes('__')) {
    return `the ${kind} '${text}', written as ${written === '' ? 'nothing' : written} (upper case, every other character as _), ` +
      'can be read as another environment\'s or auth id\'s: a name is read only when it starts and ends with a letter or digit and holds no __';
  }
  return undefined;
}

export class SecretVariables {
  private readonly authIds = new Map<string, Set<string>>();
  private readonly environments = new Map<string, Set<string>>();

  /** `environments`: every environment of the env file (their names and auth ids are the keys a variable could mean). */
  constructor(environments: readonly Pick<Environment, 'name' | 'auth'>[] = []) {
    for (const environment of environments) {
      add(this.environments, part(environment.name), environment.name);
      for (const authId of Object.keys(environment.auth)) add(this.authIds, part(authId), authId);
    }
  }

  /**
   * The variables that would give `field` of auth `authId`: with `environment`, its own name first, then
   * the plain one; each with why it is not read, when it is not.
   */
  variablesFor(authId: string, field: string, environment?: string): SecretVariable[] {
    const plain = this.plainVariable(authId, field);
    if (environment === undefined) return [plain];
    const own = environmentSecretEnvVarName(environment, authId, field);
    const refused = plain.refused ?? partProblem('environment', environment) ?? shared(this.environments, part(environment), 'environments', own);
    return [{ name: own, ...(refused ? { refused } : {}) }, plain];
  }

  /**
   * The one variable `apiwb run` reads `field` of auth `authId` from (no environment's own name), with why
   * it is not read, when it is not: generated code reads this one, or is refused for the same reason.
   */
  plainVariable(authId: string, field: string): SecretVariable {
    const name = secretEnvVarName(authId, field);
    const refused = this.authProblem(authId, field, name);
    return { name, ...(refused ? { refused } : {}) };
  }

  /** The variable that gives it, or undefined (none is set, or none may be read). */
  valueOf(env: Readonly<Record<string, string | undefined>>, authId: string, field: string, environment?: string): string | undefined {
    for (const variable of this.variablesFor(authId, field, environment)) {
      const value = env[variable.name];
      if (!variable.refused && value) return value;
    }
    return undefined;
  }

  /** What to do when nothing gives it: the variable to set, or why none can. */
  hint(authId: string, field: string, environment?: string): string {
    const readable = this.variablesFor(authId, field, environment).filter((v) => !v.refused).map((v) => v.name);
    if (readable.length > 0) return `set the environment variable ${readable.join(' or ')}`;
    const why = this.variablesFor(authId, field, environment)[0]?.refused ?? '';
    return `no environment variable can give it: ${why}`;
  }

  private authProblem(authId: string, field: string, plain: string): string | undefined {
    if (!VARIABLE_FIELDS.has(field)) return `the ${field.replace('_', ' ')} of a sign-in is not read from a variable`;
    if (plain === PROXY_PASSWORD_VARIABLE) return `${plain} is the proxy password, never an auth entry's: rename the auth id '${authId}'`;
    return partProblem('auth id', authId) ?? shared(this.authIds, part(authId), 'auth ids', plain);
  }
}

function add(map: Map<string, Set<string>>, key: string, name: string): void {
  let names = map.get(key);
  if (!names) map.set(key, (names = new Set()));
  names.add(name);
}

/** Why `name` is not read when two names of the env file give it (undefined: one does). */
function shared(map: ReadonlyMap<string, ReadonlySet<string>>, key: string, kind: string, name: string): string | undefined {
  const names = [...(map.get(key) ?? [])].sort();
  if (names.length < 2) return undefined;
  return `the ${kind} ${names.map((n) => `'${n}'`).join(' and ')} of the env file all give ${name}, so it is read for none of them: rename all but one`;
}

/** One line per variable set that would give a secret of `environment` but is not read, and why. */
export function refusedWords(variables: SecretVariables, env: Readonly<Record<string, string | undefined>>, environment: Pick<Environment, 'name' | 'auth'>): string[] {
  const lines = new Set<string>();
  for (const authId of Object.keys(environment.auth)) {
    for (const field of VARIABLE_FIELDS) {
      for (const variable of variables.variablesFor(authId, field, environment.name)) {
        if (variable.refused && env[variable.name]) lines.add(`${variable.name} is not read for auth '${authId}' of environment '${environment.name}': ${variable.refused}.`);
      }
    }
  }
  return [...lines];
}
