// Bridges {{$auth.token("id")}} / {{$auth.idToken("id")}} to the credential service. The .http resolver's
// dynamic-variable port is synchronous, and a token may need a sign-in, so: find the auth references of
// a request first, fetch their values (signing in at most once per id), then resolve synchronously.
import type { CredentialService } from './credentials';

export interface AuthReference {
  readonly kind: 'token' | 'idToken';
  readonly authId: string;
}

const AUTH_REFERENCE = /\{\{\s*\$auth\.(token|idToken)\s*\(\s*["']([^"']+)["']\s*\)\s*\}\}/g;

/** The $auth references in some texts (URL, header values, body), each once. */
export function findAuthReferences(texts: Iterable<string>): AuthReference[] {
  let found: Map<string, AuthReference> | undefined;
  for (const text of texts) {
    if (!text.includes('$auth')) continue; // AUTH_REFERENCE needs it: most texts of a request have none
    // exec over the one global expression (matchAll makes an iterator and a copy of it for every text).
    AUTH_REFERENCE.lastIndex = 0;
    for (let match = AUTH_REFERENCE.exec(text); match; match = AUTH_REFERENCE.exec(text)) {
      const kind = match[1] === 'idToken' ? 'idToken' : 'token';
      const authId = match[2] ?? '';
      (found ??= new Map()).set(`${kind}:${authId}`, { kind, authId });
    }
  }
  return found ? [...found.values()] : [];
}

/** Parses the args part the .http resolver hands over, e.g. `("engagement")`. */
export function authIdFromArgs(args: string): string | undefined {
  return /^\(\s*["']([^"']+)["']\s*\)$/.exec(args.trim())?.[1];
}

/** A synchronous resolver for `$auth.token` / `$auth.idToken`, filled in advance by `prepare`. */
export class AuthVariables {
  private readonly values = new Map<string, string>();

  constructor(private readonly credentials: CredentialService) {}

  /** Fetches every referenced value; throws the first AuthError (wrong secret, missing secret, expired JWT). */
  async prepare(references: readonly AuthReference[]): Promise<void> {
    for (const reference of references) {
      const key = `${reference.kind}:${reference.authId}`;
      if (this.values.has(key) && reference.kind === 'idToken') continue;
      const value = reference.kind === 'token'
        ? await this.credentials.token(reference.authId)
        : await this.credentials.idToken(reference.authId);
      this.values.set(key, value);
    }
  }

  /** Every value handed out, so the caller's Redactor can scrub them from output. */
  get knownValues(): string[] {
    return [...this.values.values()];
  }

  /** The DynamicVariableResolver shape of src/core/httpfile: `resolve('$auth.token', '("id")')`. */
  resolve(name: string, args: string): string | undefined {
    const kind = name === '$auth.token' ? 'token' : name === '$auth.idToken' ? 'idToken' : undefined;
    const authId = authIdFromArgs(args);
    if (!kind || !authId) return undefined;
    return this.values.get(`${kind}:${authId}`);
  }
}
