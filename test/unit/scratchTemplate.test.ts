import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createCatalog } from '../../src/core/catalog';
import { parseHttpFile } from '../../src/core/httpfile';
import { scratchForOperation, snakeCase } from '../../src/core/scratch/scratchTemplate';

const catalog = createCatalog();

function op(id: string) {
  const found = catalog.operationById(id);
  assert.ok(found, `catalog has ${id}`);
  return found;
}

void test('a SurveyApi scratch has the request line, a bearer auth reference and the documented body fields', () => {
  const text = scratchForOperation(op('engagement/SurveyApi/AddFeedbackScoreQuestion'));
  const parsed = parseHttpFile(text);
  assert.equal(parsed.requests.length, 1);
  const request = parsed.requests[0]!;
  assert.equal(request.requestLine.method, 'POST');
  assert.equal(request.requestLine.url, '{{engagement_base_url}}/api/SurveyApi/AddFeedbackScoreQuestion');
  assert.equal(request.name, 'AddFeedbackScoreQuestion');
  assert.ok(request.headers.some((h) => h.name === 'Authorization' && h.value === 'Bearer {{$auth.token("engagement")}}'));
  assert.ok(request.body?.kind === 'inline');
  const body = JSON.parse(request.body.text) as Record<string, unknown>;
  for (const field of ['OpCode', 'QuestionLabel', 'QuestionType', 'ScoreRange', 'UseEmoticons']) assert.ok(field in body, field);
});

void test('a query-paged scratch carries the documented defaults and a variable for the customer id', () => {
  const text = scratchForOperation(op('engagement/Transaction/GetOrdersByCustomer'));
  const line = parseHttpFile(text).requests[0]!.requestLine;
  assert.equal(line.method, 'GET');
  assert.match(line.url, /pageNumber=1/);
  assert.match(line.url, /pageSize=50/);
  assert.match(line.url, /ctcID=\{\{ctc_id\}\}/);
  assert.doesNotMatch(text, /Content-Type/);
});

void test('a fundraising scratch uses Basic with the X-API-Key tenant header and holds no secret value', () => {
  const text = scratchForOperation(op('fundraising/Constituents/GetConstituent'));
  assert.match(text, /Authorization: Basic \{\{\$auth\.token\("fundraising"\)\}\}/);
  assert.match(text, /X-API-Key: \{\{tenant_code\}\}/);
  assert.match(text, /\/v1\/constituents\/\{\{constituent_id\}\}/);
});

void test('an inferred path and a deprecated operation are said in words', () => {
  assert.match(scratchForOperation(op('engagement/SalesLeads/GetLeads')), /\/api\/SalesLeads\/GetLeads is inferred from the \/api\/<Family>\/<Operation> form/);
  assert.match(scratchForOperation(op('booking/Bookings/ListBookings')), /\/bookings is inferred\. /);
  const deprecated = catalog.operations().find((o) => o.deprecated && o.path);
  assert.ok(deprecated);
  assert.match(scratchForOperation(deprecated), /# Deprecated: use /);
});

void test('the booking scratch says auth is not shown', () => {
  assert.match(scratchForOperation(op('booking/Bookings/ListBookings')), /Auth: not shown by the contract/);
});

void test('snakeCase turns contract parameter names into variable names', () => {
  assert.equal(snakeCase('ctcID'), 'ctc_id');
  assert.equal(snakeCase('BrandID'), 'brand_id');
  assert.equal(snakeCase('constituentId'), 'constituent_id');
});
