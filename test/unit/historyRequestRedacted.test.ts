// core/history/requestNow.ts on entries recorded exactly as the store records them (source through
// redactRequestBlocks, name through redactor.text): a request with something masked in its line or name is
// still found where it is, and an edited one (method, continued query, a copy under the same name) is not
// taken for it. (That the source is the text as sent, not as edited during the send: sendController.)
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { redactRequestBlocks, requestBlockText } from '../../src/core/collections/requestBlocks';
import { requestIndexNow, twinOrder, type RecordedRequest } from '../../src/core/history/requestNow';
import { parseHttpFile } from '../../src/core/httpfile';
import { Redactor } from '../../src/core/secrets';

/** What History stores of the request at `index` of `text` (sendView.historyEntryOf + store.build). */
function stored(text: string, index: number, redactor = new Redactor(), sourceText = text): RecordedRequest {
  const file = parseHttpFile(text);
  const node = file.requests.find((r) => r.index === index)!;
  const entry: RecordedRequest = {
    origin: { file: 'requests.http', index },
    source: redactRequestBlocks(requestBlockText(sourceText, index), redactor),
    ...(node.name ? { name: redactor.text(node.name) } : {}),
  };
  const twin = twinOrder(file, entry);
  return { ...entry, origin: { file: 'requests.http', index, ...(twin !== undefined ? { twin } : {}) } };
}
const now = (text: string, entry: RecordedRequest): number | undefined => requestIndexNow(parseHttpFile(text), entry);

// ---- the unchanged file must always find the request (anything else is a regression from index-only) ----

void test('unnamed, a literal api key in the query: found in the unchanged file', () => {
  const text = '###\nGET https://api.example.com/items?api_key=abc123def\n';
  assert.equal(now(text, stored(text, 0)), 0);
});

void test('unnamed, URL userinfo password: found in the unchanged file', () => {
  const text = '###\nGET https://admin:hunter22@api.example.com/items\n';
  assert.equal(now(text, stored(text, 0)), 0);
});

void test('unnamed, a known secret written literally in the URL: found in the unchanged file', () => {
  const text = '###\nGET https://api.example.com/tenants/t-9f8e7d6c/items\n';
  assert.equal(now(text, stored(text, 0, new Redactor(['t-9f8e7d6c']))), 0);
});

void test('unnamed, a JWT literally in the query: found in the unchanged file', () => {
  const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJlc2lnbmF0dXJl';
  const text = `###\nGET https://api.example.com/items?t=${jwt}\n`;
  assert.equal(now(text, stored(text, 0)), 0);
});

void test('named by a ### title the redactor rewrites: found in the unchanged file', () => {
  const text = '### items with Bearer abc.def-1\nGET https://api.example.com/items\n';
  assert.equal(now(text, stored(text, 0)), 0);
});

void test('CRLF file, unnamed: found in the unchanged file', () => {
  const text = '###\r\nGET https://api.example.com/a\r\n\r\n###\r\nGET https://api.example.com/b\r\n';
  assert.equal(now(text, stored(text, 0)), 0);
  assert.equal(now(text, stored(text, 1)), 1);
});

void test('unnamed, URL continued on the next lines: found in the unchanged file', () => {
  const text = '###\nGET https://api.example.com/items\n    ?page=1\n    &size=10\n';
  assert.equal(now(text, stored(text, 0)), 0);
});

void test('unnamed GraphQL request: found in the unchanged file', () => {
  const text = '###\nGRAPHQL https://api.example.com/graphql\n\nquery { items { id } }\n';
  assert.equal(now(text, stored(text, 0)), 0);
});

void test('unnamed, a secret-named query parameter written as a {{reference}}: found in the unchanged file', () => {
  // No literal secret at all: redactor.text's name=value rule still stores `api_key=***` in the source.
  const text = '###\nGET {{base}}/items?api_key={{apiKey}}\n';
  assert.equal(now(text, stored(text, 0)), 0);
});

void test('unnamed, a secret-named parameter on a continuation line, as a {{reference}}: found', () => {
  const text = '###\nGET {{base}}/items\n    ?page=1\n    &access_token={{token}}\n';
  assert.equal(now(text, stored(text, 0)), 0);
});

void test('httpYac: two requests without ### between them, unnamed: each found in the unchanged file', () => {
  const text = 'GET https://api.example.com/a\nGET https://api.example.com/b\n';
  assert.equal(now(text, stored(text, 0)), 0);
  assert.equal(now(text, stored(text, 1)), 1);
});

void test('file variables above the first request, unnamed: found', () => {
  const text = '@base = https://api.example.com\nGET {{base}}/a\n\n###\nGET {{base}}/b\n';
  assert.equal(now(text, stored(text, 0)), 0);
  assert.equal(now(text, stored(text, 1)), 1);
});

// ---- never another request ----

void test('a name written twice, the edited copy in the recorded place: not the original', () => {
  const before = '###\n# @name orders\nGET https://api.example.com/orders\n';
  const after = '###\n# @name orders\nDELETE https://api.example.com/orders/1\n\n###\n# @name orders\nGET https://api.example.com/orders\n';
  assert.notEqual(now(after, stored(before, 0)), 0, 'the DELETE copy took the place and the name');
});

void test('a named request whose method changed GET -> DELETE is another request', () => {
  const before = '###\n# @name orders\nGET https://api.example.com/orders\n';
  const after = '###\n# @name orders\nDELETE https://api.example.com/orders\n';
  assert.equal(now(after, stored(before, 0)), undefined, 'Re-run of a GET entry sends a DELETE');
});

void test('empty and odd names', () => {
  const text = '###\n# @name\nGET https://api.example.com/a\n';
  assert.equal(now(text, stored(text, 0)), 0);
});

void test('zero requests, an index out of range', () => {
  const before = '###\n# @name a\nGET https://x/a\n';
  assert.equal(now('# nothing here\n', stored(before, 0)), undefined);
  assert.equal(now('', { ...stored(before, 0), origin: { file: 'f', index: 99 } }), undefined);
  assert.equal(now(before, { ...stored(before, 0), origin: { file: 'f', index: 99 } }), 0);
});

void test('unnamed, URL continuation lines are part of "method and URL as written"', () => {
  const before = '###\nDELETE {{base}}/items\n    ?dryRun=true\n';
  assert.equal(now('###\nDELETE {{base}}/items\n    ?dryRun=false\n', stored(before, 0)), undefined, 'the continued query was edited: another request');
  // Two requests that differ only in their continued query, swapped: the other one is in the recorded place.
  const pair = '###\nDELETE {{base}}/items\n    ?dryRun=true\n\n###\nDELETE {{base}}/items\n    ?dryRun=false\n';
  const swapped = '###\nDELETE {{base}}/items\n    ?dryRun=false\n\n###\nDELETE {{base}}/items\n    ?dryRun=true\n';
  assert.equal(now(swapped, stored(pair, 0)), 1, 'Re-run of the dry run sends dryRun=false');
});

void test('a masked value stands for one value, not for parameters added after it', () => {
  const before = '###\nGET https://api.example.com/items?api_key={{apiKey}}\n';
  assert.equal(now(before, stored(before, 0)), 0);
  assert.equal(now('###\nGET https://api.example.com/items?api_key={{apiKey}}&purge=true\n', stored(before, 0)), undefined);
});

void test('two requests alike once masked (a key in the query): each keeps its order among them after an insertion', () => {
  const before = '###\nGET https://api.example.com/items?api_key=abc123def\n\n###\nGET https://api.example.com/items?api_key=zzz999yyy\n';
  const after = `###\nGET https://api.example.com/new\n\n${before}`;
  assert.equal(now(after, stored(before, 0)), 1);
  assert.equal(now(after, stored(before, 1)), 2);
});
