// POST {authUrl}/token (also /Token): the OAuth2 resource-owner password grant (seed 000 §5.1, §7.4).
// Form-encoded only; token errors are HTTP 400 {error, error_description} (layout not published:
// the sandbox uses the OAuth2 one). No refresh_token is ever issued (§5.2 rule 3).
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
  if (ctx.contentType !== 'application/x-www-form-urlencoded') {
    await ctx.bodyText();
    ctx.json(400, {
      error: 'invalid_request',
      error_description: 'The token request must be form-encoded (Content-Type: application/x-www-form-urlencoded).',
    }, noStore);
    return;
  }
  const form = new URLSearchParams(await ctx.bodyText());
  if (form.get('grant_type') !== 'password') {
    ctx.json(400, { error: 'unsupported_grant_type', error_description: 'Only grant_type=password is supported.' }, noStore);
    return;
  }
  const result = auth.signIn(form.get('username') ?? '', form.get('password') ?? '');
  if (!result.ok) {
    ctx.json(400, { error: 'invalid_grant', error_description: result.description }, noStore);
    return;
  }
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
