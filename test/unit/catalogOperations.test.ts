// The catalog against the seeds: every service, family and named operation is there, with the stated
// counts, paths, paging styles, auth and deprecations; paths match published and inferred routes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { createCatalog, type Family, type Operation } from '../../src/core/catalog';
import { withBodies } from '../../src/core/catalog/model';
import { builtOnFirstUse } from '../../src/core/catalog/schemas/documented';

const catalog = createCatalog();
const engagement = catalog.service('engagement');
const family = (name: string): Family => {
  const found = engagement.families.find((f) => f.name === name);
  assert.ok(found, `family ${name}`);
  return found;
};
const op = (id: string): Operation => {
  const found = catalog.operationById(id);
  assert.ok(found, `operation ${id}`);
  return found;
};

void test('seed 000 §1: all sixteen families appear, in the order the contract lists them, then the deprecated ones (rule 000-1-families)', () => {
  assert.deepEqual(
    engagement.families.map((f) => f.name),
    [
      'Customer', 'HotelBooking', 'LoyaltyPoint', 'LoyaltyProgram', 'SurveyApi', 'Transaction', 'CustomerAsset', 'SalesLeads',
      'BIDWHouse', 'Selection', 'RealTimeTriggerApi', 'CommunicationPreference', 'Subscription', 'ApiOpenAI', 'App', 'Translation',
      'Contact', 'Survey',
    ],
  );
  assert.equal(engagement.statedOperationCount, 217);
});

void test('seed 000 §1, §7.1, §7.3: stated operation counts per family; the five catalogued families total 35 (rule 000-1-operation-counts)', () => {
  const counts = Object.fromEntries(engagement.families.filter((f) => f.statedOperationCount !== undefined).map((f) => [f.name, f.statedOperationCount]));
  assert.deepEqual(counts, { Customer: 8, HotelBooking: 4, LoyaltyPoint: 2, LoyaltyProgram: 1, SurveyApi: 20 });
  assert.equal(Object.values(counts).reduce((a, b) => (a ?? 0) + (b ?? 0), 0), 35);
  for (const f of engagement.families) {
    assert.ok(f.statedOperationCount === undefined || f.operations.length <= f.statedOperationCount, f.name);
  }
});

void test('seed 000 §4.1: the ten published SurveyApi operations, POST /api/SurveyApi/<name>, PostOutput; ten not shown', () => {
  const survey = family('SurveyApi');
  assert.deepEqual(survey.operations.map((o) => o.name), [
    'AddAllOptinQuestion', 'AddCaptchaQuestion', 'AddChoiceQuestion', 'AddDateTimeQuestion', 'AddFeedbackScoreQuestion',
    'AddKnownQuestion', 'AddLabelQuestion', 'AddMatrixQuestion', 'AddMultiChannelsOptinQuestion', 'AddNameAndAddressQuestion',
  ]);
  for (const o of survey.operations) {
    assert.equal(o.method, 'POST');
    assert.equal(o.path, `/api/SurveyApi/${o.name}`);
    assert.equal(o.pathStatus, 'published');
    assert.deepEqual(o.auth, ['password-grant']);
    assert.equal(o.errorCatalogue, 'SurveyApi');
    assert.deepEqual(o.statuses, [401, 403, 404, 500]);
    assert.ok(o.requestBody && o.responseBody);
    assert.ok(o.notShown.includes('Which request fields are required: not shown (missing mandatory fields give code 1; an empty input parameter gives code 12).'));
  }
  assert.ok(survey.notShown.includes('The remaining SurveyApi operations (10 of the 20 in the family): not shown.'));
});

void test('every operation the seeds and shared names mention is in the catalog with its paging style and path status', () => {
  const expected: readonly [string, string, string | undefined, string | undefined, string][] = [
    ['engagement/Transaction/GetOrdersByCustomer', 'page-number', 'GET', '/api/Transaction/GetOrdersByCustomer', 'published'],
    ['engagement/LoyaltyProgram/Get', 'none', 'GET', '/api/LoyaltyProgram/Get', 'published'],
    ['engagement/LoyaltyPoint/GetBalance', 'none', 'GET', '/api/LoyaltyPoint/GetBalance', 'inferred'],
    ['engagement/SalesLeads/GetLeads', 'offset-remaining', 'POST', '/api/SalesLeads/GetLeads', 'inferred'],
    ['engagement/CustomerAsset/GetAssets', 'batch-cursor', 'POST', '/api/CustomerAsset/GetAssets', 'inferred'],
    ['engagement/Selection/GetSelectionResult_Ext', 'export-ordinal', 'POST', '/api/Selection/GetSelectionResult_Ext', 'inferred'],
    ['engagement/BIDWHouse/GetFactTransactions', 'stateful-extraction', 'POST', '/api/BIDWHouse/GetFactTransactions', 'inferred'],
    ['engagement/Transaction/PostOrder', 'none', 'POST', '/api/Transaction/PostOrder', 'published'],
    ['engagement/Transaction/Post', 'none', 'POST', '/api/Transaction/Post', 'published'],
    ['engagement/CommunicationPreference/Get', 'none', 'GET', '/api/CommunicationPreference/Get', 'inferred'],
    ['engagement/Subscription/Get', 'none', 'GET', '/api/Subscription/Get', 'inferred'],
    ['engagement/App/RemovePushNotificationToken', 'none', undefined, undefined, 'not-published'],
    ['booking/Bookings/ListBookings', 'page-headers', 'GET', '/bookings', 'inferred'],
  ];
  for (const [id, paging, method, path, pathStatus] of expected) {
    const o = op(id);
    assert.equal(o.paging, paging, id);
    assert.equal(o.method, method, id);
    assert.equal(o.path, path, id);
    assert.equal(o.pathStatus, pathStatus, id);
    if (pathStatus === 'inferred') assert.ok(o.notShown.some((n) => /not (published|shown)/.test(n)), `${id} says its path is inferred`);
  }
  for (const id of ['engagement/LoyaltyPoint/GetBalance', 'engagement/CustomerAsset/GetAssets', 'engagement/BIDWHouse/GetFactTransactions']) {
    assert.ok(op(id).notShown.some((n) => n.includes('not published (representative)')), id);
  }
});

void test('seed 000 §4.2, §8: GetOrdersByCustomer query controls with defaults and limits; 400 stated', () => {
  const o = op('engagement/Transaction/GetOrdersByCustomer');
  const q = Object.fromEntries((o.query ?? []).map((p) => [p.name, p]));
  assert.deepEqual(Object.keys(q), ['ctcID', 'pageNumber', 'pageSize']);
  assert.equal(q.pageNumber?.default, 1);
  assert.equal(q.pageNumber?.minimum, 1);
  assert.equal(q.pageSize?.default, 50);
  assert.equal(q.pageSize?.minimum, 1);
  assert.equal(q.pageSize?.maximum, 500);
  assert.equal(q.ctcID?.type, 'not-shown');
  assert.deepEqual(o.statuses, [400]);
});

void test('seed 000 §9: deprecated Contact and Survey families and Transaction/Post carry their replacements', () => {
  assert.deepEqual(family('Contact').deprecated, { replacement: 'Customer operations' });
  assert.deepEqual(family('Survey').deprecated, { replacement: 'SurveyApi operations' });
  const post = op('engagement/Transaction/Post');
  assert.match(post.deprecated?.replacement ?? '', /PostOrder.*RealTimeTriggerApi/);
  assert.deepEqual(post.deprecated?.replacementIds, ['engagement/Transaction/PostOrder']);
  assert.equal(op('engagement/Transaction/PostOrder').deprecated, undefined);
  const deprecatedIds = catalog.operations().filter((o) => o.deprecated).map((o) => o.id);
  assert.deepEqual(deprecatedIds, ['engagement/Transaction/Post']);
});

void test('families without shown operations say so in words', () => {
  for (const name of ['Customer', 'HotelBooking', 'RealTimeTriggerApi', 'ApiOpenAI', 'Translation']) {
    const f = family(name);
    assert.equal(f.operations.length, 0, name);
    assert.ok(f.notShown.length > 0 && f.notShown.every((n) => n.endsWith('.')), name);
  }
  assert.match(family('Customer').notShown.join(' '), /8 in the family/);
  assert.match(family('ApiOpenAI').summary, /Subscription_Key/);
});

void test('seed 001 §4: the ten fundraising endpoints exactly, Basic + X-API-Key and JWT, 401/403 stated (rule 001-4-endpoints)', () => {
  const fundraising = catalog.service('fundraising');
  const endpoints = fundraising.families.flatMap((f) => f.operations).map((o) => `${o.method} ${o.path}`);
  assert.deepEqual(endpoints.sort(), [
    'GET /v1/constituents',
    'GET /v1/constituents/{constituentId}',
    'GET /v1/lists/{listDefinitionId}',
    'GET /v1/lookup-types',
    'GET /v1/transactions',
    'GET /v1/transactions/{transactionId}',
    'POST /v1/constituents',
    'POST /v1/constituents/duplicate-check',
    'POST /v1/lists',
    'POST /v1/transactions',
  ]);
  for (const o of fundraising.families.flatMap((f) => f.operations)) {
    assert.deepEqual(o.auth, ['basic-api-key', 'jwt-bearer']);
    assert.equal(o.pathStatus, 'published');
    assert.deepEqual(o.statuses, [401, 403]);
    const isList = o.method === 'GET' && !o.path?.includes('{');
    assert.equal(o.paging, isList ? 'generic' : 'none', o.id);
    if (isList) assert.ok(o.notShown.some((n) => n.startsWith('Names of the pagination, sorting and field-inclusion parameters: not shown')), o.id);
  }
});

void test('seed 001 §2, §4: fundraising includes, filters and Location headers', () => {
  const get = (method: string, path: string) => {
    const found = catalog.match(method, path);
    assert.ok(found, `${method} ${path}`);
    return found;
  };
  const include = (o: Operation) => o.query?.find((p) => p.name === 'include')?.values;
  assert.deepEqual(include(get('GET', '/v1/constituents/42')), ['channelPreferences', 'trackingCodes', 'contactDetails', 'givingSummary']);
  assert.deepEqual(include(get('GET', '/v1/transactions')), ['allocations']);
  assert.deepEqual(include(get('GET', '/v1/transactions/7')), ['trackingCodes', 'softCredits']);
  assert.deepEqual(get('GET', '/v1/transactions').query?.map((p) => p.name), ['dateAdded', 'dateChanged', 'include']);
  assert.deepEqual(get('GET', '/v1/lookup-types').query?.map((p) => p.name), ['language']);
  assert.deepEqual(get('POST', '/v1/transactions').responseHeaders?.map((h) => h.name), ['Location']);
  assert.deepEqual(get('POST', '/v1/lists').responseHeaders?.map((h) => h.name), ['Location']);
  assert.equal(get('POST', '/v1/constituents').responseHeaders, undefined);
});

void test('seed 002: the booking list has the page parameter and the four X-Pagination-* headers', () => {
  const o = op('booking/Bookings/ListBookings');
  assert.deepEqual(o.query?.map((p) => [p.name, p.type, p.default]), [['page', 'integer', 1]]);
  assert.deepEqual(o.responseHeaders?.map((h) => h.name), [
    'X-Pagination-Page', 'X-Pagination-Per-Page', 'X-Pagination-Total-Pages', 'X-Pagination-Total-Results',
  ]);
  assert.deepEqual(o.auth, ['not-shown']);
});

void test('match: published and inferred paths, with a base prefix and a query string', () => {
  const cases: readonly [string, string, string | undefined][] = [
    ['POST', '/api/SurveyApi/AddChoiceQuestion', 'engagement/SurveyApi/AddChoiceQuestion'],
    ['post', '/prefix/api/SurveyApi/AddLabelQuestion/', 'engagement/SurveyApi/AddLabelQuestion'],
    ['GET', '/api/Transaction/GetOrdersByCustomer?ctcID=1&pageNumber=2&pageSize=500', 'engagement/Transaction/GetOrdersByCustomer'],
    ['POST', '/api/Transaction/Post', 'engagement/Transaction/Post'],
    ['POST', '/api/Transaction/PostOrder', 'engagement/Transaction/PostOrder'],
    ['POST', '/api/Selection/GetSelectionResult_Ext', 'engagement/Selection/GetSelectionResult_Ext'],
    ['POST', '/api/SalesLeads/GetLeads', 'engagement/SalesLeads/GetLeads'],
    ['POST', '/api/CustomerAsset/GetAssets', 'engagement/CustomerAsset/GetAssets'],
    ['POST', '/api/BIDWHouse/GetFactTransactions', 'engagement/BIDWHouse/GetFactTransactions'],
    ['GET', '/api/LoyaltyPoint/GetBalance?ctcID=1&BrandID=2', 'engagement/LoyaltyPoint/GetBalance'],
    ['GET', '/api/LoyaltyProgram/Get?BrandID=2', 'engagement/LoyaltyProgram/Get'],
    ['GET', '/api/CommunicationPreference/Get', 'engagement/CommunicationPreference/Get'],
    ['GET', '/api/Subscription/Get?ExternalID=x', 'engagement/Subscription/Get'],
    ['POST', '/v1/constituents/duplicate-check', 'fundraising/Constituents/CheckDuplicates'],
    ['GET', '/v1/constituents/12345', 'fundraising/Constituents/GetConstituent'],
    ['GET', '/v1/constituents?limit=50', 'fundraising/Constituents/ListConstituents'],
    ['POST', '/v1/constituents', 'fundraising/Constituents/CreateConstituent'],
    ['GET', '/v1/lists/abc', 'fundraising/Lists/GetListDefinition'],
    ['GET', '/bookings?page=3', 'booking/Bookings/ListBookings'],
    ['GET', '/api/SurveyApi/AddChoiceQuestion', undefined],
    ['DELETE', '/v1/constituents/1', undefined],
    ['POST', '/api/Nope/Nothing', undefined],
  ];
  for (const [method, path, id] of cases) assert.equal(catalog.match(method, path)?.id, id, `${method} ${path}`);
  // Asked again (remembered answers), in other spellings, and after more paths than are remembered: the same answers.
  const again = createCatalog();
  for (let round = 0; round < 2; round++) {
    for (const [method, path, id] of cases) {
      assert.equal(again.match(method.toLowerCase(), path)?.id, id, `${method} ${path}`);
      assert.equal(again.match(method, `${path}#frag`)?.id, id, `${method} ${path}#frag`);
    }
    for (let i = 0; i < 1_500; i++) assert.equal(again.match('GET', `/v1/constituents/${i}`)?.id, 'fundraising/Constituents/GetConstituent');
  }
});

void test('operation ids are unique and every operation points back to a seed section', () => {
  const ids = catalog.operations().map((o) => o.id);
  assert.equal(new Set(ids).size, ids.length);
  for (const o of catalog.operations()) {
    assert.ok(['000', '001', '002'].includes(o.source.seed), o.id);
    assert.equal(o.id, `${o.service}/${o.family}/${o.name}`);
    assert.equal(o.origin, 'contract');
    assert.equal(o.method === undefined, o.pathStatus === 'not-published', o.id);
  }
});

void test('the engagement token endpoint is described with its form fields and response schema', () => {
  const token = engagement.tokenEndpoint;
  assert.ok(token);
  assert.equal(token.path, '/token');
  assert.deepEqual(token.alternatePaths, ['/Token']);
  assert.deepEqual(token.formFields.map((f) => f.name), ['grant_type', 'username', 'password']);
  assert.ok(token.responseBody.safeParse({ access_token: 'a', token_type: 'bearer', expires_in: 259200, userName: 'u', extra: 1 }).success);
  assert.ok(!token.responseBody.safeParse({ access_token: 'a', token_type: 'bearer', expires_in: '259200', userName: 'u' }).success);
  assert.deepEqual(token.errors.map((e) => `${e.error}: ${e.description}`), ['invalid_grant: The user name or password is incorrect.', 'invalid_grant: The user is locked.']);
});

void test('bodies are built on first read, once: the same schema every read, through spreads and comparisons', () => {
  let builds = 0;
  const body = builtOnFirstUse(() => {
    builds += 1;
    return z.object({ A: z.number() });
  });
  const operation = withBodies({ id: 'x/y/z', name: 'z' }, { responseBody: body, requestBody: undefined });
  assert.equal(builds, 0, 'declaring an operation builds nothing');
  assert.ok(!('requestBody' in operation), 'an operation without a request body has none');
  const first = operation.responseBody;
  assert.equal(builds, 1);
  assert.equal(operation.responseBody, first);
  assert.equal(body(), first);
  assert.equal(builds, 1, 'built once');
  const copy = { ...operation, id: 'x/y/w' };
  assert.equal(copy.responseBody, first, 'a spread copies the built schema');
  assert.deepEqual(Object.keys(operation).sort(), ['id', 'name', 'responseBody']);
  assert.deepEqual({ ...operation }, { id: 'x/y/z', name: 'z', responseBody: first });
  // The catalog's own operations: a body read twice is one schema, and it validates.
  const survey = op('engagement/SurveyApi/AddLabelQuestion');
  assert.equal(survey.responseBody, survey.responseBody);
  assert.equal(survey.requestBody, op('engagement/SurveyApi/AddLabelQuestion').requestBody);
  assert.ok(survey.responseBody?.safeParse({ ID: 1, Errors: [], ResponseStatus: true }).success);
  assert.ok(!survey.responseBody?.safeParse({ ID: '1', Errors: [], ResponseStatus: true }).success);
  const token = engagement.tokenEndpoint!;
  assert.equal(token.responseBody, token.responseBody);
});

