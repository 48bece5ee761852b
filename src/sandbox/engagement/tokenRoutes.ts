// POST {authUrl}/token (also /Token): the OAuth2 resource-owner password grant (seed 000 §5.1, §7.4).
// Published: form-encoded password grant; access_token, token_type bearer, expires_in, userName; no
// refresh_token (§5.2 rule 3); invalid_grant with the two §7.4 descriptions.
// Sandbox choices (labelled in X-Sandbox-Choice): token-errors — the HTTP status and layout of token
// errors are not shown, so the sandbox answers HTTP 400 with the OAuth 2.0 {error, error_description};
// expires-in-seconds — the unit of expires_in is not stated; lockout — the threshold is not shown;
// token-lifetime — tokens that live the seconds of --token-lifetime (lifetime values are not shown, and
// the published override is in hours or minutes: seed 000 §5.3).
import type { RequestContext } from '../shared/context';
import type { Router } from '../shared/router';
import type { EngagementAuth } from './auth';

export const AUTH_PREFIX = '/auth';

export function addTokenRoutes(router: Router, auth: EngagementAuth, now: () => number): void {
  // The router matches engagement paths case-insensitively, so this serves /token and /Token.
  router.post(`${AUTH_PREFIX}/token`, (ctx) => token(ctx, auth, now));
}

async function token(ctx: RequestContext, auth: EngagementAuth, now: () => number): Promise<void> {
  const noStore = { 'cache-control': 'no-store', pragma: 'no-cache' };
  ctx.rule({ seed: '000', section: '5.1' }, 'form-encoded password grant');
  if (ctx.contentType !== 'application/x-www-form-urlencoded') {
    ctx.choice('token-errors');
    await ctx.bodyText();
    ctx.json(400, {
      error: 'invalid_request',
      error_description: 'The token request must be form-encoded (Content-Type: application/x-www-form-urlencoded).',
    }, noStore);
    return;
  }
  const form = new URLSearchParams(await ctx.bodyText());
  if (form.get('grant_type') !== 'password') {
    ctx.choice('token-errors');
    ctx.json(400, { error: 'unsupported_grant_type', error_description: 'Only grant_type=password is supported.' }, noStore);
    return;
  }
  const lockout = ctx.isOn('lockout');
  const short = auth.shortLifetimeSeconds !== undefined && ctx.isOn('token-lifetime') ? auth.shortLifetimeSeconds : undefined;
  const result = auth.signIn(form.get('username') ?? '', form.get('password') ?? '', lockout, short);
  if (!result.ok) {
    ctx.rule({ seed: '000', section: '7.4' }, `invalid_grant "${result.description}"`);
    ctx.choice('token-errors');
    if (lockout) ctx.choice('lockout');
    ctx.json(400, { error: 'invalid_grant', error_description: result.description }, noStore);
    return;
  }
  ctx.choice('expires-in-seconds');
  if (short !== undefined) ctx.choice('token-lifetime');
  const issued = now();
  ctx.json(200, {
    access_token: result.token,
    token_type: 'bearer',
    expires_in: result.expiresIn,
    userName: result.userName,
    '.issued': new Date(issued).toUTCString(),
    '.expires': new Date(issued + result.expiresIn * 1000).toUTCString(),
  }, noStore);
}
