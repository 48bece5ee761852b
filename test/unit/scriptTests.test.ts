// Which tests another tool's script would have run (src/core/run/scriptTests.ts): read from the text, each
// by its name; what is not a test call is not counted.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { httpYacTests, jetBrainsTests } from '../../src/core/run/scriptTests';

void test('JetBrains: each client.test by its name; other client calls are not tests', () => {
  const script = [
    'client.test("Request executed successfully", function () {',
    '  client.assert(response.status === 200, "Response status is not 200");',
    '});',
    "client.test('single \\'quoted\\'', () => {});",
    'client.global.set("token", response.body.token);',
    'client.test(name, () => {});',
  ].join('\n');
  assert.deepEqual(jetBrainsTests(script), ['Request executed successfully', "single \\'quoted\\'", 'client.test']);
  assert.deepEqual(jetBrainsTests('client.global.set("a", 1); client.log("test")'), []);
});

void test('httpYac: test("name"), the test.status / test.header shorthands; client.test, x.test( and testing( are not', () => {
  const script = [
    'test("status is 200", () => { expect(response.statusCode).toBe(200); });',
    'test.status(200);',
    "test.header('content-type', 'application/json');",
    'const re = /a/; re.test("a");',
    'testing("not a test");',
    'client.test("jetbrains, not httpYac", () => {});',
  ].join('\n');
  assert.deepEqual(httpYacTests(script), ['status is 200', 'test.status(200)', "test.header('content-type', 'application/json')"]);
});
