// isJsonRequest reads the Content-Type header whatever its case; it looks only at names of 12 characters
// (lower-casing the others is work it saves), which is right only if no name of another length
// lower-cases to 'content-type'. Checked here for every character.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseHttpFile } from '../../src/core/httpfile';
import { isJsonRequest } from '../../src/server/service/jsonBody';

const request = (header: string, body = 'a=1'): Parameters<typeof isJsonRequest>[0] => {
  const parsed = parseHttpFile(`POST https://x.test/a\n${header}\n\n${body}\n`).requests[0];
  assert.ok(parsed);
  return parsed;
};

void test('isJsonRequest: Content-Type in any case decides; without it, the body\'s first character', () => {
  for (const name of ['Content-Type', 'content-type', 'CONTENT-TYPE', 'cOnTeNt-TyPe']) {
    assert.equal(isJsonRequest(request(`${name}: application/json`)), true, name);
    assert.equal(isJsonRequest(request(`${name}: text/plain`, '{"a": 1}')), false, name);
  }
  assert.equal(isJsonRequest(request('X-Content-Type: text/plain', '{"a": 1}')), true, 'another header: the body decides');
  assert.equal(isJsonRequest(request('Content-Types: text/plain', '{"a": 1}')), true);
});

void test("no character lower-cases to a different number of code units that could spell 'content-type'", () => {
  const letters = new Set('content-type');
  for (let cp = 0; cp <= 0x10ffff; cp++) {
    if (cp >= 0xd800 && cp <= 0xdfff) continue;
    const c = String.fromCodePoint(cp);
    const lower = c.toLowerCase();
    if (lower.length !== c.length) assert.ok(![...lower].every((l) => letters.has(l)), `U+${cp.toString(16)} lower-cases to ${JSON.stringify(lower)}`);
  }
});
