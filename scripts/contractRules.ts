// The contract rules the product encodes, one entry per testable rule, with its seed section and how
// the sandbox answers it. Two kinds:
// - published: the contract states it; the sandbox enforces it and the language server may warn or
//   err on it, citing the section.
// - not-shown: the contract says the point is not shown; the sandbox takes the most permissive
//   reading (or a labelled, switchable choice) and the product never reports the point as an error.
// Every rule id must appear in the title of a test (`rule <id>`) that asserts something;
// docs/contract-coverage.md is generated from this list by scripts/contract-coverage.ts, and a test
// fails when either is stale. The list is the coverage check's: the product reads the catalog itself.
import type { SeedRef } from '../src/core/catalog/model';
import type { SandboxChoiceId } from '../src/core/catalog/rules';
import { seed000, seed001, seed002 } from '../src/core/catalog/schemas/documented';

/**
 * - enforces: the sandbox behaves as the rule says.
 * - permissive: a not-shown point; the sandbox accepts every reading.
 * - choice: the sandbox answers with a labelled choice (X-Sandbox-Choice) the user can see.
 * - product: nothing to simulate; the catalog shows it (hover, tree, diagnostics).
 */
export type SandboxVerdict =
  | { readonly kind: 'enforces' }
  | { readonly kind: 'permissive' }
  | { readonly kind: 'choice'; readonly choice: SandboxChoiceId }
  | { readonly kind: 'product' };

export interface ContractRule {
  /** `<seed>-<section>-<name>`, cited by the covering test's title as `rule <id>`. */
  readonly id: string;
  readonly source: SeedRef;
  readonly kind: 'published' | 'not-shown';
  /** The rule in the product's words. */
  readonly says: string;
  readonly sandbox: SandboxVerdict;
}

const enforces = { kind: 'enforces' } as const;
const permissive = { kind: 'permissive' } as const;
const product = { kind: 'product' } as const;
const choice = (id: SandboxChoiceId): SandboxVerdict => ({ kind: 'choice', choice: id });

function rule(id: string, source: SeedRef, kind: ContractRule['kind'], says: string, sandbox: SandboxVerdict): ContractRule {
  return { id, source, kind, says, sandbox };
}

export const CONTRACT_RULES: readonly ContractRule[] = [
  // ---- seed 000: the service as a whole ----
  rule('000-1-families', seed000('1'), 'published', 'The sixteen operation families, in the contract\'s order; the deprecated Contact and Survey families after them.', product),
  rule('000-1-operation-counts', seed000('1'), 'published', 'Operation counts as stated: 217 in all, SurveyApi 20 (10 shown), Customer 8, HotelBooking 4, LoyaltyPoint 2; the five catalogued families total 35.', product),
  // ---- seed 000: SurveyApi bodies ----
  rule('000-2.1-field-types', seed000('2.1'), 'published', 'The SurveyApi base fields have the published types; the nullable ones accept null.', choice('invalid-parameters')),
  rule('000-2.1-question-type-values', seed000('2.1'), 'not-shown', 'Allowed values of QuestionType and QuestionSubType are not shown: any string is accepted.', permissive),
  rule('000-2.2-enums-open', seed000('2.2'), 'not-shown', 'Whether the ScoreRange, KnownType and OptinChannels lists are complete is not shown: other integers are accepted.', permissive),
  rule('000-2.2-contact-fields', seed000('2.2'), 'not-shown', 'Fields of ContactInformationField and of the name-and-address request after PrivacyPolicyText are not shown: any are accepted.', permissive),
  rule('000-4.1-required-fields', seed000('4.1'), 'not-shown', 'Which request fields are required is not shown: no code 1 unless the required-fields choice is on.', choice('required-fields')),
  rule('000-4.1-empty-input', seed000('4.1'), 'published', 'An empty input parameter (no body, {} or null) gives code 12.', enforces),
  rule('000-4.1-success', seed000('4.1'), 'published', 'A question operation succeeds with HTTP 200 and PostOutput {ID, Errors, ResponseStatus=true}.', enforces),
  rule('000-4.1-unshown-operations', seed000('4.1'), 'not-shown', 'The other ten SurveyApi operations are not shown and are not invented (404, a missing endpoint).', enforces),
  rule('000-7.3-code-meanings', seed000('7.3'), 'published', 'A catalogue code is given only with its published meaning: code 16 is "Invalid response object", code 17 "Invalid choice id"; neither is given for a wrongly typed field or duplicate choice ids.', enforces),
  rule('000-7.3-question-id', seed000('7.3'), 'published', 'Code 14 means "Invalid SessionID" or "Invalid Question ID" (both published); the sandbox gives it for a QuestionID it never allocated.', choice('question-id-check')),
  rule('000-7.2-catalogue-per-family', seed000('7.2'), 'published', 'A catalogue applies only to its own family: GetOrdersByCustomer does not answer "Invalid CtcID"; an unknown customer gets the empty list of a customer with no history.', enforces),
  rule('000-7.1-http-catalogue-scope', seed000('7.1'), 'published', 'The HTTP error catalogue (401, 403, 404, 500) is stated for the Customer, HotelBooking, LoyaltyPoint, LoyaltyProgram and SurveyApi families only; the others have no stated HTTP error contract.', product),
  rule('000-7.2-conventions', seed000('7.2'), 'published', 'Six business-error conventions inside a 200, told apart by case-sensitive property names.', product),
  rule('000-7.2-response-status', seed000('7.2'), 'published', 'With ResponseStatus, true means success and false an error described in Errors.', product),
  rule('000-7.1-dispatch-success-false', seed000('7.1'), 'published', 'Real-time dispatch can answer HTTP 200 with Success=false and a Message.', product),
  rule('000-7.3-catalogues', seed000('7.3'), 'published', 'The five numeric catalogues as published: SurveyApi code 14 has two meanings and code 15 is absent; a code belongs to its own family and is never an HTTP status.', product),
  rule('000-7.3-loyalty-point-13', seed000('7.3'), 'published', 'LoyaltyPoint: an unknown customer is code 13 (Invalid CtcID).', enforces),
  rule('000-4.1-error-bodies', seed000('4.1'), 'not-shown', 'Bodies of the 401, 403, 404 and 500 responses are not shown.', choice('error-bodies')),
  // ---- seed 000: paging operations ----
  rule('000-4.2-paths-not-shown', seed000('4.2'), 'not-shown', 'Methods and paths of GetLeads, GetSelectionResult_Ext, the CustomerAsset operations and the BIDWHouse fact reads are not shown: the product marks its /api/<Family>/<Operation> paths as inferred.', choice('inferred-paths')),
  rule('000-4.2-names-case-sensitive', seed000('4.2'), 'published', 'Paging names are case-sensitive: Offset, OFFSET and pageNumber are different names.', enforces),
  rule('000-4.2-orders-defaults', seed000('4.2'), 'published', 'GetOrdersByCustomer: pageNumber defaults to 1 and pageSize to 50.', enforces),
  rule('000-4.2-orders-cap', seed000('4.2'), 'published', 'GetOrdersByCustomer: pageSize is capped at 500 and the response gives the effective size.', enforces),
  rule('000-4.2-orders-below-one', seed000('4.2'), 'published', 'GetOrdersByCustomer: a pageNumber or pageSize below 1 is rejected (HTTP 400 with the output model).', enforces),
  rule('000-4.2-orders-customer-required', seed000('4.2'), 'published', 'GetOrdersByCustomer: at least one customer identifier is required.', enforces),
  rule('000-4.2-orders-out-of-range', seed000('4.2'), 'published', 'GetOrdersByCustomer: a page out of range is HTTP 200 with Response=false.', enforces),
  rule('000-4.2-orders-no-history', seed000('4.2'), 'published', 'GetOrdersByCustomer: a customer with no history is a successful empty list.', enforces),
  rule('000-4.2-leads-offset', seed000('4.2'), 'published', 'GetLeads: Offset is forwarded as given.', enforces),
  rule('000-4.2-leads-remaining', seed000('4.2'), 'published', 'GetLeads: Remaining is not a guaranteed end-of-stream signal.', enforces),
  rule('000-7.1-brand-denial', seed000('7.1'), 'published', 'The published brand denial is HTTP 200 with ResponseStatus=false and code 3 (LoyaltyPoint); GetLeads borrows it only as a labelled choice, never HTTP 403.', choice('brand-denial')),
  rule('000-4.2-batch-cursor', seed000('4.2'), 'published', 'CustomerAsset: continue with the BatchID returned by the previous call, not a page number.', enforces),
  rule('000-4.2-selection-ordinal', seed000('4.2'), 'published', 'GetSelectionResult_Ext: OFFSET is a one-based ordinal of 100000-row pages; a blank TableName creates the export.', enforces),
  rule('000-4.2-selection-dropped', seed000('4.2'), 'published', 'GetSelectionResult_Ext: the table can be dropped after a short or empty page, so a final page cannot be replayed.', enforces),
  rule('000-4.2-extraction-error', seed000('4.2'), 'published', 'BIDWHouse: extraction is stateful and an error is not end-of-data.', enforces),
  rule('000-4.2-extraction-end', seed000('4.2'), 'not-shown', 'BIDWHouse: how the end of an extraction shows is not published (no "an empty list is the end").', choice('extraction-end')),
  rule('000-8-selection-rows', seed000('8'), 'published', 'GetSelectionResult_Ext pages hold 100000 rows.', enforces),
  rule('000-8-extraction-size', seed000('8'), 'published', 'BIDWHouse reads: the default extraction size is 5000.', enforces),
  // ---- seed 000: authentication ----
  rule('000-5.1-token-grant', seed000('5.1'), 'published', 'The token is a form-encoded password grant at {auth_url}/token answering access_token, token_type bearer, expires_in and userName.', enforces),
  rule('000-5.1-form-encoded', seed000('5.1'), 'published', 'The token request is application/x-www-form-urlencoded.', enforces),
  rule('000-5.1-no-trailing-slash', seed000('5.1'), 'published', 'The token URL has no trailing slash.', enforces),
  rule('000-5.1-token-path', seed000('5.1'), 'published', 'Some instances register /Token; /token is the path to use.', enforces),
  rule('000-5.1-expires-in-unit', seed000('5.1'), 'not-shown', 'The unit of expires_in is not stated: always use the returned value.', choice('expires-in-seconds')),
  rule('000-5.2-no-refresh', seed000('5.2'), 'published', 'No refresh token is issued.', enforces),
  rule('000-5.2-bearer', seed000('5.2'), 'published', 'Every resource request carries Authorization: Bearer; without a valid token the answer is 401.', enforces),
  rule('000-5.1-expiry', seed000('5.1'), 'published', 'The returned expires_in is the token\'s lifetime: a token past it is refused (401).', enforces),
  rule('000-5.3-lifetime', seed000('5.3'), 'published', 'The default token lifetime is 72 hours.', enforces),
  rule('000-5.3-lifetime-values', seed000('5.3'), 'not-shown', 'An instance may configure the token lifetime (in hours, or minutes); effective values are not shown: a token may expire during a long walk.', choice('token-lifetime')),
  rule('000-5.3-lockout-threshold', seed000('5.3'), 'not-shown', 'A locked user gets a token error; lockout thresholds are not shown.', choice('lockout')),
  rule('000-7.4-token-errors', seed000('7.4'), 'published', 'Token errors are invalid_grant with "The user name or password is incorrect." or "The user is locked.".', enforces),
  rule('000-7.4-token-error-layout', seed000('7.4'), 'not-shown', 'HTTP status and body layout of token errors are not shown: the catalog has no token error schema.', choice('token-errors')),
  rule('000-7.1-method-denial', seed000('7.1'), 'published', 'LoyaltyPoint: method denial is HTTP 403.', enforces),
  rule('000-7.1-loyalty-brand-denial', seed000('7.1'), 'published', 'LoyaltyPoint: brand denial is HTTP 200 with ResponseStatus=false and code 3.', enforces),
  rule('000-7.3-loyalty-program-26', seed000('7.3'), 'published', 'LoyaltyProgram/Get: code 26 asks for a brandID when several results exist.', enforces),
  // ---- seed 000: versioning ----
  rule('000-9-deprecated', seed000('9'), 'published', 'Contact, Survey and POST /api/Transaction/Post are excluded; use Customer, SurveyApi and PostOrder (or RealTimeTriggerApi).', choice('deprecated-404')),
  rule('000-9-post-order', seed000('9'), 'published', 'POST /api/Transaction/PostOrder is supported and distinct from Post; its bodies are not shown.', choice('unpublished-body')),
  rule('000-9-release', seed000('9'), 'published', 'The contract is release 1.34.0.0; non-production runs 1.35 and compatibility is unverified.', product),
  rule('000-9-later-release-changes', seed000('9'), 'not-shown', 'What the later release of the non-production environment changes is not shown.', choice('release-next')),
  // ---- seed 001: fundraising ----
  rule('001-4-endpoints', seed001('4'), 'published', 'The ten /v1 endpoints exactly, each with Basic + X-API-Key or a JWT bearer; 401 and 403 stated.', product),
  rule('001-7-statuses', seed001('7'), 'published', '401 is a missing header or invalid credentials; 403 is a missing permission or a caller address outside the allowed range. Other statuses and the error body: not shown.', product),
  rule('001-5.1-basic-credentials', seed001('5.1'), 'published', 'System authentication: X-API-Key is the tenant code; Basic credentials are the permission name and the service key.', enforces),
  rule('001-5.1-missing-credentials', seed001('5.1'), 'published', 'A missing X-API-Key or Authorization header, or invalid credentials, is 401.', enforces),
  rule('001-5.1-permission', seed001('5.1'), 'published', 'Credentials without the permission an operation needs get 403.', enforces),
  rule('001-5.1-ip-range', seed001('5.1'), 'published', 'A caller outside the record\'s IP range gets 403 even with valid credentials.', enforces),
  rule('001-5.2-jwt', seed001('5.2'), 'published', 'A platform identity JWT bearer acts for its user; the role decides what is permitted.', enforces),
  rule('001-4-create-payment', seed001('4'), 'published', 'Create payment accepts giftAid, canRecoverTax and the UTM fields, returns the full payment and a Location header, without mainContactConstituentId or giftAidDeclarationId.', enforces),
  rule('001-4-create-constituent', seed001('4'), 'published', 'Create constituent returns it in the single-read shape with channelPreferences (other includes not returned).', enforces),
  rule('001-2-household-main-contact', seed001('2'), 'published', 'The create response of a household or organisation carries mainContact.', enforces),
  rule('001-4-constituent-includes', seed001('4'), 'published', 'A single constituent read accepts include channelPreferences, trackingCodes, contactDetails and givingSummary.', enforces),
  rule('001-4-duplicate-check', seed001('4'), 'published', 'Duplicate-check matches each carry constituentNumber.', enforces),
  rule('001-4-transaction-list', seed001('4'), 'published', 'The payment list filters on dateAdded and dateChanged and expands allocations with include.', enforces),
  rule('001-4-create-list', seed001('4'), 'published', 'Create list returns the definition with listDefinitionId, as the single read, and a Location header.', enforces),
  rule('001-4-openapi', seed001('4'), 'published', 'The OpenAPI document is at /openapi/v1.json and the explorer at /swagger/index.html.', enforces),
  rule('001-4-transaction-read', seed001('4'), 'published', 'A single payment read always carries allocations; include accepts trackingCodes and softCredits.', enforces),
  rule('001-4-lookup-language', seed001('4'), 'published', 'The lookup-types language filter matches the language code exactly.', enforces),
  rule('001-4-list-conventions', seed001('4'), 'not-shown', 'Names of the pagination, sorting and inclusion parameters, and the list layout, are not shown.', choice('fundraising-conventions')),
  rule('001-8-rate-limit', seed001('8'), 'not-shown', 'Rate limiting is a stated convention; its values and how a limited request is answered are not shown (nothing says to honour Retry-After).', choice('rate-limit')),
  rule('001-9-releases', seed001('9'), 'published', 'Changes are identified by production release date, same-day releases combined; operations and fields carry the release that introduced or changed them.', product),
  // ---- seed 002: booking ----
  rule('002-first-page', seed002('Endpoints'), 'published', 'The first response, without page, reports page 1 with the four X-Pagination headers.', enforces),
  rule('002-walk', seed002('Endpoints'), 'published', 'A client walks pages 2, 3 and so on up to X-Pagination-Total-Pages.', enforces),
  rule('002-no-status-codes', seed002('Endpoints'), 'not-shown', 'The booking service shows no paths, methods, payloads or status codes beyond its paging convention.', product),
  rule('002-page-bounds', seed002('Endpoints'), 'not-shown', 'The bounds of page are not shown.', choice('booking-page-bounds')),
];
