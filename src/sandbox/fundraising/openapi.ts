// The OpenAPI 3.0 document the sandbox serves at /openapi/v1.json: exactly the endpoints, parameters
// (including the paging names the sandbox chose), schemas and security schemes it implements.
import { CONSTITUENT_INCLUDES } from './data';
import { DEFAULT_LIMIT, MAX_LIMIT } from './listPaging';

type Json = Record<string, unknown>;

const ref = (name: string): Json => ({ $ref: `#/components/schemas/${name}` });
const param = (name: string, description: string, schema: Json, extra: Json = {}): Json => ({ name, in: 'query', description, schema, ...extra });
const pathParam = (name: string): Json => ({ name, in: 'path', required: true, schema: { type: 'integer' } });
const json = (schema: Json, description: string, headers?: Json): Json => ({ description, content: { 'application/json': { schema } }, ...(headers ? { headers } : {}) });
const problems = (...codes: number[]): Json => Object.fromEntries(codes.map((c) => [String(c), { $ref: `#/components/responses/E${c}` }]));
const location: Json = { Location: { description: 'URL of the created resource', schema: { type: 'string', format: 'uri' } } };
const paging = [
  param('limit', 'Items a page', { type: 'integer', minimum: 1, maximum: MAX_LIMIT, default: DEFAULT_LIMIT }),
  param('offset', 'Items to skip', { type: 'integer', minimum: 0, default: 0 }),
];
const includeParam = (values: readonly string[]): Json =>
  param('include', 'Expansions, comma separated or repeated', { type: 'array', items: { type: 'string', enum: values } }, { style: 'form', explode: false });
const pageOf = (item: string): Json => ({
  type: 'object',
  required: ['count', 'value', 'next_link'],
  properties: {
    count: { type: 'integer', description: 'Items matching the request, over all pages' },
    value: { type: 'array', items: ref(item) },
    next_link: { type: 'string', format: 'uri', nullable: true, description: 'Absolute URL of the next page; null on the last' },
  },
});
const listResponses = (item: string): Json => ({ '200': json(pageOf(item), 'A page'), ...problems(400, 401, 403, 429) });

export function openApiDocument(origin: string): Json {
  return {
    openapi: '3.0.3',
    info: { title: 'Fundraising service (API Workbench sandbox)', version: 'v1', description: 'The endpoints the sandbox serves. Paging, sorting and filter parameter names are the sandbox\'s choice: the published contract does not name them.' },
    servers: [{ url: origin }],
    security: [{ basicAuth: [], tenantCode: [] }, { bearerAuth: [] }],
    paths: {
      '/v1/constituents': {
        get: { operationId: 'listConstituents', parameters: paging, responses: listResponses('Constituent') },
        post: { operationId: 'createConstituent', requestBody: { required: true, content: { 'application/json': { schema: ref('ConstituentInput') } } }, responses: { '201': json(ref('CreatedConstituent'), 'Created; the single-read shape with include=channelPreferences', location), ...problems(400, 401, 403) } },
      },
      '/v1/constituents/{constituentId}': {
        get: { operationId: 'getConstituent', parameters: [pathParam('constituentId'), includeParam(CONSTITUENT_INCLUDES)], responses: { '200': json(ref('Constituent'), 'One constituent'), ...problems(400, 401, 403, 404) } },
      },
      '/v1/constituents/duplicate-check': {
        post: { operationId: 'checkDuplicateConstituent', requestBody: { required: true, content: { 'application/json': { schema: ref('DuplicateCheckInput') } } }, responses: { '200': json(ref('DuplicateCheckResult'), 'Matches'), ...problems(400, 401, 403) } },
      },
      '/v1/transactions': {
        get: {
          operationId: 'listTransactions',
          parameters: [...paging, includeParam(['allocations']),
            param('dateAdded', 'Only payments added at or after this date-time', { type: 'string', format: 'date-time' }),
            param('dateChanged', 'Only payments changed at or after this date-time', { type: 'string', format: 'date-time' }),
            param('sort', 'Order', { type: 'string', enum: ['dateAdded', '-dateAdded'], default: 'dateAdded' })],
          responses: listResponses('Transaction'),
        },
        post: { operationId: 'createTransaction', requestBody: { required: true, content: { 'application/json': { schema: ref('TransactionInput') } } }, responses: { '201': json(ref('Transaction'), 'Created; the single-read shape without includes', location), ...problems(400, 401, 403) } },
      },
      '/v1/transactions/{transactionId}': {
        get: { operationId: 'getTransaction', parameters: [pathParam('transactionId'), includeParam(['trackingCodes', 'softCredits'])], responses: { '200': json(ref('Transaction'), 'One payment, always with allocations'), ...problems(400, 401, 403, 404) } },
      },
      '/v1/lists': {
        post: { operationId: 'createListDefinition', requestBody: { required: true, content: { 'application/json': { schema: ref('ListDefinitionInput') } } }, responses: { '201': json(ref('ListDefinition'), 'Created', location), ...problems(400, 401, 403) } },
      },
      '/v1/lists/{listDefinitionId}': {
        get: { operationId: 'getListDefinition', parameters: [pathParam('listDefinitionId')], responses: { '200': json(ref('ListDefinition'), 'One list definition'), ...problems(401, 403, 404) } },
      },
      '/v1/lookup-types': {
        get: { operationId: 'listLookupTypes', parameters: [...paging, param('language', 'Language code, matched exactly', { type: 'string' })], responses: listResponses('LookupType') },
      },
    },
    components: {
      securitySchemes: {
        basicAuth: { type: 'http', scheme: 'basic', description: 'username = permission name, password = service key' },
        tenantCode: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'The tenant code' },
        bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'Platform identity token of a user (HS256 in the sandbox)' },
      },
      responses: Object.fromEntries([400, 401, 403, 404, 429].map((c) => [`E${c}`, {
        description: { 400: 'Invalid request', 401: 'Missing header or invalid credentials', 403: 'Permission lacking, or caller address outside the allowed range', 404: 'Not found', 429: 'Rate limited' }[c],
        content: { 'application/json': { schema: ref('Problem') } },
        ...(c === 429 ? { headers: { 'Retry-After': { description: 'Seconds to wait', schema: { type: 'integer' } } } } : {}),
      }])),
      schemas: schemas(),
    },
  };
}

function schemas(): Json {
  const str = { type: 'string' };
  const nstr = { type: 'string', nullable: true };
  const int = { type: 'integer' };
  const num = { type: 'number' };
  const bool = { type: 'boolean' };
  const dt = { type: 'string', format: 'date-time' };
  const obj = (properties: Json, required: string[] = []): Json => ({ type: 'object', properties, ...(required.length ? { required } : {}) });
  const constituent = {
    constituentId: int, constituentNumber: str, type: { type: 'string', enum: ['individual', 'household', 'organisation'] },
    firstName: nstr, lastName: str, name: str, email: nstr, dateAdded: dt, dateChanged: dt,
    channelPreferences: { type: 'array', items: obj({ channel: str, optedIn: bool }) },
    trackingCodes: { type: 'array', items: obj({ code: str, description: str }) },
    contactDetails: { type: 'array', items: obj({ type: str, value: str, isPrimary: bool }) },
    givingSummary: obj({ totalGiven: num, giftCount: int, currency: str }),
  };
  return {
    Problem: obj({ type: str, title: str, status: int, detail: str }),
    Constituent: obj(constituent, ['constituentId', 'constituentNumber', 'type']),
    CreatedConstituent: obj({ ...constituent, mainContact: obj({ constituentId: int, constituentNumber: str, firstName: nstr, lastName: str }) }),
    ConstituentInput: obj({ type: { type: 'string', enum: ['individual', 'household', 'organisation'], default: 'individual' }, firstName: str, lastName: str, name: str, email: str, mainContact: obj({ firstName: str, lastName: str, email: str }) }),
    DuplicateCheckInput: obj({ firstName: str, lastName: str, email: str }),
    DuplicateCheckResult: obj({ matches: { type: 'array', items: obj({ constituentId: int, constituentNumber: str, score: int, matchedOn: { type: 'array', items: str } }) } }),
    Allocation: obj({ allocationId: int, productCode: str, fundCode: str, amount: num, canRecoverTax: bool }),
    Transaction: obj({
      transactionId: int, constituentId: int, amount: num, currency: str, paymentMethod: str, transactionDate: { type: 'string', format: 'date' },
      giftAidStatusDetails: obj({ status: str, amountClaimed: { type: 'number', nullable: true } }), dateAdded: dt, dateChanged: dt,
      allocations: { type: 'array', items: ref('Allocation') },
      trackingCodes: obj({ utmSource: nstr, utmMedium: nstr, utmTerm: nstr, utmContent: nstr, utmCampaign: nstr }),
      softCredits: { type: 'array', items: obj({ constituentId: int, amount: num }) },
    }, ['transactionId', 'amount']),
    TransactionInput: obj({
      constituentId: int, amount: num, currency: str, paymentMethod: str, transactionDate: { type: 'string', format: 'date' },
      allocations: { type: 'array', items: obj({ productCode: str, fundCode: str, amount: num, canRecoverTax: bool }) },
      giftAid: obj({ addDeclaration: bool, declarationMethod: str, claimed: bool, amountClaimed: num }),
      utmSource: str, utmMedium: str, utmTerm: str, utmContent: str, utmCampaign: str,
    }, ['constituentId', 'amount']),
    ListDefinition: obj({ listDefinitionId: int, name: str, listType: str, description: nstr, dateAdded: dt }, ['listDefinitionId', 'name']),
    ListDefinitionInput: obj({ name: str, listType: str, description: str }, ['name']),
    LookupType: obj({ lookupTypeId: int, name: str, language: str, description: str }),
  };
}

/** /swagger/index.html: a plain page listing the endpoints (no script). */
export function swaggerPage(document: Json): string {
  const paths = document['paths'] as Record<string, Record<string, { operationId: string }>>;
  const rows = Object.entries(paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => `<li><code>${method.toUpperCase()} ${path}</code> ${op.operationId}</li>`));
  return `<!doctype html><html><head><meta charset="utf-8"><title>Fundraising API (sandbox)</title></head><body><h1>Fundraising API v1 (sandbox)</h1><p>OpenAPI document: <a href="/openapi/v1.json">/openapi/v1.json</a></p><ul>${rows.join('')}</ul></body></html>`;
}
