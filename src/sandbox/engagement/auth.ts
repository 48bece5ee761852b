// Engagement sign-in state: users, issued tokens, failed-attempt counts (seed 000 §5, §7.4).
// Tokens are opaque random strings kept in memory; there is no refresh token (§5.2 rule 3).
import { randomBytes } from 'node:crypto';
import type { RequestContext } from '../shared/context';
import { BRANDS } from './data';

export interface EngagementUser {
  readonly username: string;
  readonly password: string;
  readonly brandIDs: readonly number[];
  /** Operations (`Family/Operation`) this user's role may not call: 403 (seed 000 §7.1). */
  readonly deniedOperations: readonly string[];
  locked: boolean;
  failures: number;
}

interface IssuedToken {
  readonly user: EngagementUser;
  readonly expiresAt: number;
}

export const MAIN_USER = { username: 'demo@sandbox.test', password: 'Sandbox-Demo-1' };
export const RESTRICTED_USER = { username: 'frontdesk@sandbox.test', password: 'Sandbox-Desk-1' };
export const LOCKED_USER = { username: 'locked@sandbox.test', password: 'Sandbox-Locked-1' };
export const RESTRICTED_DENIED_OPERATIONS = ['LoyaltyPoint/GetBalance', 'BIDWHouse/GetFactTransactions'];

export type SignInResult =
  | { readonly ok: true; readonly token: string; readonly expiresIn: number; readonly userName: string }
  | { readonly ok: false; readonly description: string };

export class EngagementAuth {
  private readonly users = new Map<string, EngagementUser>();
  private readonly tokens = new Map<string, IssuedToken>();

  constructor(
    private readonly lockoutAfter: number,
    readonly lifetimeSeconds: number,
    private readonly now: () => number,
    /** Under the `token-lifetime` choice: the lifetime of the tokens issued, in seconds (--token-lifetime). */
    readonly shortLifetimeSeconds?: number,
  ) {
    const brands = BRANDS.map((b) => b.BrandID);
    this.addUser({ ...MAIN_USER, brandIDs: brands.slice(0, 2), deniedOperations: [], locked: false, failures: 0 });
    this.addUser({ ...RESTRICTED_USER, brandIDs: brands.slice(0, 1), deniedOperations: RESTRICTED_DENIED_OPERATIONS, locked: false, failures: 0 });
    this.addUser({ ...LOCKED_USER, brandIDs: brands.slice(0, 1), deniedOperations: [], locked: true, failures: 0 });
  }

  private addUser(user: EngagementUser): void {
    this.users.set(user.username.toLowerCase(), user);
  }

  /**
   * Password grant. Counts failures per known user and, under the lockout choice (thresholds are not
   * shown, seed 000 §5.3), locks it after `lockoutAfter` of them.
   */
  signIn(username: string, password: string, lockout = true, lifetimeSeconds = this.lifetimeSeconds): SignInResult {
    const user = this.users.get(username.toLowerCase());
    if (!user) return { ok: false, description: 'The user name or password is incorrect.' };
    if (user.locked) return { ok: false, description: 'The user is locked.' };
    if (user.password !== password) {
      user.failures++;
      if (lockout && this.lockoutAfter > 0 && user.failures >= this.lockoutAfter) user.locked = true;
      return { ok: false, description: 'The user name or password is incorrect.' };
    }
    user.failures = 0;
    const token = randomBytes(24).toString('base64url');
    this.tokens.set(token, { user, expiresAt: this.now() + lifetimeSeconds * 1000 });
    return { ok: true, token, expiresIn: lifetimeSeconds, userName: user.username };
  }

  /**
   * The bearer check every engagement operation makes. Answers 401 (no, unknown or expired token)
   * or 403 (method denied) itself and returns undefined; otherwise the calling user.
   */
  authorize(ctx: RequestContext, operation: string): EngagementUser | undefined {
    const header = ctx.header('authorization') ?? '';
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    const issued = match?.[1] ? this.tokens.get(match[1]) : undefined;
    if (!issued || issued.expiresAt <= this.now()) {
      if (issued) this.tokens.delete(match?.[1] ?? '');
      ctx.rule({ seed: '000', section: '5.2' }, 'a resource request needs a valid bearer token (401)');
      ctx.errorJson(401, { Message: 'Authorization has been denied for this request.' }, { 'www-authenticate': 'Bearer' });
      return undefined;
    }
    if (issued.user.deniedOperations.includes(operation)) {
      ctx.rule({ seed: '000', section: '7.1' }, 'method denial is 403');
      ctx.errorJson(403, { Message: `The user may not call ${operation}.` });
      return undefined;
    }
    return issued.user;
  }

  /** The token string of the request (already authorised), used to key per-token state. */
  static tokenOf(ctx: RequestContext): string {
    return /^Bearer\s+(\S+)$/i.exec(ctx.header('authorization') ?? '')?.[1] ?? '';
  }
}
