// HS256 JSON Web Tokens signed by the sandbox (the platform identity service is not published, so
// the sandbox plays it: POST /__sandbox/jwt mints a token for one of its users).
import { createHmac, timingSafeEqual } from 'node:crypto';

export interface JwtClaims {
  readonly sub: string;
  readonly tenant: string;
  readonly role: string;
  readonly iat: number;
  readonly exp: number;
  readonly iss: string;
}

const b64 = (value: string | Buffer): string => Buffer.from(value).toString('base64url');

export function signJwt(claims: JwtClaims, secret: Buffer): string {
  const head = b64(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
  const body = b64(JSON.stringify(claims));
  const signature = createHmac('sha256', secret).update(`${head}.${body}`).digest('base64url');
  return `${head}.${body}.${signature}`;
}

export type JwtCheck = { readonly ok: true; readonly claims: JwtClaims } | { readonly ok: false; readonly reason: string };

/** Verifies signature, algorithm and `exp` (seconds since the epoch) against `nowMs`. */
export function verifyJwt(token: string, secret: Buffer, nowMs: number): JwtCheck {
  const parts = token.split('.');
  if (parts.length !== 3) return { ok: false, reason: 'the bearer token is not a JWT' };
  const [head, body, signature] = parts as [string, string, string];
  const expected = createHmac('sha256', secret).update(`${head}.${body}`).digest();
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: 'the JWT signature is invalid' };
  try {
    const header = JSON.parse(Buffer.from(head, 'base64url').toString('utf8')) as { alg?: string };
    if (header.alg !== 'HS256') return { ok: false, reason: 'the JWT algorithm must be HS256' };
    const claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as JwtClaims;
    if (typeof claims.exp !== 'number' || claims.exp * 1000 <= nowMs) return { ok: false, reason: 'the JWT has expired' };
    return { ok: true, claims };
  } catch {
    return { ok: false, reason: 'the JWT cannot be decoded' };
  }
}
