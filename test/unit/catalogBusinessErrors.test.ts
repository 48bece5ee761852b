// Business errors inside HTTP 200 (seed 000 §7.2, §7.3) and HTTP statuses in words (seed 000 §7.1,
// seed 001 §5.1, §7): one sample body per convention, success bodies, non-object bodies, code 14.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { explainAuthFailure } from '../../src/core/auth/explain';
import { createCatalog, detectBusinessErrors } from '../../src/core/catalog';
import { markFieldNotHeld, markNotHeld, TOO_LARGE_TO_KEEP } from '../../src/core/paging/notHeld';

void test('§7.2 ResponseStatus + Errors: codes looked up in the catalogue', () => {
  const report = detectBusinessErrors(
    { ID: 0, ResponseStatus: false, Errors: [{ ErrorCode: 1, ErrorDescription: 'Missing mandatory fields' }] },
    'SurveyApi',
  );
  assert.equal(report.convention, 'ResponseStatus+Errors');
  assert.equal(report.failed, true);
  assert.equal(report.catalogue, 'SurveyApi');
  assert.deepEqual(report.failures, [{ code: 1, message: 'Missing mandatory fields', meanings: ['Missing mandatory fields'] }]);
});

void test('§7.3 SurveyApi code 14 has two published meanings: flagged ambiguous (rule 000-7.3-catalogues)', () => {
  const report = detectBusinessErrors({ ResponseStatus: false, Errors: [{ ErrorCode: 14, ErrorDescription: '' }] }, 'SurveyApi');
  const [failure] = report.failures;
  assert.deepEqual(failure?.meanings, ['Invalid SessionID', 'Invalid Question ID']);
  assert.equal(failure?.ambiguous, true);
  assert.equal(failure?.message, 'Invalid SessionID or Invalid Question ID');
});

void test('§7.3 a code absent from the catalogue is flagged unknown (SurveyApi 15); codes belong to their own family', () => {
  const report = detectBusinessErrors({ ResponseStatus: false, Errors: [{ ErrorCode: 15, ErrorDescription: 'x' }] }, 'SurveyApi');
  assert.equal(report.failures[0]?.unknownCode, true);
  assert.deepEqual(report.failures[0]?.meanings, []);
  const loyalty = detectBusinessErrors({ ResponseStatus: false, Errors: [{ ErrorCode: 26, ErrorDescription: 'Many result returned, please specify a brandID' }] }, 'LoyaltyProgram');
  assert.deepEqual(loyalty.failures[0]?.meanings, ['Many result returned, please specify a brandID']);
  assert.equal(detectBusinessErrors({ ResponseStatus: false, Errors: [{ ErrorCode: 26 }] }, 'Customer').failures[0]?.unknownCode, true);
  const noCatalogue = detectBusinessErrors({ ResponseStatus: false, Errors: [{ ErrorCode: 3 }] });
  assert.deepEqual(noCatalogue.failures, [{ code: 3, message: 'Error code 3', meanings: [] }]);
});

void test('§7.1 LoyaltyPoint brand denial: HTTP 200, ResponseStatus=false, code 3', () => {
  const report = detectBusinessErrors({ ResponseStatus: false, Errors: [{ ErrorCode: 3, ErrorDescription: 'denied' }], Points: null }, 'LoyaltyPoint');
  assert.equal(report.failed, true);
  assert.deepEqual(report.failures[0]?.meanings, ['Not authorized to use the brand requested or brand id is missing']);
});

void test('§7.2 ResponseStatus=true with empty Errors is success; false with nothing described still fails (rule 000-7.2-response-status)', () => {
  assert.deepEqual(detectBusinessErrors({ ID: 9, ResponseStatus: true, Errors: [] }, 'SurveyApi'), {
    convention: 'ResponseStatus+Errors',
    failed: false,
    failures: [],
    catalogue: 'SurveyApi',
  });
  const bare = detectBusinessErrors({ ResponseStatus: false });
  assert.equal(bare.failed, true);
  assert.equal(bare.failures.length, 1);
});

void test('§7.2 Response + Error: a string or a list', () => {
  const one = detectBusinessErrors({ Response: false, Error: 'Customer not found' });
  assert.equal(one.convention, 'Response+Error');
  assert.equal(one.failed, true);
  assert.deepEqual(one.failures.map((f) => f.message), ['Customer not found']);
  const list = detectBusinessErrors({ Response: null, Error: ['a', 'b'] });
  assert.equal(list.failed, true);
  assert.deepEqual(list.failures.map((f) => f.message), ['a', 'b']);
  const ok = detectBusinessErrors({ Response: { Name: 'x' }, Error: null });
  assert.equal(ok.convention, 'Response+Error');
  assert.equal(ok.failed, false);
});

void test('§7.2 Response + Errors (strings), including GetOrdersByCustomer out of range (§4.2 rule 3)', () => {
  const report = detectBusinessErrors({ Response: false, Errors: ['pageNumber out of range'], Orders: [] });
  assert.equal(report.convention, 'Response+Errors');
  assert.equal(report.failed, true);
  assert.deepEqual(report.failures.map((f) => f.message), ['pageNumber out of range']);
  const outOfRange = detectBusinessErrors({ PageNumber: 9, PageSize: 50, TotalOrders: 3, Orders: [], Response: false, Errors: [] });
  assert.equal(outOfRange.failed, true);
  assert.equal(outOfRange.failures[0]?.message, 'Response is false');
  const empty = detectBusinessErrors({ PageNumber: 1, PageSize: 50, TotalOrders: 0, Orders: [], Response: true, Errors: [] });
  assert.equal(empty.failed, false, 'a customer with no history is a successful empty list');
});

void test('§7.2 lowercase response + errors is its own convention (names are case-sensitive) (rule 000-7.2-conventions)', () => {
  const report = detectBusinessErrors({ response: false, errors: ['bad brand'] });
  assert.equal(report.convention, 'response+errors');
  assert.equal(report.failed, true);
  assert.deepEqual(report.failures.map((f) => f.message), ['bad brand']);
  assert.equal(detectBusinessErrors({ response: true, errors: [] }).failed, false);
});

void test('§7.2 Success + Error, and the real-time dispatch variation Success=false + Message (§7.1) (rule 000-7.1-dispatch-success-false)', () => {
  const report = detectBusinessErrors({ Success: false, Error: 'Template missing' });
  assert.equal(report.convention, 'Success+Error');
  assert.deepEqual(report.failures.map((f) => f.message), ['Template missing']);
  const dispatch = detectBusinessErrors({ Success: false, Message: 'Trigger not active' });
  assert.equal(dispatch.convention, 'Success+Error');
  assert.equal(dispatch.failed, true);
  assert.deepEqual(dispatch.failures.map((f) => f.message), ['Trigger not active']);
  assert.equal(detectBusinessErrors({ Success: true, Message: 'Sent' }).failed, false);
});

void test('§7.2 Error only', () => {
  const report = detectBusinessErrors({ Error: 'Invalid token for app' });
  assert.equal(report.convention, 'Error');
  assert.equal(report.failed, true);
  assert.equal(detectBusinessErrors({ Error: '' }).failed, false);
  assert.equal(detectBusinessErrors({ Error: null, Data: 1 }).failed, false);
});

void test('bodies without a convention, and non-object bodies, give none', () => {
  for (const body of [null, undefined, [], [{ ResponseStatus: false }], '', 'Error', 0, true, {}, { Orders: [] }]) {
    assert.deepEqual(detectBusinessErrors(body, 'SurveyApi'), { convention: 'none', failed: false, failures: [] }, JSON.stringify(body));
  }
});

void test('odd error items are still reported in words', () => {
  const report = detectBusinessErrors({ ResponseStatus: false, Errors: ['plain', { Something: 'else' }, { ErrorCode: '12' }, null] }, 'SurveyApi');
  assert.deepEqual(report.failures.map((f) => f.message), ['plain', '{"Something":"else"}', 'empty input parameter']);
  assert.equal(report.failures[2]?.code, 12);
});

void test('seed 000 §7.1: engagement 401 and 403 in words, said to be stated for the catalogued families only (rule 000-7.1-http-catalogue-scope)', () => {
  const catalog = createCatalog();
  const survey = catalog.operationById('engagement/SurveyApi/AddChoiceQuestion');
  const leads = catalog.operationById('engagement/SalesLeads/GetLeads');
  assert.ok(survey && leads);
  const stated = explainAuthFailure({ status: 401, service: 'engagement', family: survey.family });
  assert.equal(stated?.reason, 'no-valid-token');
  assert.doesNotMatch(stated?.detail ?? '', /no stated HTTP error contract/);
  const unstated = explainAuthFailure({ status: 403, service: 'engagement', family: leads.family });
  assert.equal(unstated?.reason, 'method-denied');
  assert.match(unstated?.detail ?? '', /SalesLeads family has no stated HTTP error contract/);
  assert.doesNotMatch(explainAuthFailure({ status: 401, service: 'engagement' })?.detail ?? '', /no stated/, 'no family known: nothing said of it');
  assert.equal(explainAuthFailure({ status: 404, service: 'engagement', family: survey.family }), undefined);
});

void test('seed 001 §5.1, §7: fundraising 401 and 403 in words; 403 names the caller-IP range (rule 001-7-statuses)', () => {
  const w401 = explainAuthFailure({ status: 401, service: 'fundraising' });
  assert.match(w401?.detail ?? '', /X-API-Key/);
  const range = explainAuthFailure({ status: 403, service: 'fundraising', bodyText: '{"title":"caller IP address outside the allowed range"}' });
  assert.equal(range?.reason, 'caller-ip-range');
  assert.match(range?.summary ?? '', /outside the caller-IP range/);
  assert.equal(explainAuthFailure({ status: 403, service: 'fundraising', bodyText: '{"title":"Forbidden"}' })?.reason, 'missing-permission');
  assert.equal(explainAuthFailure({ status: 404, service: 'fundraising' }), undefined);
});

void test('seed 002: the booking service states no status codes (rule 002-no-status-codes)', () => {
  for (const status of [401, 403]) {
    assert.match(explainAuthFailure({ status, service: 'booking' })?.detail ?? '', /publishes no status codes/, String(status));
  }
  assert.doesNotMatch(explainAuthFailure({ status: 401 })?.detail ?? '', /booking/, 'another service is not said to be the booking one');
});

void test('a part of a streamed body not held is never read as the server\'s words', () => {
  // A stand-in for a list (its sample's 0 and {} are no words the server sent).
  const standIn = detectBusinessErrors({ Success: false, Message: markNotHeld([0, {}]) });
  assert.equal(standIn.failed, true);
  assert.deepEqual(standIn.failures.map((f) => f.message), ['Message arrived too large to keep, so its messages are not shown']);
  // A field too large to keep: its word in its place is no message either.
  const body: Record<string, unknown> = { Response: false, Error: TOO_LARGE_TO_KEEP };
  markFieldNotHeld(body, 'Error');
  assert.deepEqual(detectBusinessErrors(body).failures.map((f) => f.message), ['Error arrived too large to keep, so its messages are not shown']);
  // An empty stand-in holds no failure; a list held is read as sent.
  assert.deepEqual(detectBusinessErrors({ Success: false, Message: markNotHeld([]) }).failures.map((f) => f.message), ['Success is false']);
  assert.deepEqual(detectBusinessErrors({ Success: false, Message: ['The brand is not allowed'] }).failures.map((f) => f.message), ['The brand is not allowed']);
});
