// An env file is committed to git, so it must never hold a secret. Any secret-named key with a literal
// value (not only `{{references}}`), and any value shaped like a JWT, is rejected with where it belongs.
import { isOnlyPlaceholders } from './templates';

/** Names that denote a secret. "Token URL" and "Grant Type" are not secrets; tenant code is not either. */
const SECRET_KEY = /(pass(word|wd)?|secret|token|service[\s_-]?key|api[\s_-]?key|access[\s_-]?key|private[\s_-]?key|credential)/i;
const NOT_SECRET_KEY = /(url|uri|type|name|location|lifetime|expir)/i;
const JWT_SHAPE = /^eyJ[\w-]+\.eyJ[\w-]+\.[\w-]*$/;

export interface SecretFinding {
  readonly env: string;
  /** JSON path inside the environment, e.g. ['Security', 'Auth', 'engagement', 'Password']. */
  readonly path: readonly string[];
}

export function findSecretsInEnvironment(env: string, value: unknown, path: readonly string[] = []): SecretFinding[] {
  if (value === null || typeof value !== 'object') {
    const key = path[path.length - 1] ?? '';
    if (typeof value === 'string' && looksSecret(key, value)) return [{ env, path }];
    return [];
  }
  return Object.entries(value).flatMap(([key, inner]) => findSecretsInEnvironment(env, inner, [...path, key]));
}

function looksSecret(key: string, value: string): boolean {
  if (value.trim() === '' || isOnlyPlaceholders(value)) return false;
  if (JWT_SHAPE.test(value.trim())) return true;
  return SECRET_KEY.test(key) && !NOT_SECRET_KEY.test(key);
}
