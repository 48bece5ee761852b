// JetBrains' http-client.private.env.json: the file where JetBrains HTTP Client users keep passwords and
// keys beside the shared env file, "not committed" only if .gitignore says so. This module plans the move
// of its values into the secret store, per environment and auth id, and nothing else: what it cannot
// place (a value no auth entry refers to) is listed as left behind, never guessed.
//
// Where a value goes:
//   <env>.Security.Auth.<id>.Password                → <env>/<id>.password
//   <env>.ApiWorkbench.Auth.<id>."Service Key"       → <env>/<id>.service_key
//   <env>.ApiWorkbench.Auth.<id>.Token               → <env>/<id>.token
//   <env>.<variable>, when the shared env file's auth entry <id> names it in one of those fields as
//   "{{variable}}" (the JetBrains way: "Password": "{{password}}")  → the same key as that field
import { readEnvJson } from './loadEnvFile';
import { EnvFileError } from './model';
import { isJsonObject } from '../json/numberText';
import { secretKey, type SecretField } from '../secrets/secretStore';

export const PRIVATE_ENV_FILE_NAME = 'http-client.private.env.json';

/** Auth entry fields that hold a secret, and the secret store field each one fills. */
const SECRET_FIELDS: Readonly<Record<string, SecretField>> = {
  password: 'password',
  'service key': 'service_key',
  token: 'token',
};

export interface PrivateSecretMove {
  readonly environment: string;
  readonly authId: string;
  readonly field: SecretField;
  /** The key in the environment-scoped store: `<authId>.<field>` (see ScopedSecretStore for the scope). */
  readonly key: string;
  /** Where the value was in the private file, for the report: `sandbox.Security.Auth.engagement.Password`. */
  readonly from: string;
  readonly value: string;
}

export interface LeftBehind {
  readonly environment: string;
  readonly from: string;
  readonly reason: string;
}

export interface PrivateEnvPlan {
  readonly moves: readonly PrivateSecretMove[];
  readonly leftBehind: readonly LeftBehind[];
}

type Json = Record<string, unknown>;

/**
 * `privateText`: the private file; `sharedText`: http-client.env.json (optional), read for the
 * `{{variable}}` references of its auth entries. Throws an EnvFileError naming the file, line and column
 * when it is not JSON.
 */
export function planPrivateEnvImport(privateText: string, sharedText?: string): PrivateEnvPlan {
  const privateFile = parseObject(privateText, PRIVATE_ENV_FILE_NAME);
  const shared = sharedText === undefined ? {} : parseObject(sharedText, 'http-client.env.json');
  const moves: PrivateSecretMove[] = [];
  const leftBehind: LeftBehind[] = [];
  const add = (move: Omit<PrivateSecretMove, 'key'>): void => {
    if (moves.some((m) => m.environment === move.environment && m.key === secretKey(move.authId, move.field))) {
      leftBehind.push({ environment: move.environment, from: move.from, reason: `a second value for ${move.authId}.${move.field}; the first one found is kept` });
      return;
    }
    moves.push({ ...move, key: secretKey(move.authId, move.field) });
  };

  for (const [environment, body] of Object.entries(privateFile)) {
    if (!isJsonObject(body)) {
      leftBehind.push({ environment, from: environment, reason: 'not an object of variables' });
      continue;
    }
    const references = variableReferences(environment, shared);
    for (const [name, value] of Object.entries(body)) {
      const from = `${environment}.${name}`;
      if (name === 'Security' || name === 'ApiWorkbench') {
        const auth = isJsonObject(body[name]) ? (body[name])['Auth'] : undefined;
        if (!isJsonObject(auth)) {
          leftBehind.push({ environment, from, reason: 'no Auth section inside' });
          continue;
        }
        for (const [authId, entry] of Object.entries(auth)) {
          if (!isJsonObject(entry)) {
            leftBehind.push({ environment, from: `${from}.Auth.${authId}`, reason: 'not an auth entry' });
            continue;
          }
          for (const [fieldName, fieldValue] of Object.entries(entry)) {
            const field = SECRET_FIELDS[fieldName.toLowerCase()];
            const where = `${from}.Auth.${authId}.${fieldName}`;
            if (!field) leftBehind.push({ environment, from: where, reason: 'not a secret field (Password, Service Key or Token); keep it in http-client.env.json' });
            else if (typeof fieldValue !== 'string' || fieldValue === '') leftBehind.push({ environment, from: where, reason: 'not a text value' });
            else add({ environment, authId, field, from: where, value: fieldValue });
          }
        }
        continue;
      }
      const target = references.get(name);
      if (!target) {
        leftBehind.push({ environment, from, reason: `no auth entry of http-client.env.json refers to {{${name}}} in a Password, Service Key or Token field` });
      } else if (typeof value !== 'string' || value === '') {
        leftBehind.push({ environment, from, reason: 'not a text value' });
      } else {
        add({ environment, authId: target.authId, field: target.field, from, value });
      }
    }
  }
  return { moves, leftBehind };
}

/** `{{variable}}` → the auth entry and field that use it, in the environment or in $shared. */
function variableReferences(environment: string, shared: Json): Map<string, { authId: string; field: SecretField }> {
  const found = new Map<string, { authId: string; field: SecretField }>();
  for (const source of [shared['$shared'], shared[environment]]) {
    if (!isJsonObject(source)) continue;
    for (const section of ['Security', 'ApiWorkbench']) {
      const auth = isJsonObject(source[section]) ? (source[section])['Auth'] : undefined;
      if (!isJsonObject(auth)) continue;
      for (const [authId, entry] of Object.entries(auth)) {
        if (!isJsonObject(entry)) continue;
        for (const [fieldName, fieldValue] of Object.entries(entry)) {
          const field = SECRET_FIELDS[fieldName.toLowerCase()];
          const variable = typeof fieldValue === 'string' ? /^\s*\{\{\s*([\w.-]+)\s*\}\}\s*$/.exec(fieldValue)?.[1] : undefined;
          if (field && variable) found.set(variable, { authId, field });
        }
      }
    }
  }
  return found;
}

/** A syntax error is located by line and column (readEnvJson, the one reading of an env file's text). */
function parseObject(text: string, file: string): Json {
  const { raw } = readEnvJson(text, file);
  if (!isJsonObject(raw)) throw new EnvFileError('not a JSON object of environments', { file, line: 1, column: 1 });
  return raw;
}
