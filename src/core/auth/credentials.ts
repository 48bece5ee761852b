// The credential service: turns an environment's auth entries plus the SecretStore into what a request
// needs ({{$auth.token("id")}} values and auth headers). It signs in with the password grant when asked,
// at most once per auth id and scope for a failed attempt: a refused credential is remembered and never
// re-sent. What a sign-in obtains is kept and bound for the scope it began in (CredentialScope).
import { citationsAsText } from '../reference';
import { authEntryOf, type AuthEntry, type Environment } from '../env/model';
import { secretKey, type SecretStore } from '../secrets/secretStore';
import { basicCredential, basicUserProblem } from './basicCredential';
import { decodeJwt, isJwtExpired } from './jwt';
import { requestPasswordGrant, SignInError, type TokenGrant } from './passwordGrant';
import type { Clock, SendHttp } from './ports';
import { humanDuration } from './timeLeft';
import { remembered } from '../text/remembered';
import { fieldWords, originsFor, type BoundField, type SecretBindings } from '../secrets/bindings';

/** Non-secret facts about a session, kept next to the token so the tree and status bar can show them. */
export interface SessionInfo {
  readonly tokenType: string;
  readonly userName: string;
  readonly obtainedAt: number;
  readonly expiresAt: number;
  readonly expiresIn: number;
}

export type SignInState =
  | { readonly state: 'signed-in'; readonly session: SessionInfo }
  | { readonly state: 'expired'; readonly session: SessionInfo }
  | { readonly state: 'signed-out' }
  | { readonly state: 'not-applicable' };

/** An auth problem with the words to show; the CLI prints `message` and exits 1. */
export class AuthError extends Error {
  constructor(readonly authId: string, detail: string, readonly underlying?: unknown) {
    super(`${authId} ${detail}`);
    this.name = 'AuthError';
  }
}

export interface CredentialServiceOptions {
  readonly secrets: SecretStore;
  readonly send: SendHttp;
  readonly now?: Clock;
  /** Sign in by itself when a token is needed and none is valid (the CLI); the extension asks first. */
  readonly signInOnDemand?: boolean;
  /** Where the user should put a missing secret, e.g. "set APIWB_SECRET_ENGAGEMENT_PASSWORD". */
  readonly missingSecretHint?: (authId: string, field: string) => string;
  /**
   * Where each secret handed out or obtained may go (the send boundary's): every value this service reads
   * or obtains is bound here before it is used — a password to its Token URL's origin, anything else to
   * the environment's origins (src/core/secrets/bindings.ts, originsFor).
   */
  readonly bindings?: SecretBindings;
  /** Told what a sign-in's answer made doubtful (an expires_in clamped: passwordGrant.lifetimeOf). */
  readonly onWarning?: (authId: string, text: string) => void;
  /**
   * How long a token must still be valid to be handed out (ms): a request's whole deadline, so it cannot
   * expire on the way (the CLI: --timeout plus the time a request may be made ready ahead). Default 5 s.
   */
  readonly validForMs?: number;
}

/**
 * Where a credential belongs, read once when the work that obtains it starts (never when it ends): the store
 * at its place (SecretStore.pinned: the editor's workspace folder, env file and environment), the environment
 * whose origins it is bound to, and the key naming both with the auth id. What a sign-in obtains is kept and
 * bound there only, however long its token endpoint takes and whatever the user switches to meanwhile.
 */
interface CredentialScope {
  readonly secrets: SecretStore;
  readonly environment: Environment;
  /** The sign-in in flight and a failed one are kept under it: one scope's never stands for another's. */
  readonly key: string;
}

export class CredentialService {
  /** The clock sessions are read against (Date.now unless given). */
  readonly now: Clock;
  /** Sign-ins that failed in this session, by scope key: never re-sent without the user changing something. */
  private readonly failed = new Map<string, AuthError>();
  /** Sign-ins waiting on their token endpoint, by scope key: a second one for the same scope joins it. */
  private readonly inFlight = new Map<string, Promise<TokenGrant>>();

  /** See CredentialServiceOptions.validForMs. */
  readonly validForMs: number;

  constructor(private environment: Environment, private readonly options: CredentialServiceOptions) {
    this.now = options.now ?? Date.now;
    this.validForMs = options.validForMs ?? TOKEN_SPARE_MS;
  }

  /** True when this service signs in by itself (the CLI, with the password it holds); the editor asks the user. */
  get signsInOnDemand(): boolean {
    return this.options.signInOnDemand === true;
  }

  /**
   * THE rule for renewing before expiry: a password-grant session that would not outlive the next request
   * (less than validForMs left) is due, and so is one that is gone; no other kind of entry ever is. A
   * sign-in that failed in this session is never due again: it is not retried (accounts lock, seed 000 §5.3).
   */
  async renewalDue(authId: string): Promise<SignInState | undefined> {
    const state = await this.state(authId);
    if (state.state === 'not-applicable' || this.failed.has(this.scopeNow(authId).key)) return undefined;
    if (state.state === 'signed-in' && state.session.expiresAt - this.validForMs > this.now()) return undefined;
    return state;
  }

  /** The scope in use now (CredentialScope): read when a sign-in or a token's use starts. */
  private scopeNow(authId: string): CredentialScope {
    const pinned = this.options.secrets.pinned?.();
    const environment = this.environment;
    return { secrets: pinned?.store ?? this.options.secrets, environment, key: JSON.stringify([pinned?.place ?? '', environment.name, authId]) };
  }

  useEnvironment(environment: Environment): void {
    this.environment = environment;
    this.failed.clear();
  }

  entry(authId: string): AuthEntry {
    const entry = authEntryOf(this.environment, authId);
    if (!entry) {
      const known = Object.keys(this.environment.auth);
      throw new AuthError(authId, `is not an auth entry of environment '${this.environment.name}' (known: ${known.length ? known.join(', ') : 'none'})`);
    }
    if (entry.kind === 'unsupported') throw new AuthError(authId, `cannot be used: ${entry.unsupportedReason ?? 'unsupported'}`);
    return entry;
  }

  /**
   * Password-grant sign-in: exactly one token request; `invalid_grant` becomes an AuthError in words.
   * `password` is what the user just typed (used once, not stored); without it the stored one is used.
   * The token is kept for the scope in use when this is called (CredentialScope).
   */
  async signIn(authId: string, password?: string): Promise<SessionInfo> {
    const scope = this.scopeNow(authId);
    const entry = this.entry(authId);
    if (entry.kind !== 'password-grant') throw new AuthError(authId, `is a ${entry.kind} entry: there is nothing to sign in to`);
    return sessionOf(await this.signingIn(scope, authId, entry, password));
  }

  /** The sign-in in flight for this scope, else a new one: one token request per scope at a time. */
  private signingIn(scope: CredentialScope, authId: string, entry: AuthEntry, typed?: string): Promise<TokenGrant> {
    const pending = this.inFlight.get(scope.key);
    if (pending) return pending;
    const attempt = this.requestGrant(scope, authId, entry, typed).finally(() => this.inFlight.delete(scope.key));
    this.inFlight.set(scope.key, attempt);
    return attempt;
  }

  private async requestGrant(scope: CredentialScope, authId: string, entry: AuthEntry, typed?: string): Promise<TokenGrant> {
    const password = typed ?? await this.requireSecret(authId, 'password', scope);
    this.bind(scope.environment, authId, 'password', password);
    try {
      const grant = await requestPasswordGrant(this.options.send, {
        tokenUrl: entry.tokenUrl ?? '', username: entry.username ?? '', password,
      }, this.now);
      this.bind(scope.environment, authId, 'access_token', grant.accessToken);
      await scope.secrets.set(secretKey(authId, 'access_token'), grant.accessToken);
      await scope.secrets.set(secretKey(authId, 'session'), JSON.stringify(sessionOf(grant)));
      this.failed.delete(scope.key);
      if (grant.lifetimeWarning) this.options.onWarning?.(authId, grant.lifetimeWarning);
      return grant;
    } catch (error) {
      const failure = new AuthError(authId, `sign-in failed: ${error instanceof SignInError ? error.detail : String(error)}`, error);
      this.failed.set(scope.key, failure);
      throw failure;
    }
  }

  async signOut(authId: string): Promise<void> {
    this.failed.delete(this.scopeNow(authId).key);
    await this.options.secrets.delete(secretKey(authId, 'access_token'));
    await this.options.secrets.delete(secretKey(authId, 'session'));
  }

  /** Forget every credential the store holds (the "forget all credentials" command). */
  async forgetAll(): Promise<void> {
    this.failed.clear();
    for (const key of await this.options.secrets.keys()) await this.options.secrets.delete(key);
  }

  async state(authId: string): Promise<SignInState> {
    const entry = authEntryOf(this.environment, authId);
    if (!entry || entry.kind !== 'password-grant') return { state: 'not-applicable' };
    const token = await this.options.secrets.get(secretKey(authId, 'access_token'));
    const session = parseSession(await this.options.secrets.get(secretKey(authId, 'session')));
    if (!token || !session) return { state: 'signed-out' };
    return session.expiresAt > this.now() ? { state: 'signed-in', session } : { state: 'expired', session };
  }

  /**
   * The value of {{$auth.token("id")}}: the access token (password grant), the pasted JWT, or the
   * base64 Basic credential (so a request writes `Authorization: Basic {{$auth.token("fundraising")}}`).
   */
  async token(authId: string): Promise<string> {
    const entry = this.entry(authId);
    switch (entry.kind) {
      case 'password-grant': return this.accessToken(authId, entry);
      case 'jwt-bearer': return this.pastedJwt(authId);
      case 'basic-api-key': {
        const key = await this.requireSecret(authId, 'service_key');
        // Seed 001 §5.1: the permission name as user name, the service key as password (X-API-Key beside it).
        const user = entry.permissionName ?? '';
        const problem = basicUserProblem(user);
        if (problem) throw new AuthError(authId, `cannot sign in: its Permission Name ${problem}.`);
        const credential = basicCredential(user, key);
        this.bind(this.environment, authId, 'service_key', credential, 'the Basic credential');
        return credential;
      }
      default: throw new AuthError(authId, 'cannot give a token');
    }
  }

  /** {{$auth.idToken("id")}}: only a pasted JWT is an identity token here; the token endpoint issues none. */
  async idToken(authId: string): Promise<string> {
    const entry = this.entry(authId);
    if (entry.kind === 'jwt-bearer') return this.pastedJwt(authId);
    throw new AuthError(authId, citationsAsText('has no ID token: the engagement token endpoint issues only an access token (seed 000 §5.1)'));
  }

  private async accessToken(authId: string, entry: AuthEntry): Promise<string> {
    // What state() reads, read once: every request of a run that uses the entry asks here.
    const scope = this.scopeNow(authId);
    const token = await this.use(secretKey(authId, 'access_token'), scope.secrets);
    const session = token ? parseSession(await scope.secrets.get(secretKey(authId, 'session'))) : undefined;
    if (token && session && session.expiresAt - this.validForMs > this.now()) {
      this.bind(scope.environment, authId, 'access_token', token);
      return token;
    }
    const earlier = this.failed.get(scope.key);
    if (earlier) throw earlier;
    if (!this.options.signInOnDemand) {
      throw new AuthError(authId, !session ? 'is not signed in: sign in first'
        : session.expiresAt > this.now() ? `token expires in ${humanDuration(session.expiresAt - this.now())}, before a response could arrive: sign in again` : 'token has expired: sign in again');
    }
    const grant = await this.signingIn(scope, authId, entry);
    return grant.accessToken;
  }

  private async pastedJwt(authId: string): Promise<string> {
    const token = await this.requireSecret(authId, 'token');
    let decoded;
    try {
      decoded = decodeJwt(token);
    } catch (error) {
      throw new AuthError(authId, `holds a token that is ${error instanceof Error ? error.message : 'not a JWT'}`);
    }
    if (isJwtExpired(decoded, this.now())) {
      throw new AuthError(authId, `bearer token expired at ${new Date(decoded.expiresAt ?? 0).toISOString()}: paste a fresh one`);
    }
    const bare = token.trim().replace(/^Bearer\s+/i, '');
    this.bind(this.environment, authId, 'token', bare);
    return bare;
  }

  /** A secret about to be used: the store's own, else one it may adopt from elsewhere once the user agrees. */
  private async use(key: string, secrets = this.options.secrets): Promise<string | undefined> {
    return (await secrets.get(key)) ?? (await secrets.adopt?.(key));
  }

  /** Binds a value of an auth entry of `environment` to where it may go (see originsFor). */
  private bind(environment: Environment, authId: string, field: BoundField, value: string, what?: string): void {
    const bindings = this.options.bindings;
    if (!bindings) return;
    const words = what ? `${what} of auth '${authId}'` : fieldWords(field, authId);
    bindings.bind(value, originsFor(field, authEntryOf(environment, authId), environment), `${words} (environment '${environment.name}')`);
  }

  /** A secret of an auth entry, from the scope given (the one in use now unless said), bound before it is handed out. */
  private async requireSecret(authId: string, field: 'password' | 'service_key' | 'token', scope: Pick<CredentialScope, 'secrets' | 'environment'> = { secrets: this.options.secrets, environment: this.environment }): Promise<string> {
    const value = await this.use(secretKey(authId, field), scope.secrets);
    if (value) {
      this.bind(scope.environment, authId, field, value);
      return value;
    }
    const hint = this.options.missingSecretHint?.(authId, field) ?? 'store it with the credential commands';
    throw new AuthError(authId, `needs a ${field.replace('_', ' ')}: ${hint}`);
  }
}

function sessionOf(grant: TokenGrant): SessionInfo {
  return { tokenType: grant.tokenType, userName: grant.userName, obtainedAt: grant.obtainedAt, expiresAt: grant.expiresAt, expiresIn: grant.expiresIn };
}

/**
 * A token is handed out only while it has this long left (else it is signed in again, or refused as
 * expired): it must still be valid when the request reaches the server, and `apiwb run` makes a request
 * ready up to 100 ms before it goes.
 */
const TOKEN_SPARE_MS = 5_000;

/** Session texts already read, parsed (frozen: shared by every caller): every request of a run reads the same one. */
const sessions = new Map<string, SessionInfo | undefined>();

function parseSession(text: string | undefined): SessionInfo | undefined {
  return text ? remembered(sessions, text, 16, parseSessionText) : undefined;
}

function parseSessionText(text: string): SessionInfo | undefined {
  try {
    const value = JSON.parse(text) as Partial<SessionInfo>;
    return typeof value.expiresAt === 'number' ? Object.freeze(value as SessionInfo) : undefined;
  } catch {
    return undefined;
  }
}
