// The sandbox choices: where a contract is silent, the sandbox answers with a labelled, switchable
// choice. They are listed here, in the catalog, so the language server can name them and the sandbox
// labels its answers with the same ids (X-Sandbox-Choice). The contract rules, each with how the
// sandbox answers it, are the coverage check's list (scripts/contractRules.ts).
import type { SeedRef } from './model';
import { seed000, seed001, seed002 } from './schemas/documented';

export type SandboxChoiceId =
  | 'required-fields'
  | 'invalid-parameters'
  | 'question-id-check'
  | 'brand-denial'
  | 'error-bodies'
  | 'token-errors'
  | 'expires-in-seconds'
  | 'lockout'
  | 'unpublished-body'
  | 'deprecated-404'
  | 'inferred-paths'
  | 'extraction-end'
  | 'fundraising-conventions'
  | 'rate-limit'
  | 'token-lifetime'
  | 'booking-page-bounds'
  | 'release-next';

export interface SandboxChoice {
  readonly id: SandboxChoiceId;
  /** What the sandbox does, in the product's words. */
  readonly does: string;
  /** Why it is a choice: the point the contract leaves open. */
  readonly open: string;
  readonly source: SeedRef;
  /** On unless switched off (sandbox option `choices`, `apiwb sandbox --choice ID=off`, request header). */
  readonly defaultOn: boolean;
  /** False when the sandbox must answer something and has no neutral alternative. */
  readonly switchable: boolean;
}

export const SANDBOX_CHOICES: Readonly<Record<SandboxChoiceId, SandboxChoice>> = {
  'required-fields': {
    id: 'required-fields',
    does: 'answers code 1 (Missing mandatory fields) when a non-nullable SurveyApi base field or a ChoiceItem Label is absent or null',
    open: 'which request fields are required is not shown',
    source: seed000('4.1'),
    defaultOn: false,
    switchable: true,
  },
  'invalid-parameters': {
    id: 'invalid-parameters',
    does: 'answers HTTP 404 (the published meaning "invalid parameters") when a documented field has the wrong JSON type or the body is not a JSON object',
    open: 'what the service answers to a wrongly typed request field is not shown',
    source: seed000('7.1'),
    defaultOn: true,
    switchable: true,
  },
  'question-id-check': {
    id: 'question-id-check',
    does: 'answers code 14 (Invalid Question ID) for a QuestionID the sandbox never allocated',
    open: 'when code 14 is given is not shown',
    source: seed000('7.3'),
    defaultOn: true,
    switchable: true,
  },
  'brand-denial': {
    id: 'brand-denial',
    does: 'answers a GetLeads brand the user may not use as the one published brand denial: HTTP 200, ResponseStatus=false, code 3',
    open: 'GetLeads has no published brand check or error contract; the only published brand denial is LoyaltyPoint\'s',
    source: seed000('7.1'),
    defaultOn: true,
    switchable: true,
  },
  'error-bodies': {
    id: 'error-bodies',
    does: 'gives 401, 403, 404 and 500 answers a {Message} body (off: an empty body)',
    open: 'bodies of the 401, 403, 404 and 500 responses are not shown',
    source: seed000('4.1'),
    defaultOn: true,
    switchable: true,
  },
  'token-errors': {
    id: 'token-errors',
    does: 'answers token errors with HTTP 400 and the OAuth 2.0 layout {error, error_description}',
    open: 'HTTP status and body layout of token errors are not shown',
    source: seed000('7.4'),
    defaultOn: true,
    switchable: false,
  },
  'expires-in-seconds': {
    id: 'expires-in-seconds',
    does: 'reports expires_in in seconds',
    open: 'the unit of expires_in is not stated (always use the returned value)',
    source: seed000('5.1'),
    defaultOn: true,
    switchable: false,
  },
  lockout: {
    id: 'lockout',
    does: 'locks a user after lockoutAfter failed sign-ins in a row (default 5; 0 never locks)',
    open: 'lockout thresholds are not shown',
    source: seed000('5.3'),
    defaultOn: true,
    switchable: true,
  },
  'unpublished-body': {
    id: 'unpublished-body',
    does: 'answers a supported operation whose bodies are not published with HTTP 200 and an empty body, whatever the request body',
    open: 'request and response bodies of the operation are not shown',
    source: seed000('9'),
    defaultOn: true,
    switchable: false,
  },
  'deprecated-404': {
    id: 'deprecated-404',
    does: 'answers a deprecated operation with HTTP 404, a Deprecation header and the replacement',
    open: 'the reference excludes deprecated operations; what they answer, and their removal dates, are not shown',
    source: seed000('9'),
    defaultOn: true,
    switchable: false,
  },
  'inferred-paths': {
    id: 'inferred-paths',
    does: 'serves the paging operations whose path is not published at /api/<Family>/<Operation>, and answers their unusable input with HTTP 400 and a message',
    open: 'methods, paths and HTTP error contract of these operations are not shown',
    source: seed000('4.2'),
    defaultOn: true,
    switchable: false,
  },
  'extraction-end': {
    id: 'extraction-end',
    does: 'ends a BIDWHouse extraction with an empty fact list',
    open: 'how the end of an extraction shows is not shown (only that an error is not the end)',
    source: seed000('4.2'),
    defaultOn: true,
    switchable: false,
  },
  'fundraising-conventions': {
    id: 'fundraising-conventions',
    does: 'pages lists with limit/offset and {count, value, next_link}, sorts with sort=dateAdded|-dateAdded, answers a create with 201, and errors with {type, title, status, detail}',
    open: 'names of the pagination, sorting and inclusion parameters, the list layout, status codes other than 401/403 and the error body are not shown',
    source: seed001('4'),
    defaultOn: true,
    switchable: false,
  },
  'release-next': {
    id: 'release-next',
    does: 'serves a next release (apiwb sandbox --release next): organisations listed with a charityNumber; payments at index 250 mod 500 removed, at 7 mod 400 with an amount 1.00 higher, and three added; bookings at index 5 mod 40 with the other status; a customer\'s engagement orders at index 6 mod 50 removed, at 13 mod 40 with another Status, at 0 mod 7 with a Channel field, and two added',
    open: 'what a later release changes is not shown (the engagement non-production release 1.35 is unverified; the fundraising history names past changes only)',
    source: seed000('9'),
    defaultOn: false,
    switchable: true,
  },
  'rate-limit': {
    id: 'rate-limit',
    does: 'allows each service N requests a second to its paged operations (--rate-limit N): every answer carries RateLimit-* and X-RateLimit-* headers, a request over the quota is answered 429 with Retry-After (seconds) and changes nothing; off unless --rate-limit is set',
    open: 'rate limit values and how a limited request is answered are not shown',
    source: seed001('8'),
    defaultOn: false,
    switchable: true,
  },
  'token-lifetime': {
    id: 'token-lifetime',
    does: 'issues engagement tokens that live the given number of seconds (--token-lifetime SECONDS), so a walk can outlive its token; off unless --token-lifetime is set',
    open: 'effective token lifetime values are not shown, and the published override is in hours or minutes',
    source: seed000('5.3'),
    defaultOn: false,
    switchable: true,
  },
  'booking-page-bounds': {
    id: 'booking-page-bounds',
    does: 'answers page below 1 with HTTP 400 (off: as page 1), and a page past the last with an empty list and the four headers',
    open: 'the bounds of page and the booking paths are not shown',
    source: seed002('Endpoints'),
    defaultOn: true,
    switchable: true,
  },
};

export const SANDBOX_CHOICE_IDS = Object.keys(SANDBOX_CHOICES) as SandboxChoiceId[];
