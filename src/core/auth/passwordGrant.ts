// The engagement service's sign-in (seed 000 §5.1, §5.3, §7.4): OAuth 2.0 resource-owner password grant.
// POST {auth_url}/token, form-encoded grant_type=password, username, password; no client id, no trailing
// slash. One request, never retried: a credential failure retried in a loop locks the account.
import type { Clock, SendHttp } from './ports';
import { isJsonObject } from '../json/numberText';
import { faultText } from '../text/faultText';

export interface TokenGrant {
  readonly accessToken: string;
  readonly tokenType: string;
  /** Seconds, as returned: always use the returned value (seed 000 §5.1). */
  readonly expiresIn: number;
  readonly userName: string;
  /** Epoch milliseconds. */
  readonly obtainedAt: number;
  readonly expiresAt: number;
  /** Said when expires_in made no sense (0, negative, absurdly large) and was clamped (lifetimeOf). */
  readonly lifetimeWarning?: string;
}

/**
 * A lifetime a token may have, in seconds: from one second (an instance may configure very short tokens,
 * and a walk then renews them) to a year and a day. Outside that, expires_in makes no sense, and the token
 * is used for `fallback` (or `max`, for a value past it) until the server refuses it.
 */
export const TOKEN_LIFETIME_BOUNDS = { min: 1, max: 366 * 24 * 3600, fallback: 300 } as const;

/**
 * expires_in as a usable lifetime: 0 or a negative value would sign in before every request, and 1e308
 * overflows every date; either is replaced (TOKEN_LIFETIME_BOUNDS: the server's 401 still ends a token
 * early), with a warning in words.
 */
export function lifetimeOf(expiresIn: number): { seconds: number; warning?: string } {
  const { min, max, fallback } = TOKEN_LIFETIME_BOUNDS;
  if (expiresIn >= min && expiresIn <= max) return { seconds: expiresIn };
  const seconds = expiresIn > max ? max : fallback;
  return { seconds, warning: `the token endpoint gave expires_in ${expiresIn}, which is no usable lifetime; the token is used for ${seconds} s (until the server refuses it)` };
}

export type SignInFailureKind = 'invalid_grant' | 'token-error' | 'http' | 'malformed-response' | 'network';

export class SignInError extends Error {
  constructor(
    readonly kind: SignInFailureKind,
    /** The words to show, e.g. "invalid_grant — The user name or password is incorrect." */
    readonly detail: string,
    readonly status?: number,
  ) {
    super(detail);
    this.name = 'SignInError';
  }

  /** True when the account may lock if this is tried again without the user changing something. */
  get isCredentialFailure(): boolean {
    return this.kind === 'invalid_grant';
  }
}

export interface PasswordGrantInput {
  readonly tokenUrl: string;
  readonly username: string;
  readonly password: string;
}

/** The token URL exactly as the contract wants it: no trailing slash. */
export function normaliseTokenUrl(url: string): string {
  return url.trim().replace(/\/+$/, '');
}

export async function requestPasswordGrant(send: SendHttp, input: PasswordGrantInput, now: Clock = Date.now): Promise<TokenGrant> {
  const body = new URLSearchParams({ grant_type: 'password', username: input.username, password: input.password }).toString();
  let response;
  try {
    response = await send({
      method: 'POST',
      url: normaliseTokenUrl(input.tokenUrl),
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
      body,
    });
  } catch (error) {
    throw new SignInError('network', `the token endpoint could not be reached: ${faultText(error)}`);
  }
  const parsed = parseJsonObject(response.bodyText);
  if (response.status < 200 || response.status >= 300) {
    const code = stringField(parsed, 'error');
    const description = stringField(parsed, 'error_description');
    if (code === 'invalid_grant') {
      throw new SignInError('invalid_grant', `invalid_grant — ${description ?? 'the user name or password was refused (no description given)'}`, response.status);
    }
    if (code) throw new SignInError('token-error', `${code}${description ? ` — ${description}` : ''} (HTTP ${response.status})`, response.status);
    throw new SignInError('http', `the token endpoint answered HTTP ${response.status} ${response.statusText}`.trim(), response.status);
  }
  const accessToken = stringField(parsed, 'access_token');
  if (!accessToken) throw new SignInError('malformed-response', 'the token endpoint answered without an access_token', response.status);
  const expiresIn = numberField(parsed, 'expires_in');
  if (expiresIn === undefined) throw new SignInError('malformed-response', 'the token endpoint answered without expires_in', response.status);
  const obtainedAt = now();
  const lifetime = lifetimeOf(expiresIn);
  // The contract states no unit for expires_in (seed 000 §5.1: "always use the returned value"); it is
  // read as OAuth 2.0 defines it (RFC 6749 §5.1): seconds.
  return {
    accessToken,
    tokenType: stringField(parsed, 'token_type') ?? 'bearer',
    expiresIn,
    userName: stringField(parsed, 'userName') ?? input.username,
    obtainedAt,
    expiresAt: obtainedAt + lifetime.seconds * 1000,
    ...(lifetime.warning ? { lifetimeWarning: lifetime.warning } : {}),
  };
}

function parseJsonObject(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return isJsonObject(value) ? value : {};
  } catch {
    return {};
  }
}

function stringField(object: Record<string, unknown>, name: string): string | undefined {
  const value = object[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function numberField(object: Record<string, unknown>, name: string): number | undefined {
  const value = object[name];
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && /^\d+$/.test(value)) return Number(value);
  return undefined;
}
