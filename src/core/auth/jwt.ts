// A JWT bearer pasted by a user (fundraising interactive users, seed 001 §5.2). We decode header and
// payload to show exp, sub and iss; we never verify the signature: the service does, we only inform.

import { describeTimeLeft } from './timeLeft';
import { isJsonObject } from '../json/numberText';

export interface DecodedJwt {
  readonly header: Readonly<Record<string, unknown>>;
  readonly payload: Readonly<Record<string, unknown>>;
  readonly subject?: string;
  readonly issuer?: string;
  /** Epoch milliseconds from `exp`, when present. */
  readonly expiresAt?: number;
}

export class JwtFormatError extends Error {
  constructor(detail: string) {
    super(`not a JWT: ${detail}`);
    this.name = 'JwtFormatError';
  }
}

export function decodeJwt(token: string): DecodedJwt {
  const parts = token.trim().replace(/^Bearer\s+/i, '').split('.');
  if (parts.length !== 3) throw new JwtFormatError(`expected three dot-separated parts, found ${parts.length}`);
  const header = decodePart(parts[0] ?? '', 'header');
  const payload = decodePart(parts[1] ?? '', 'payload');
  const exp = payload.exp;
  return {
    header,
    payload,
    ...(typeof payload.sub === 'string' ? { subject: payload.sub } : {}),
    ...(typeof payload.iss === 'string' ? { issuer: payload.iss } : {}),
    ...(typeof exp === 'number' && Number.isFinite(exp) ? { expiresAt: exp * 1000 } : {}),
  };
}

export function isJwtExpired(jwt: DecodedJwt, now: number): boolean {
  return jwt.expiresAt !== undefined && jwt.expiresAt <= now;
}

/** One line for the tree, the panel and the CLI, e.g. "subject alice, issuer https://id…, expires 2026-… (2 d 23 h left)". */
export function describeJwt(jwt: DecodedJwt, now: number): string {
  const parts = [
    `subject ${jwt.subject ?? '(none)'}`,
    `issuer ${jwt.issuer ?? '(none)'}`,
    jwt.expiresAt === undefined
      ? 'no exp claim'
      : `${isJwtExpired(jwt, now) ? 'EXPIRED at' : 'expires'} ${new Date(jwt.expiresAt).toISOString()} (${describeTimeLeft(jwt.expiresAt, now)})`,
  ];
  return parts.join(', ');
}

function decodePart(part: string, name: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
  } catch {
    throw new JwtFormatError(`the ${name} is not base64url-encoded JSON`);
  }
  if (!isJsonObject(value)) throw new JwtFormatError(`the ${name} is not a JSON object`);
  return value;
}
