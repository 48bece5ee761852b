// An env file is committed to git, so it must never hold a secret. Any secret-named key with a literal
// value (not only `{{references}}`), and any value shaped like a JWT, is rejected with where it belongs.
// What is secret is the secret vocabulary's rule (isLiteralSecret), the same one collections and the
// Postman import apply, so an import never writes a file this check then rejects.
import { isLiteralSecret } from '../secrets/vocabulary';

export interface SecretFinding {
  readonly env: string;
  /** JSON path inside the environment, e.g. ['Security', 'Auth', 'engagement', 'Password']. */
  readonly path: readonly string[];
}

/** Every secret in an environment's JSON value, walked without recursion (an env file may nest deeply). */
export function findSecretsInEnvironment(env: string, value: unknown, path: readonly string[] = []): SecretFinding[] {
  const found: SecretFinding[] = [];
  const pending: Array<{ value: unknown; path: readonly string[] }> = [{ value, path }];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const current = next.value;
    if (current === null || typeof current !== 'object') {
      const key = next.path[next.path.length - 1] ?? '';
      if (typeof current === 'string' && isLiteralSecret(key, current)) found.push({ env, path: next.path });
      continue;
    }
    const entries: Array<[string, unknown]> = Object.entries(current);
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, inner] = entries[i]!;
      pending.push({ value: inner, path: [...next.path, key] });
    }
  }
  return found;
}
