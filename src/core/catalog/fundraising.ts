// The fundraising service (seed 001): the ten /v1 endpoints of §4 exactly, grouped by resource.
// Both authentication methods apply to every endpoint. List endpoints follow the service's generic
// paging conventions, whose parameter names are not published.
import { withBodies, type BodyBuilders, type Family, type Operation, type QueryParameter, type ReleaseMark, type ResponseHeader, type Service } from './model';
import { FUNDRAISING_FIRST_RELEASE as FIRST, FUNDRAISING_LATER_RELEASE as LATER, fundraisingRelease } from './releases';
import { seed001 } from './schemas/documented';
import {
  CONSTITUENT_INCLUDES,
  Constituent,
  CreateConstituentRequest,
  CreateListRequest,
  CreateTransactionRequest,
  DuplicateCheckRequest,
  DuplicateCheckResponse,
  FundraisingListResponse,
  ListDefinition,
  TRANSACTION_LIST_INCLUDES,
  TRANSACTION_READ_INCLUDES,
  Transaction,
} from './schemas/fundraising';

const s4 = seed001('4');
const STATED_STATUSES = [401, 403] as const;

const LIST_NOT_SHOWN = [
  'Names of the pagination, sorting and field-inclusion parameters: not shown (configure them, or import the OpenAPI document at /openapi/v1.json).',
  'Layout of the list result: not shown.',
  'Rate limit values, page sizes and maximums: not shown (rate limiting is a stated convention; how a limited request is answered is not shown).',
];
/** Create payment: first release; the later one added Gift Aid and UTM input and returns the full payment, without two ids. */
export const CREATE_PAYMENT_RELEASE: ReleaseMark = {
  introduced: FIRST,
  changed: LATER,
  removedResponseFields: [
    { name: 'mainContactConstituentId', readFrom: 'the main contact, read from the constituent' },
    { name: 'giftAidDeclarationId', readFrom: 'the Gift Aid declaration, read from the constituent' },
  ],
};

const ERRORS_NOT_SHOWN = 'Full list of status codes and the error body shape: not shown.';

type Draft = Omit<Operation, 'id' | 'service' | 'auth' | 'origin' | 'pathStatus' | 'statuses' | 'source' | 'paging' | 'requestBody' | 'responseBody'> & BodyBuilders & {
  readonly paging?: Operation['paging'];
};

function endpoint({ requestBody, responseBody, ...draft }: Draft): Operation {
  return withBodies({
    paging: 'none',
    ...draft,
    id: `fundraising/${draft.family}/${draft.name}`,
    service: 'fundraising',
    auth: ['basic-api-key', 'jwt-bearer'],
    pathStatus: 'published',
    statuses: STATED_STATUSES,
    notShown: [...draft.notShown, ERRORS_NOT_SHOWN],
    source: s4,
    origin: 'contract',
  }, { requestBody, responseBody });
}

function include(values: readonly string[], meaning: string): QueryParameter {
  return { name: 'include', type: 'string', meaning, values, source: s4 };
}

function location(meaning: string): ResponseHeader {
  return { name: 'Location', meaning, source: s4 };
}

const constituentOps: readonly Operation[] = [
  endpoint({
    family: 'Constituents',
    name: 'ListConstituents',
    release: { introduced: FIRST },
    summary: 'List of constituents.',
    method: 'GET',
    path: '/v1/constituents',
    paging: 'generic',
    // The constituent's number is the identifying field the contract names (§2; duplicate-check matches carry it).
    recordKey: { field: 'constituentNumber', source: seed001('2') },
    responseBody: FundraisingListResponse,
    notShown: LIST_NOT_SHOWN,
  }),
  endpoint({
    family: 'Constituents',
    name: 'CreateConstituent',
    release: { introduced: FIRST, changed: LATER },
    summary: 'Creates a constituent; returns it in the shape of the single read with include=channelPreferences (other includes are not returned).',
    method: 'POST',
    path: '/v1/constituents',
    requestBody: CreateConstituentRequest,
    responseBody: Constituent,
    notShown: ['Request body beyond the fields named: not shown.'],
  }),
  endpoint({
    family: 'Constituents',
    name: 'GetConstituent',
    release: { introduced: FIRST, changed: LATER },
    summary: 'One constituent.',
    method: 'GET',
    path: '/v1/constituents/{constituentId}',
    query: [include(CONSTITUENT_INCLUDES, 'expansions to include')],
    responseBody: Constituent,
    notShown: ['Full field list of a constituent: not shown beyond those named.', 'How several include values are combined: not shown.'],
  }),
  endpoint({
    family: 'Constituents',
    name: 'CheckDuplicates',
    release: { introduced: FIRST, changed: LATER },
    summary: 'Checks an incoming record for duplicates; each match carries constituentNumber.',
    method: 'POST',
    path: '/v1/constituents/duplicate-check',
    requestBody: DuplicateCheckRequest,
    responseBody: DuplicateCheckResponse,
    notShown: ['Request body and the layout of the matches: not shown.'],
  }),
];

const transactionOps: readonly Operation[] = [
  endpoint({
    family: 'Transactions',
    name: 'ListTransactions',
    release: { introduced: LATER },
    summary: 'Payments of the instance; filters dateAdded and dateChanged; sorting; include=allocations.',
    method: 'GET',
    path: '/v1/transactions',
    paging: 'generic',
    // The single read names a payment by its transactionId (§4: /v1/transactions/{transactionId}).
    recordKey: { field: 'transactionId', source: s4 },
    query: [
      { name: 'dateAdded', type: 'not-shown', meaning: 'filter on the date the payment was added (format and operators: not shown)', source: s4 },
      { name: 'dateChanged', type: 'not-shown', meaning: 'filter on the date the payment was last changed (format and operators: not shown)', source: s4 },
      include(TRANSACTION_LIST_INCLUDES, 'expand allocations on each payment'),
    ],
    responseBody: FundraisingListResponse,
    notShown: [...LIST_NOT_SHOWN, 'Name and values of the sorting parameter: not shown.'],
  }),
  endpoint({
    family: 'Transactions',
    name: 'GetTransaction',
    release: { introduced: LATER },
    summary: 'One payment, always with allocations.',
    method: 'GET',
    path: '/v1/transactions/{transactionId}',
    query: [include(TRANSACTION_READ_INCLUDES, 'expansions to include')],
    responseBody: Transaction,
    notShown: ['Full field list of a payment: not shown beyond those named.'],
  }),
  endpoint({
    family: 'Transactions',
    name: 'CreateTransaction',
    release: CREATE_PAYMENT_RELEASE,
    summary: 'Creates a payment (giftAid, allocations[].canRecoverTax, UTM fields); returns it in full, as the single read without includes.',
    method: 'POST',
    path: '/v1/transactions',
    requestBody: CreateTransactionRequest,
    responseBody: Transaction,
    responseHeaders: [location('points at the new payment')],
    notShown: [
      'Request body beyond the fields named: not shown.',
      'Types, formats and allowed values of the named fields: not shown (canRecoverTax is boolean).',
    ],
  }),
];

const listOps: readonly Operation[] = [
  endpoint({
    family: 'Lists',
    name: 'CreateListDefinition',
    release: { introduced: FIRST, changed: LATER },
    summary: 'Creates a list definition; returns it as the single read (with listDefinitionId).',
    method: 'POST',
    path: '/v1/lists',
    requestBody: CreateListRequest,
    responseBody: ListDefinition,
    responseHeaders: [location('points at the new list definition')],
    notShown: ['Request body beyond the fields named: not shown.'],
  }),
  endpoint({
    family: 'Lists',
    name: 'GetListDefinition',
    release: { introduced: FIRST },
    summary: 'One list definition.',
    method: 'GET',
    path: '/v1/lists/{listDefinitionId}',
    responseBody: ListDefinition,
    notShown: ['Full field list of a list definition: not shown beyond listDefinitionId.'],
  }),
];

const lookupOps: readonly Operation[] = [
  endpoint({
    family: 'Lookups',
    name: 'ListLookupTypes',
    release: { introduced: FIRST, changed: LATER },
    summary: 'Lookup types; the language filter matches the language code exactly.',
    method: 'GET',
    path: '/v1/lookup-types',
    paging: 'generic',
    query: [{ name: 'language', type: 'not-shown', meaning: 'language code; matches exactly', source: s4 }],
    responseBody: FundraisingListResponse,
    notShown: LIST_NOT_SHOWN,
  }),
];

function family(name: string, summary: string, operations: readonly Operation[], notShown: readonly string[]): Family {
  return { name, service: 'fundraising', summary, operations, notShown, source: seed001('1') };
}

export const fundraisingService: Service = {
  id: 'fundraising',
  title: 'Fundraising service',
  summary: 'Constituents, transactions, lists and lookups under /v1. Basic auth with an X-API-Key tenant header, or a JWT bearer.',
  auth: ['basic-api-key', 'jwt-bearer'],
  families: [
    family('Constituents', 'Individuals, households and organisations, with duplicate checking.', constituentOps, [
      'Update and delete of constituents, and the sub-resources contact details, tags and channel preferences: not shown.',
    ]),
    family('Transactions', 'Payments, each split into allocations across products and funds.', transactionOps, []),
    family('Lists', 'List definitions, runs, run history and results, list types.', listOps, [
      'List runs (start, cancel), run history, run results and list types: paths not shown.',
    ]),
    family('Lookups', 'Lookup values and the lookup types that group them.', lookupOps, ['Lookup values: paths not shown.']),
    family('Campaigns', 'Campaigns and campaign detail (read).', [], ['Campaign operations: paths, methods and payloads not shown.']),
  ],
  notShown: [
    'How a platform identity (JWT) token is obtained: not shown.',
    'Full list of status codes and the error body shape: not shown.',
    'Types, formats and allowed values of the named fields: not shown.',
    'States and transitions: not shown.',
    'Events: not shown.',
    'Dates of the releases in the history: not shown.',
  ],
  release: fundraisingRelease,
  source: seed001('1'),
};
