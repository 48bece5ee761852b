// The results view model's body in each of its three shapes (viewModel.ts: a body the exchange parsed, a
// body received as text that looks like JSON, any other text): which report the banner shows, and what
// the 401/403 explanation reads of the body.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { HttpResponse } from '../../src/core/http/types';
import { buildResultsViewModel, type ResultsInput } from '../../src/core/results/viewModel';
import { Redactor } from '../../src/core/secrets/redact';

const FAILED_14 = { ResponseStatus: false, Errors: [{ ErrorCode: 14, ErrorDescription: 'Invalid SessionID' }] };
const CALLER_SAYS_OK = { convention: 'caller', failed: false, failures: [] };
const IP_REFUSAL = { error: 'caller address outside the allowed range' };

function response(bodyText: string, overrides: Partial<HttpResponse> = {}): HttpResponse {
  return {
    status: 200, statusText: 'OK', headers: { 'content-type': 'application/json' }, bodyText,
    timing: { startedAt: Date.UTC(2026, 10, 22, 10, 0, 0), firstByteMs: 1, totalMs: 2 }, sizeBytes: Buffer.byteLength(bodyText), ...overrides,
  };
}

const base = { requestKey: 'k', request: { method: 'POST', url: 'http://127.0.0.1:1/x', headers: {} }, id: 'id' };

/** The same body as text, and as the exchange hands it over parsed. */
function bothWays(body: unknown, overrides: Partial<ResultsInput> = {}, status = 200): [ResultsInput, ResultsInput] {
  const text = JSON.stringify(body);
  const redactor = new Redactor([]);
  const redaction = { value: (v: unknown) => redactor.value(v), text: (t: string) => redactor.text(t) };
  return [
    { ...base, response: response(text, { status }), ...overrides },
    { ...base, response: response('', { status }), parsedBody: { value: JSON.parse(text) as unknown, chars: text.length, redaction }, ...overrides },
  ];
}

void test('without a report of the caller, a known catalogue has the body checked for business errors, parsed or as text', () => {
  for (const vm of bothWays(FAILED_14, { catalogue: 'SurveyApi' }).map(buildResultsViewModel)) {
    assert.equal(vm.businessErrors?.failures[0]?.code, 14);
  }
  for (const vm of bothWays(FAILED_14, { service: 'engagement' }).map(buildResultsViewModel)) {
    assert.equal(vm.businessErrors?.failures[0]?.code, 14, 'an engagement call is checked without a catalogue');
  }
  for (const vm of bothWays(FAILED_14, { service: 'booking' }).map(buildResultsViewModel)) {
    assert.equal(vm.businessErrors, undefined, 'neither an engagement call nor a catalogue: not checked');
  }
});

void test("the caller's report wins over the body: parsed, as JSON text, or as text that is not JSON", () => {
  for (const vm of bothWays(FAILED_14, { catalogue: 'SurveyApi', businessErrors: CALLER_SAYS_OK }).map(buildResultsViewModel)) {
    assert.equal(vm.businessErrors, undefined);
  }
  const failing = { convention: 'caller', failed: true, failures: [{ message: 'refused', meanings: [] }] };
  const notJson = buildResultsViewModel({ ...base, response: response('refused', { headers: { 'content-type': 'text/plain' } }), businessErrors: failing });
  assert.equal(notJson.businessErrors?.failures[0]?.message, 'refused');
  assert.equal(notJson.body.language, 'text');
});

void test('a 403 is explained from the body the panel shows, parsed or as text', () => {
  for (const vm of bothWays(IP_REFUSAL, { service: 'fundraising' }, 403).map(buildResultsViewModel)) {
    assert.match(vm.auth?.title ?? '', /caller-IP range/);
  }
  for (const vm of bothWays({ error: 'no permission' }, { service: 'fundraising' }, 403).map(buildResultsViewModel)) {
    assert.doesNotMatch(vm.auth?.title ?? '', /caller-IP range/);
  }
});

void test('a JSON content type decides in any letter case; without one, only a body starting with { or [ is read as JSON', () => {
  const quoted = '"just a string"';
  assert.equal(buildResultsViewModel({ ...base, response: response(quoted, { headers: { 'Content-Type': 'application/JSON' } }) }).body.language, 'json');
  assert.equal(buildResultsViewModel({ ...base, response: response(quoted, { headers: {} }) }).body.language, 'text');
  assert.equal(buildResultsViewModel({ ...base, response: response('  [1]', { headers: {} }) }).body.language, 'json');
  const empty = buildResultsViewModel({ ...base, response: response(''), businessErrors: CALLER_SAYS_OK });
  assert.equal(empty.body.note, 'The response has no body.');
});
