// 401 and 403 in words, the one home of HTTP statuses explained, the same for the results panel and the
// CLI (seed 000 §7.1, seed 001 §5.1, §7, seed 002). The engagement catalogue of §7.1 is stated for five
// families only: for another family the words say the status is not stated for it. The booking service
// states no status at all. `action` tells the surface what to offer; nothing here signs in or retries.
import { FAMILIES_WITH_STATED_HTTP_ERRORS } from '../catalog/engagement/common';
import { citationsAsText } from '../reference';


export type AuthScheme = 'password-grant' | 'basic-api-key' | 'jwt-bearer' | 'none' | 'unknown';

export interface AuthExplanation {
  readonly status: number;
  /** One sentence. */
  readonly summary: string;
  /** What the contract says and what to do. */
  readonly detail: string;
  /** 'sign-in' on an engagement 401: offer an explicit sign-in, never loop. */
  readonly action: 'sign-in' | 'check-credentials' | 'paste-token' | 'contact-admin' | 'none';
  readonly reason: 'no-valid-token' | 'method-denied' | 'missing-or-invalid-credentials' | 'missing-permission' | 'caller-ip-range' | 'forbidden';
}

export interface ExplainInput {
  readonly status: number;
  readonly bodyText?: string;
  readonly service?: 'engagement' | 'fundraising' | 'booking';
  /** The operation's family, when known: the engagement HTTP error catalogue is stated for some families only. */
  readonly family?: string;
  readonly scheme?: AuthScheme;
}

/** The fundraising 403 for a caller outside the allowed range is told apart from a missing permission by its words. */
const IP_RANGE_WORDS = /\b(ip|address|range)\b/i;

export function explainAuthFailure(input: ExplainInput): AuthExplanation | undefined {
  const explained = explain(input);
  // The contract sections are named in the product's words (core/reference).
  return explained && { ...explained, detail: citationsAsText(explained.detail) };
}

function explain(input: ExplainInput): AuthExplanation | undefined {
  if (input.status !== 401 && input.status !== 403) return undefined;
  const body = input.bodyText ?? '';
  const fundraising = input.service === 'fundraising' || input.scheme === 'basic-api-key' || input.scheme === 'jwt-bearer';
  if (fundraising) return input.status === 401 ? fundraising401(input.scheme) : fundraising403(body, input.scheme);
  if (input.service === 'engagement' || input.scheme === 'password-grant') return withScope(engagement(input.status), input.family);
  const unstated = input.service === 'booking' ? 'The booking service publishes no status codes (seed 002 covers only its paging headers).' : undefined;
  return input.status === 401
    ? { status: 401, reason: 'missing-or-invalid-credentials', action: 'check-credentials',
        summary: '401 Unauthorized: the service did not accept the credentials sent (or none were sent).',
        detail: unstated ?? 'Check that the request carries the Authorization header the service expects.' }
    : { status: 403, reason: 'forbidden', action: 'none',
        summary: '403 Forbidden: the credentials were accepted but do not allow this request.',
        detail: unstated ?? 'The contract of this service says nothing more about 403.' };
}

/** An engagement family outside the §7.1 catalogue: the words are the catalogue's, said to be so. */
function withScope(explained: AuthExplanation, family: string | undefined): AuthExplanation {
  if (family === undefined || FAMILIES_WITH_STATED_HTTP_ERRORS.includes(family)) return explained;
  return { ...explained, detail: `${explained.detail} The ${family} family has no stated HTTP error contract (seed 000 §7.1); this is the meaning stated for the catalogued families.` };
}

function engagement(status: number): AuthExplanation {
  if (status === 401) {
    return {
      status, reason: 'no-valid-token', action: 'sign-in',
      summary: '401 Unauthorized: no valid engagement token was sent.',
      detail: 'Every engagement request needs "Authorization: Bearer <access_token>" from the password-grant sign-in '
        + '(seed 000 §5.2). The token may have expired (its lifetime is expires_in) or be missing. There is no refresh '
        + 'token: sign in again explicitly (seed 000 §5.3).',
    };
  }
  return {
    status, reason: 'method-denied', action: 'contact-admin',
    summary: '403 Forbidden: you are signed in, but this user may not call this method.',
    detail: 'This is a method denial (seed 000 §7.1). Signing in again will not help; ask for the permission. '
      + 'A brand denial looks different: HTTP 200 with ResponseStatus=false and code 3.',
  };
}

function fundraising401(scheme: AuthScheme | undefined): AuthExplanation {
  if (scheme === 'jwt-bearer') {
    return {
      status: 401, reason: 'missing-or-invalid-credentials', action: 'paste-token',
      summary: '401 Unauthorized: the bearer token was refused.',
      detail: 'The platform identity token is missing, malformed or expired (seed 001 §5.2). Paste a fresh token.',
    };
  }
  return {
    status: 401, reason: 'missing-or-invalid-credentials', action: 'check-credentials',
    summary: '401 Unauthorized: a header is missing or the credentials are invalid.',
    detail: 'Every fundraising request needs both headers: Authorization: Basic <permission name>:<service key> and '
      + 'X-API-Key: <tenant code> (seed 001 §5.1 rule 4). Check the permission name, the service key and the tenant code.',
  };
}

function fundraising403(body: string, scheme: AuthScheme | undefined): AuthExplanation {
  if (IP_RANGE_WORDS.test(body)) {
    return {
      status: 403, reason: 'caller-ip-range', action: 'contact-admin',
      summary: '403 Forbidden: your address is outside the caller-IP range allowed for this API record.',
      detail: 'The record limits callers to a range of IP addresses; requests from outside it are refused even with '
        + 'valid credentials (seed 001 §5.1 rule 3). Call from an allowed address or ask the tenant administrator to '
        + 'widen the range (an empty range allows any address).',
    };
  }
  return {
    status: 403, reason: 'missing-permission', action: 'contact-admin',
    summary: scheme === 'jwt-bearer'
      ? "403 Forbidden: the signed-in user's role does not permit this operation."
      : '403 Forbidden: the credentials are valid but lack the permission this operation needs.',
    detail: scheme === 'jwt-bearer'
      ? 'With a JWT bearer the user role decides what is permitted (seed 001 §5.2).'
      : 'The permission name identifies what the integration may do (seed 001 §5.1 rule 5). Use a permission that '
        + 'grants this operation, or ask the tenant administrator to extend it.',
  };
}
