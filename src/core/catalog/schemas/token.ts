// The engagement token endpoint's bodies (seed 000 §5.1, §7.4). "Further properties may be present",
// so the response is a loose object. HTTP status and layout of token errors are not shown; the error
// body here is the one the fields of §7.4 name, and the sandbox answers it with HTTP 400.
import { z } from 'zod';
import { documented, seed000 } from './documented';

export const TokenResponse = documented(
  z.looseObject({
    access_token: documented(z.string(), { description: 'bearer token for Authorization: Bearer <token>', source: seed000('5.1') }),
    token_type: documented(z.string(), { description: 'token type, value bearer', source: seed000('5.1') }),
    expires_in: documented(z.number().int(), {
      description: 'lifetime in seconds; always use the returned value (default lifetime 72 hours)',
      source: seed000('5.1'),
    }),
    userName: documented(z.string(), { description: 'the signed-in user', source: seed000('5.1') }),
  }),
  { description: 'token response (further properties may be present)', source: seed000('5.1') },
);

export const TOKEN_ERROR_DESCRIPTIONS = {
  badCredentials: 'The user name or password is incorrect.',
  locked: 'The user is locked.',
} as const;

export const TokenErrorResponse = documented(
  z.looseObject({
    error: documented(z.string(), { description: 'invalid_grant for bad credentials or a locked user', source: seed000('7.4') }),
    error_description: documented(z.string().optional(), {
      description: `"${TOKEN_ERROR_DESCRIPTIONS.badCredentials}" or "${TOKEN_ERROR_DESCRIPTIONS.locked}"`,
      source: seed000('7.4'),
    }),
  }),
  { description: 'token error (not every exception is guaranteed to use this body)', source: seed000('7.4') },
);
