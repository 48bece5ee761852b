// Fundraising authentication (seed 001 §5): Basic permissionName:serviceKey + X-API-Key tenant code
// for integrations, or a JWT bearer for users. Order of checks: 401 (a header missing, tenant or
// credentials wrong, JWT invalid or expired), then 403 caller IP outside the record's range, then
// 403 permission lacking (e.g. a read-only record on a POST).
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { RequestContext } from '../shared/context';
import { hex, rowRandom } from '../shared/prng';
import { verifyJwt } from './jwt';

export type Right = 'read' | 'write';

export interface ApiRecord {
  readonly permissionName: string;
  readonly serviceKey: string;
  readonly rights: readonly Right[];
  /** CIDR the caller must be in; undefined = any address (§5.1 rule 3). */
  readonly allowedRange?: string;
}

export const JWT_USERS: Readonly<Record<string, 'fundraiser' | 'viewer'>> = {
  'alex.fundraiser@sandbox.test': 'fundraiser',
  'vic.viewer@sandbox.test': 'viewer',
};
const ROLE_RIGHTS: Readonly<Record<string, readonly Right[]>> = { fundraiser: ['read', 'write'], viewer: ['read'] };

export class FundraisingAuth {
  readonly tenantCode: string;
  readonly records: { readonly fullAccess: ApiRecord; readonly readOnly: ApiRecord; readonly ipRestricted: ApiRecord };
  /** Signing secret of the sandbox's JWTs: random per run, never printed. */
  readonly jwtSecret = randomBytes(32);

  constructor(seed: number, private readonly now: () => number) {
    const key = (n: number): string => `sk_${hex(rowRandom(seed, 'token', n), 32)}`;
    this.tenantCode = `TENANT-${hex(rowRandom(seed, 'token', 0), 6).toUpperCase()}`;
    this.records = {
      fullAccess: { permissionName: 'apiwb-integration', serviceKey: key(1), rights: ['read', 'write'] },
      readOnly: { permissionName: 'apiwb-reporting', serviceKey: key(2), rights: ['read'] },
      ipRestricted: { permissionName: 'apiwb-office-only', serviceKey: key(3), rights: ['read', 'write'], allowedRange: '10.0.0.0/8' },
    };
  }

  /** Answers 401/403 itself and returns false, or returns true when the caller may proceed. */
  authorize(ctx: RequestContext, need: Right): boolean {
    const deny = (status: 401 | 403, detail: string): false => {
      ctx.rule({ seed: '001', section: '5.1' }, status === 401 ? '401: missing header or invalid credentials' : '403: permission or caller address');
      ctx.choice('fundraising-conventions');
      ctx.json(status, { type: 'about:blank', title: status === 401 ? 'Unauthorized' : 'Forbidden', status, detail },
        status === 401 ? { 'www-authenticate': 'Basic realm="fundraising", Bearer' } : {});
      return false;
    };
    const authorization = ctx.header('authorization') ?? '';
    const apiKey = ctx.header('x-api-key');
    const bearer = /^Bearer\s+(\S+)$/i.exec(authorization)?.[1];
    if (bearer) {
      const check = verifyJwt(bearer, this.jwtSecret, this.now());
      if (!check.ok) return deny(401, check.reason);
      if (check.claims.tenant !== this.tenantCode || (apiKey !== undefined && apiKey !== this.tenantCode)) return deny(401, 'the token is for another tenant');
      const rights = ROLE_RIGHTS[check.claims.role] ?? [];
      return rights.includes(need) ? true : deny(403, `the role '${check.claims.role}' may not ${need}`);
    }
    if (apiKey === undefined || apiKey === '') return deny(401, 'the X-API-Key header (tenant code) is missing');
    const basic = /^Basic\s+(\S+)$/i.exec(authorization)?.[1];
    if (!basic) return deny(401, 'the Authorization header (Basic permission name and service key, or Bearer) is missing');
    if (apiKey !== this.tenantCode) return deny(401, 'invalid credentials');
    const decoded = Buffer.from(basic, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    const record = Object.values(this.records).find((r) => r.permissionName === decoded.slice(0, colon));
    if (colon < 0 || !record || !sameSecret(record.serviceKey, decoded.slice(colon + 1))) return deny(401, 'invalid credentials');
    if (record.allowedRange && !inRange(ctx.remoteAddress, record.allowedRange)) {
      return deny(403, `the caller address is outside the range allowed for '${record.permissionName}' (${record.allowedRange})`);
    }
    return record.rights.includes(need) ? true : deny(403, `the permission '${record.permissionName}' may not ${need}`);
  }
}

function sameSecret(expected: string, given: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

function ipv4ToInt(address: string): number | undefined {
  const parts = address.replace(/^::ffff:/i, '').split('.').map(Number);
  if (parts.length !== 4 || parts.some((p) => !Number.isInteger(p) || p < 0 || p > 255)) return undefined;
  return parts.reduce((acc, p) => acc * 256 + p, 0);
}

export function inRange(address: string, cidr: string): boolean {
  const [base, bitsText] = cidr.split('/');
  const ip = ipv4ToInt(address);
  const net = ipv4ToInt(base ?? '');
  const bits = Number(bitsText ?? 32);
  if (ip === undefined || net === undefined) return false;
  const size = 2 ** (32 - bits);
  return Math.floor(ip / size) === Math.floor(net / size);
}
