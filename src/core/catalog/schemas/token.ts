// The engagement token endpoint's success body (seed 000 §5.1). "Further properties may be present",
// so the response is a loose object. The unit of expires_in is not stated (only "always use the
// returned value" and the 72-hour default), and token errors have no published status or layout
// (§7.4): the catalog keeps their error values and descriptions, never a body schema.
import { z } from 'zod';
import { builtOnFirstUse, documented, seed000 } from './documented';

export const TokenResponse = builtOnFirstUse(() => documented(
  z.looseObject({
    access_token: documented(z.string(), { description: 'bearer token for Authorization: Bearer <token>', source: seed000('5.1') }),
    token_type: documented(z.string(), { description: 'token type, value bearer', source: seed000('5.1') }),
    expires_in: documented(z.number().int(), {
      description: 'token lifetime; always use the returned value (its unit is not stated; the default lifetime is 72 hours)',
      source: seed000('5.1'),
    }),
    userName: documented(z.string(), { description: 'the signed-in user', source: seed000('5.1') }),
  }),
  { description: 'token response (further properties may be present)', source: seed000('5.1') },
));

export const TOKEN_ERROR_DESCRIPTIONS = {
  badCredentials: 'The user name or password is incorrect.',
  locked: 'The user is locked.',
} as const;

/** The token errors() of §7.4. Not every exception is guaranteed to use them; status and layout: not shown. */
export const TOKEN_ERRORS = [
  { error: 'invalid_grant', description: TOKEN_ERROR_DESCRIPTIONS.badCredentials, condition: 'user lookup or credential validation fails' },
  { error: 'invalid_grant', description: TOKEN_ERROR_DESCRIPTIONS.locked, condition: 'the matched user is locked (identity-enabled build only)' },
] as const;
