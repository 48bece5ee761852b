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

void test('secret-named query parameters and body fields with literal values keep a request out of a collection', () => {
  for (const name of ['token', 'api_key', 'apikey', 'servicekey', 'x-api-key', 'access_token', 'secret', 'Password']) {
    assert.match(secretProblem(`GET https://x.test/a?${name}=abc123&page=1\n`) ?? '', new RegExp(`query parameter ${name} holds a literal secret`), name);
    assert.equal(secretProblem(`GET https://x.test/a?${name}={{${name.replace(/\W/g, '_')}}}&page=1\n`), undefined, `${name} as a reference`);
  }
  assert.match(secretProblem('GET https://x.test/a\n  ?page=1\n  &api_key=abc123\n') ?? '', /query parameter api_key/, 'on a continuation line');
  const json = (body: string): string => `POST https://x.test/a\nContent-Type: application/json\n\n${body}\n`;
  assert.match(secretProblem(json('{"Customer": {"Password": "pw-1"}}')) ?? '', /body field Password holds a literal secret/, 'at any depth');
  assert.match(secretProblem(json('{"service_key": 123456}')) ?? '', /body field service_key/, 'a literal number');
  assert.match(secretProblem(json('{"ClientSecret": "abc"}')) ?? '', /body field ClientSecret/, 'the env-file check\'s names too');
  assert.equal(secretProblem(json('{"password": "{{pw}}", "count": {{n}}, "token_type": "bearer", "token": null, "secret": ""}')), undefined);
  const form = 'POST https://x.test/token\nContent-Type: application/x-www-form-urlencoded\n\ngrant_type=password&username=demo&password=';
  assert.match(secretProblem(`${form}hunter22\n`) ?? '', /body field password/);
  assert.equal(secretProblem(`${form}{{$auth.password("engagement")}}\n`), undefined, 'grant_type=password is not a secret');
  assert.match(secretProblem('GET https://perm:key123@x.test/a\n') ?? '', /literal password \(user:password@host\)/);
  assert.equal(secretProblem('GET https://{{perm}}:{{key}}@x.test/a\n'), undefined);
});

void test('a JWT anywhere, and a literal credential beside a {{reference}}, keep a request out of a collection', () => {
  const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl';
  assert.match(secretProblem(`# copied from the log: ${jwt}\nGET https://x.test/a\n`) ?? '', /literal JWT/);
  assert.match(secretProblem(`POST https://x.test/a\n\n{"note": "${jwt}"}\n`) ?? '', /body field note/, 'a JWT-shaped value under any name (the env-file check)');
  assert.match(secretProblem('GET https://x.test/a\nX-Trace: eyJhbGciOiJub25lIn0.eyJzdWIiOiIxIn0.\n') ?? '', /literal JWT/, 'an unsigned JWT');
  assert.match(secretProblem('GET https://x.test/a\nAuthorization: Basic dXNlcjpwYXNz {{tenant}}\n') ?? '', /Authorization header holds a literal credential/);
  assert.match(secretProblem('GET https://x.test/a\nAuthorization: Basic {{perm}}:k3y\n') ?? '', /Authorization header/);
  assert.match(secretProblem('GET https://x.test/a\nCookie: sid=abc; theme={{t}}\n') ?? '', /Cookie header/);
  assert.equal(secretProblem('GET https://x.test/a\nAuthorization: Basic {{perm}}:{{key}}\nX-API-Key: {{tenant_code}}\nCookie: sid={{sid}}\n'), undefined);
  assert.equal(secretProblem('GET https://x.test/a\nAuthorization: Bearer {{$auth.token("engagement")}}\n'), undefined);
});
