// HTTP statuses explained in words, per service and operation (seed 000 §7.1, §4.2 rule 3, §7.4;
// seed 001 §5.1 and §7). `stated` tells whether the contract states the status for this context: the
// engagement catalogue of §7.1 covers five families only, and the booking service states nothing.
import { citationsAsText } from '../reference';
import type { Operation, SeedRef, ServiceId } from './model';
import { FAMILIES_WITH_STATED_HTTP_ERRORS } from './engagement/common';

export interface HttpStatusContext {
  /** The operation called, when known (its family decides whether §7.1 applies). */
  readonly operation?: Operation;
  /** The family, when the operation itself is not in the catalog. */
  readonly family?: string;
  /** The engagement token endpoint ({auth_url}/token) was called. */
  readonly tokenEndpoint?: boolean;
}

export interface HttpStatusWords {
  readonly status: number;
  /** One line for a banner. */
  readonly title: string;
  /** Possible causes and what to do, in words. */
  readonly causes: readonly string[];
  /** Whether the contract states this status for the context. */
  readonly stated: boolean;
  readonly source?: SeedRef;
}

const REASONS: Readonly<Record<number, string>> = {
  200: 'OK',
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

function unstated(status: number, why: string): HttpStatusWords {
  const reason = REASONS[status];
  return { status, title: reason ? `HTTP ${status} ${reason}` : `HTTP ${status}`, causes: [citationsAsText(why)], stated: false };
}

export function describeHttpStatus(service: ServiceId, status: number, context: HttpStatusContext = {}): HttpStatusWords {
  switch (service) {
    case 'engagement':
      return engagementStatus(status, context);
    case 'fundraising':
      return fundraisingStatus(status, context);
    case 'booking':
      return unstated(status, 'The booking service publishes no status codes (seed 002 covers only its paging headers).');
  }
}

const s71: SeedRef = { seed: '000', section: '7.1' };

function engagementStatus(status: number, context: HttpStatusContext): HttpStatusWords {
  const op = context.operation;
  const family = op?.family ?? context.family;
  if (context.tokenEndpoint) return tokenStatus(status);
  if (status === 200) {
    return {
      status,
      title: 'Success at HTTP level',
      causes: ['The body may still report a business failure (ResponseStatus, Response, Success or Error).'],
      stated: true,
      source: s71,
    };
  }
  if (status === 400 && op?.id === 'engagement/Transaction/GetOrdersByCustomer') {
    return {
      status,
      title: 'Invalid input',
      causes: ['pageNumber or pageSize below 1, or no customer identifier; the body carries the output model.'],
      stated: true,
      source: { seed: '000', section: '4.2' },
    };
  }
  if (status === 400 && family === 'Translation') {
    return { status, title: 'Translation request rejected', causes: ['The translation controller answers HTTP 400 with a message.'], stated: true, source: s71 };
  }
  const stated = family !== undefined && FAMILIES_WITH_STATED_HTTP_ERRORS.includes(family);
  const scope = stated
    ? []
    : family === undefined
      ? ['This is the meaning stated for the Customer, HotelBooking, LoyaltyPoint, LoyaltyProgram and SurveyApi families.']
      : [`The ${family} family has no stated HTTP error contract; this is the meaning stated for the catalogued families.`];
  const deprecated = op?.deprecated ? [`The operation is deprecated; use ${op.deprecated.replacement}.`] : [];
  switch (status) {
    case 401:
      return {
        status,
        title: 'No valid service token provided',
        causes: [
          'The Authorization: Bearer header is missing, or the token expired (its lifetime is the returned expires_in).',
          "The token was issued by another instance: tokens come from the caller's own service instance ({auth_url}/token).",
          'There is no refresh token: sign in again.',
          ...scope,
        ],
        stated,
        source: s71,
      };
    case 403:
      return {
        status,
        title: 'The caller has no access to the method',
        causes: [
          'The signed-in user may not call this operation (method denial).',
          ...(family === 'LoyaltyPoint' ? ['Brand denial is not a 403: it is HTTP 200 with ResponseStatus=false and code 3.'] : []),
          ...scope,
        ],
        stated,
        source: s71,
      };
    case 404:
      return { status, title: 'Invalid parameters or missing endpoint', causes: [...deprecated, 'Check the path and the parameters.', ...scope], stated, source: s71 };
    case 500:
      return {
        status,
        title: 'Internal server error',
        causes: [...(family === 'LoyaltyPoint' ? ['LoyaltyPoint answers 500 for caught exceptions.'] : []), ...scope],
        stated,
        source: s71,
      };
    default:
      return unstated(status, 'Not part of the published HTTP error contract (seed 000 §7.1).');
  }
}

function tokenStatus(status: number): HttpStatusWords {
  if (status === 200) return { status, title: 'Signed in', causes: [], stated: true, source: { seed: '000', section: '5.1' } };
  return {
    status,
    title: 'Token request failed',
    causes: [
      'invalid_grant: "The user name or password is incorrect." or "The user is locked."',
      'Do not retry credential failures in a loop; a locked user gets a token error (seed 000 §5.3).',
      'The HTTP status and body layout of token errors are not shown by the contract.',
    ],
    stated: false,
    source: { seed: '000', section: '7.4' },
  };
}

const s51: SeedRef = { seed: '001', section: '5.1' };

function fundraisingStatus(status: number, _context: HttpStatusContext): HttpStatusWords {
  if (status >= 200 && status < 300) return { status, title: `HTTP ${status}: success`, causes: [], stated: false };
  switch (status) {
    case 401:
      return {
        status,
        title: 'Missing header or invalid credentials',
        causes: [
          'The X-API-Key header (the tenant code) is missing.',
          'The Authorization header is missing.',
          'The Basic credentials are wrong: username is the permission name, password is the service key.',
          'A JWT bearer was not accepted.',
        ],
        stated: true,
        source: s51,
      };
    case 403:
      return {
        status,
        title: 'Forbidden: missing permission, or caller address outside the allowed range',
        causes: [
          'The credentials lack the permission this operation needs (for a JWT, the user\'s role does not permit it).',
          'The API record is limited to a range of caller IP addresses and this request came from outside it: it is rejected even with valid credentials. An empty range allows any address.',
        ],
        stated: true,
        source: s51,
      };
    case 429:
      return unstated(status, 'Rate limiting is a stated convention of the list endpoints; its values, and how a limited request is answered, are not shown (seed 001 §8).');
    default:
      return unstated(status, 'Not part of the published contract: the full list of status codes and the error body shape are not shown (seed 001 §7).');
  }
}
