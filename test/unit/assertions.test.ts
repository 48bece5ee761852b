// `??` assertions: parsed from the line (subjects, predicates, faults as diagnostics) and checked against
// an exchange (status, header, JSON path, duration, business report, rows) with httpYac's conversions.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseHttpFile } from '../../src/core/httpfile';
import { assertionStep, assertionSteps, evaluateAssertions, notRunOf, type AssertedExchange } from '../../src/core/run/assertions';
import type { StepView } from '../../src/core/run/exchangeModel';

const exchange: AssertedExchange = {
  status: 200,
  headers: { 'content-type': 'application/json; charset=utf-8', 'x-total-count': '3' },
  bodyText: JSON.stringify({ count: 3, value: [{ id: 'a', tags: ['x'] }], next_link: null, ok: true, name: 'Ann' }),
  durationMs: 41.6,
  rows: 3,
};

function check(lines: readonly string[], ex: AssertedExchange = exchange): Array<[string, string, string]> {
  const file = parseHttpFile(`GET https://x.test/v1/a\n\n${lines.map((l) => `?? ${l}`).join('\n')}\n`);
  assert.deepEqual(file.diagnostics, [], 'no parse fault');
  return evaluateAssertions(file.requests[0]?.assertions ?? [], ex).map((r) => [r.text, r.outcome, r.actual]);
}

void test('passing assertions of every subject and predicate', () => {
  const lines = [
    'status == 200', 'status != 404', 'status < 300', 'status >= 200', 'header content-type includes json', 'header X-Total-Count == 3',
    'header content-type startsWith application/', 'header location isFalse', 'body $.count == 3', 'body count > 2', 'body $.value isArray',
    'body $.value[0].id == a', 'body $.value[0].tags includes x', 'body $.name == "Ann"', 'body $.ok == true', 'body $.ok isBoolean',
    'body $.next_link == null', 'body $.count isNumber', 'body $.name isString', 'body $.name endsWith nn', 'body $.value[0] exists',
    'body $.missing isFalse', 'body includes "count"', 'duration < 2000', 'duration <= 42', 'rows >= 1', 'rows == 3', 'business ok',
    'status not equals 500', 'body $.value == [{"id":"a","tags":["x"]}]',
  ];
  for (const [text, outcome, actual] of check(lines)) assert.equal(outcome, 'passed', `${text} (actual ${actual})`);
});

void test('failing assertions say what the response held', () => {
  assert.deepEqual(check(['status == 201', 'header location exists', 'body $.count < 3', 'body $.name == Bob', 'body $.value[3].id == a', 'duration < 10', 'rows == 0']), [
    ['status == 201', 'failed', '200'],
    ['header location exists', 'failed', 'absent'],
    ['body $.count < 3', 'failed', '3'],
    ['body $.name == Bob', 'failed', 'Ann'],
    ['body $.value[3].id == a', 'failed', 'absent'],
    ['duration < 10', 'failed', '42'],
    ['rows == 0', 'failed', '3'],
  ]);
});

void test('business ok and business code read the service convention; a non-JSON body and no rows fail in words', () => {
  const failing: AssertedExchange = { ...exchange, bodyText: JSON.stringify({ ResponseStatus: false, Errors: [{ ErrorCode: 26, ErrorDescription: 'No data found' }] }), rows: undefined };
  assert.deepEqual(check(['business ok', 'business code == 26', 'business code != 26', 'rows >= 1'], failing).map(([t, o, a]) => [t, o, a]), [
    ['business ok', 'failed', 'code 26 No data found'],
    ['business code == 26', 'passed', '26'],
    ['business code != 26', 'failed', '26'],
    ['rows >= 1', 'failed', 'the response holds no rows'],
  ]);
  assert.deepEqual(check(['business code == 26']), [['business code == 26', 'failed', 'absent']]);
  assert.deepEqual(check(['body $.a == 1'], { ...exchange, bodyText: '<html>' }), [['body $.a == 1', 'failed', 'the body is not JSON']]);
});

void test('malformed assertion lines are errors with the reason; ?? js is kept and listed as not run', () => {
  const file = parseHttpFile([
    'GET https://x.test/v1/a', '', '?? status', '?? colour == red', '?? header == 1', '?? status == ', '?? business maybe', '?? business ok == 1',
    '?? status isArray 3', '?? js response.parsedBody.a == 1', '> {% client.test("a", () => {}) %}',
  ].join('\n'));
  const faults = file.diagnostics.filter((d) => d.code === 'malformed-assertion');
  assert.deepEqual(faults.map((d) => d.range.start.line), [2, 3, 4, 5, 6, 7, 8]);
  assert.ok(faults.every((d) => d.severity === 'error'));
  assert.match(faults[1]?.message ?? '', /Unknown assertion subject 'colour'/);
  const block = file.blocks[0];
  const request = file.requests[0];
  assert.ok(block && request);
  assert.deepEqual(notRunOf(block, request).map((n) => [n.line, n.what]), [
    [9, 'script assertion (?? js response.parsedBody.a == 1)'],
    [10, 'response handler script (> {% %})'],
  ]);
});

void test('assertions right after the headers (no blank line) are assertions, not headers', () => {
  const file = parseHttpFile('GET https://x.test/v1/a\nAccept: application/json\n?? status == 200\n');
  assert.deepEqual(file.diagnostics, []);
  assert.deepEqual(file.requests[0]?.headers.map((h) => h.name), ['Accept']);
  assert.deepEqual(file.requests[0]?.assertions.map((a) => a.text), ['status == 200']);
});

void test('every kept construct that would act is listed as not run: imports, run lines, redirects, curl, file-level scripts', async () => {
  const { readFileSync } = await import('node:fs');
  const path = await import('node:path');
  const { fileNotRunOf } = await import('../../src/core/run/assertions');
  const read = (name: string) => parseHttpFile(readFileSync(path.join(import.meta.dirname, '../fixtures/compat', name), 'utf8'));
  const jetbrains = read('jetbrains-run-import.http');
  assert.deepEqual(fileNotRunOf(jetbrains).map((n) => [n.line + 1, n.what]), [
    [1, 'JetBrains HTTP Client import (the imported requests are not loaded)'],
    [4, 'JetBrains HTTP Client run (the named request is not run from here)'],
    [5, 'JetBrains HTTP Client run (the named request is not run from here)'],
  ]);
  const last = jetbrains.blocks.at(-1);
  assert.ok(last?.request);
  assert.deepEqual(notRunOf(last, last.request).map((n) => [n.line + 1, n.what]), [[13, 'response redirect (the response is not written to that file)']]);
  const restClient = read('restclient-syntax.http');
  // A curl command is a request the file holds: not a note among the constructs not run, but a request not run (counted).
  assert.deepEqual(fileNotRunOf(restClient).map((n) => [n.line + 1, n.what]), []);
  const { unsentRequestsIn } = await import('../../src/core/run/notRun');
  assert.deepEqual(restClient.blocks.flatMap((b) => unsentRequestsIn(b)).map((u) => [u.line, u.tool]), [[30, 'REST Client']]);
  const preamble = read('httpyac-preamble.http');
  const first = preamble.blocks[0];
  assert.ok(first?.request);
  assert.deepEqual(notRunOf(first, first.request).map((n) => n.what), ['httpYac gRPC proto import', 'httpYac XPath namespace'], 'block comments are understood, not listed');
});

void test('an assertion\'s actual never carries a credential: credential headers, secret-named body paths, JWTs and secret fields of a whole body are masked', async () => {
  const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhbm4ifQ.c2lnbmF0dXJlLXNlY3JldA';
  const secrets: AssertedExchange = {
    ...exchange,
    headers: { 'set-cookie': 'sid=c00kie-secret; HttpOnly', 'x-auth-token': 'hdr-secret-1', 'x-trace': jwt, 'content-type': 'application/json' },
    bodyText: JSON.stringify({ access_token: 'tok-secret-2', data: [{ db_password: 'pw-secret-3' }], id_token: jwt, note: jwt, auth: { ClientSecret: 'cs-secret-4', user: 'ann' } }),
  };
  const lines = ['header set-cookie exists', 'header X-Auth-Token == nope', 'header x-trace exists', 'body $.access_token exists', 'body $.data[0].db_password exists',
    'body $.note exists', 'body $.auth exists', 'body includes "ann"', "body $['access_token'] == wrong"];
  const results = check(lines, secrets);
  const leaked = /c00kie-secret|hdr-secret-1|tok-secret-2|pw-secret-3|cs-secret-4|eyJhbGciOiJIUzI1NiJ9/;
  for (const [text, , actual] of results) assert.doesNotMatch(actual, leaked, `?? ${text} — actual ${actual}`);
  assert.deepEqual(results.map(([, outcome]) => outcome), ['passed', 'failed', 'passed', 'passed', 'passed', 'passed', 'passed', 'passed', 'failed'], 'masking changes what is shown, not the verdict');
  assert.equal(results[0]?.[2], '***');
  assert.match(results[6]?.[2] ?? '', /"user":"ann"/, 'the rest of an object stays readable');

  // The step's findings (what the CLI, reports and the panel show) say the same.
  const file = parseHttpFile(`GET https://x.test/v1/a\n\n${lines.map((l) => `?? ${l}`).join('\n')}\n`);
  const request = file.requests[0]!;
  const response = { status: 200, statusText: 'OK', headers: secrets.headers, bodyText: secrets.bodyText, timing: { totalMs: 5 } };
  const findings = await assertionStep(request).run({ response, rows: undefined, operation: undefined } as unknown as StepView);
  assert.doesNotMatch(JSON.stringify(findings), leaked);
});

void test('assertionSteps: no step for a request without ?? lines (its step finds nothing), the assertion step for one with', async () => {
  const file = parseHttpFile('GET https://x.test/v1/a\n\n###\nGET https://x.test/v1/b\n\n?? status == 200\n');
  const [plain, asserted] = file.requests;
  const response = { status: 200, statusText: 'OK', headers: {}, bodyText: '', timing: { totalMs: 5 } };
  const view = { response, rows: undefined, operation: undefined } as unknown as StepView;
  assert.deepEqual(assertionSteps(plain!), []);
  assert.deepEqual(await assertionStep(plain!).run(view), [], 'the step it leaves out would have found nothing');
  const steps = assertionSteps(asserted!);
  assert.equal(steps.length, 1);
  assert.deepEqual((await steps[0]!.run(view)).map((f) => f.severity), ['note']);
});

void test("an editor Send says what it does not run: the file's global script, the block's constructs, a curl request in its block", async () => {
  const { notRunOfSend } = await import('../../src/core/run/assertions');
  const file = parseHttpFile('{{\n  exports.t = 1;\n}}\n\n###\n# @name first\nGET http://h/1\n\n###\ncurl -X DELETE http://h/cache\nGET http://h/2\n');
  const second = file.blocks.find((b) => b.request?.requestLine.url === 'http://h/2');
  assert.ok(second?.request);
  assert.deepEqual(notRunOfSend(file, second, second.request).map((n) => [n.line + 1, n.what.replace(/:.*/, '')]), [[1, 'script block ({{ }})'], [10, 'request not sent']]);
  const first = file.blocks.find((b) => b.request?.name === 'first');
  assert.ok(first?.request);
  assert.deepEqual(notRunOfSend(file, first, first.request).map((n) => n.line + 1), [1]);
});
