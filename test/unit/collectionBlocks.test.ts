import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseHttpFile } from '../../src/core/httpfile';
import { appendRequestBlock, removeRequestBlock, renameRequest, requestBlockText, secretProblem } from '../../src/core/collections/requestBlocks';

const FILE = [
  '# a collection',
  'GET {{booking_base_url}}/bookings',
  '',
  '### orders',
  '# @name orders',
  'GET {{engagement_base_url}}/api/Transaction/GetOrdersByCustomer?ctcID=1',
  'Authorization: Bearer {{$auth.token("engagement")}}',
  '',
  '### leads',
  'POST {{engagement_base_url}}/api/SalesLeads/GetLeads',
  'Content-Type: application/json',
  '',
  '{ "CtcID": 1 }',
  '',
].join('\n');

void test('a request block is taken out with its directives, led by ###', () => {
  const block = requestBlockText(FILE, 1);
  assert.match(block, /^### orders\n# @name orders\nGET /);
  assert.ok(block.endsWith('}}\n'));
  const first = requestBlockText(FILE, 0);
  assert.match(first, /^###\n# a collection\nGET /);
});

void test('appending a block keeps the file and adds the request at the end', () => {
  const target = 'GET https://example.test/a\n';
  const result = appendRequestBlock(target, requestBlockText(FILE, 2));
  const parsed = parseHttpFile(result);
  assert.equal(parsed.requests.length, 2);
  assert.equal(parsed.requests[1]?.requestLine.url, '{{engagement_base_url}}/api/SalesLeads/GetLeads');
  assert.equal(parsed.requests[1]?.body?.kind === 'inline' ? parsed.requests[1].body.text : '', '{ "CtcID": 1 }');
  assert.equal(appendRequestBlock('', '### x\nGET /x\n'), '### x\nGET /x\n');
});

void test('removing a request leaves every other request as it was', () => {
  const result = removeRequestBlock(FILE, 1);
  const parsed = parseHttpFile(result);
  assert.deepEqual(parsed.requests.map((r) => r.requestLine.method), ['GET', 'POST']);
  assert.ok(!result.includes('GetOrdersByCustomer'));
  assert.ok(result.includes('# a collection'));
});

void test('renaming replaces an existing @name or adds one above the request line', () => {
  const renamed = parseHttpFile(renameRequest(FILE, 1, 'ordersPage1'));
  assert.equal(renamed.requests[1]?.name, 'ordersPage1');
  const added = parseHttpFile(renameRequest(FILE, 2, 'leadsOfOne'));
  assert.equal(added.requests[2]?.name, 'leadsOfOne');
  assert.throws(() => renameRequest(FILE, 1, 'two words'), /not a request name/);
  assert.throws(() => renameRequest(FILE, 9, 'x'), /no request #10/);
});

void test('a literal credential or a known secret keeps a request out of a collection', () => {
  assert.equal(secretProblem(requestBlockText(FILE, 1)), undefined);
  assert.match(secretProblem('GET https://x.test/\nAuthorization: Bearer eyJabc.def.ghi\n') ?? '', /literal credential/);
  assert.match(secretProblem('GET https://x.test/\nX-API-Key: TENANT-1\n') ?? '', /X-API-Key header/);
  assert.match(secretProblem('GET https://x.test/?k=sk_12345\n', ['sk_12345']) ?? '', /secret value/);
});
