// Attack (review of requestNow.ts's body rule): an unnamed request is the same one when its method, URL and
// body as written match (`***` standing for what was masked). Entries built as the store builds them
// (source through redactRequestBlocks, twin by twinOrder on the file then); looked up in the file now.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { redactRequestBlocks, requestBlockText } from '../../src/core/collections/requestBlocks';
import { requestIndexNow, twinOrder, type RecordedRequest } from '../../src/core/history/requestNow';
import { parseHttpFile } from '../../src/core/httpfile';
import { Redactor } from '../../src/core/secrets';

function stored(text: string, index: number, redactor = new Redactor()): RecordedRequest {
  const file = parseHttpFile(text);
  const node = file.requests.find((r) => r.index === index)!;
  const entry: RecordedRequest = {
    origin: { file: 'requests.http', index },
    source: redactRequestBlocks(requestBlockText(text, index), redactor),
    ...(node.name ? { name: redactor.text(node.name) } : {}),
  };
  const twin = twinOrder(file, entry);
  return { ...entry, origin: { file: 'requests.http', index, ...(twin !== undefined ? { twin } : {}) } };
}
const now = (text: string, entry: RecordedRequest): number | undefined => requestIndexNow(parseHttpFile(text), entry);
const OTHER = '###\nGET https://api.example.com/other\n';
const crlf = (t: string): string => t.replace(/\n/g, '\r\n');

const MULTI = '###\nPOST https://api.example.com/items\ncontent-type: application/json\n\n{\n  "name": "a",\n  "size": 2\n}\n';

void test('a CRLF file, a body over several lines: found in the unchanged file', () => {
  const text = crlf(MULTI);
  const entry = stored(text, 0);
  assert.equal(now(text, entry), 0, `source ${JSON.stringify(entry.source)}`);
});

void test('a CRLF file, a body over several lines: found after a move', () => {
  const text = crlf(MULTI);
  const entry = stored(text, 0);
  assert.equal(now(crlf(OTHER + MULTI), entry), 1, `source ${JSON.stringify(entry.source)}`);
});

void test('sent from an LF file, the file now CRLF (line endings converted): found', () => {
  assert.equal(now(crlf(MULTI), stored(MULTI, 0)), 0);
});

void test('sent from a CRLF file, the file now LF: found', () => {
  assert.equal(now(MULTI, stored(crlf(MULTI), 0)), 0);
});

void test('a one-line body in a CRLF file: found after a move', () => {
  const one = '###\nPOST https://api.example.com/items\ncontent-type: application/json\n\n{"name":"a"}\n';
  assert.equal(now(crlf(OTHER + one), stored(crlf(one), 0)), 1);
});

void test('trailing blank lines added after the body: found', () => {
  const entry = stored(MULTI, 0);
  assert.equal(now(OTHER + MULTI + '\n\n\n', entry), 1);
});

void test('a masked secret field in the JSON body: found unchanged and after a move', () => {
  const text = '###\nPOST https://api.example.com/login\ncontent-type: application/json\n\n{"user":"ann","password":"hunter2secret"}\n';
  const entry = stored(text, 0);
  assert.ok(entry.source!.includes('***'), entry.source);
  assert.equal(now(text, entry), 0);
  assert.equal(now(OTHER + text, entry), 1);
});

void test('a masked secret in a form body: found after a move', () => {
  const text = '###\nPOST https://api.example.com/token\ncontent-type: application/x-www-form-urlencoded\n\nclient_id=app&client_secret=s3cr3tvalue99\n';
  const entry = stored(text, 0);
  assert.ok(entry.source!.includes('***'), entry.source);
  assert.equal(now(OTHER + text, entry), 1);
});

void test('a known secret value in the body (the Redactor\'s text pass): found', () => {
  const text = '###\nPOST https://api.example.com/items\ncontent-type: text/plain\n\nkey is tk-77aa88bb99 ok\n';
  const entry = stored(text, 0, new Redactor(['tk-77aa88bb99']));
  assert.ok(entry.source!.includes('***'), entry.source);
  assert.equal(now(OTHER + text, entry), 1);
});

void test('a body from < file: found after a move; another file included is another request', () => {
  const text = '###\nPOST https://api.example.com/items\ncontent-type: application/json\n\n< ./body.json\n';
  const entry = stored(text, 0);
  assert.equal(now(OTHER + text, entry), 1);
  assert.equal(now(OTHER + text.replace('body.json', 'other.json'), entry), undefined);
});

void test('an unnamed GET with no body: found after moves', () => {
  const get = '###\nGET https://api.example.com/items?limit=5\n';
  const entry = stored(OTHER + get, 1);
  assert.equal(now(get + OTHER, entry), 0);
  assert.equal(now(OTHER + OTHER.replace('other', 'x') + get, entry), 2);
});

void test('an unnamed GET with no body, in a CRLF file: found after moves', () => {
  const get = '###\nGET https://api.example.com/items?limit=5\n';
  const entry = stored(crlf(OTHER + get), 1);
  assert.equal(now(crlf(get + OTHER), entry), 0);
});

void test('`< body.json` and `<@ body.json` (variables substituted: another body sent), the first deleted: the second does not take its entry', () => {
  const plain = '###\nPOST https://api.example.com/items\ncontent-type: application/json\n\n< ./body.json\n';
  const substituted = '###\nPOST https://api.example.com/items\ncontent-type: application/json\n\n<@ ./body.json\n';
  const entry = stored(plain + substituted, 0);
  assert.equal(now(substituted, entry), undefined, `the entry of '< ./body.json' is taken for '<@ ./body.json'; source ${JSON.stringify(entry.source)}`);
});
