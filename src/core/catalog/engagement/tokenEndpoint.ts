// POST {auth_url}/token: the OAuth 2.0 resource-owner password grant of seed 000 §5.1 and §7.4.
import type { TokenEndpoint } from '../model';
import { TOKEN_ERRORS, TokenResponse } from '../schemas/token';
import { seed000 } from '../schemas/documented';

export const engagementTokenEndpoint: TokenEndpoint = {
  method: 'POST',
  path: '/token',
  alternatePaths: ['/Token'],
  contentType: 'application/x-www-form-urlencoded',
  formFields: [
    { name: 'grant_type', meaning: 'the OAuth 2.0 resource-owner password grant', value: 'password' },
    { name: 'username', meaning: 'user name (from the support and onboarding process)' },
    { name: 'password', meaning: 'password (a secret)' },
  ],
  get responseBody() {
    return TokenResponse();
  },
  errors: TOKEN_ERRORS,
  notShown: [
    'HTTP status and body layout of token errors: not shown (not every exception is guaranteed to use the published error values).',
    'Unit of expires_in: not shown (always use the returned value).',
    'Effective token lifetime values and lockout thresholds: not shown.',
  ],
  source: seed000('5.1'),
};
