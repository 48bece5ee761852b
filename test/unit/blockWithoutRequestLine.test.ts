// No request block is read without a word when it cannot be what it is read as. A `###` line inside a
// text body (a Markdown heading) cuts the body there, as the other tools cut it; the text after it is no
// request line (THE rule: requestLine.ts isRequestLine), so it is kept and said where it is written, never
// read as 'GET text' (which `apiwb run` sent and failed with "Invalid URL").
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseHttpFile } from '../../src/core/httpfile';
import { createHttpLanguageService, HttpDocument } from '../../src/server/service';

const service = createHttpLanguageService();
service.setEnvironmentVariables([]);

void test('a block whose request line is no URL (text after a ### in a body) gets a diagnostic', () => {
  const text = ['POST http://api.test/notes', 'Content-Type: text/markdown', '', '# Title', '### Sub', 'text of the note', ''].join('\n');
  const said = service.doValidate(new HttpDocument('file:///t.http', 1, text)).filter((d) => d.range.start.line >= 4 && d.range.start.line <= 5);
  assert.ok(said.length > 0, 'the request read from "text of the note" (GET to no URL) is said, on the ### or the line after it');
});

void test('a ### block of prose is said, not silently a GET request', () => {
  const text = ['### Notes', 'These are notes about the API', ''].join('\n');
  const said = service.doValidate(new HttpDocument('file:///u.http', 1, text));
  assert.ok(said.some((d) => d.range.start.line === 1), `line 1 is read as 'GET These are notes about the API' with no diagnostic: ${JSON.stringify(said)}`);
});

void test('prose above a request line in its block is said, and the request line is the request (not a GET of the prose)', () => {
  const file = parseHttpFile(['### Users', 'Lists the users, newest first.', 'GET http://api.test/users', '', '### Bare', 'http://api.test/health', ''].join('\n'));
  assert.deepEqual(file.requests.map((r) => `${r.requestLine.method} ${r.requestLine.url}`), ['GET http://api.test/users', 'GET http://api.test/health']);
  assert.deepEqual(file.diagnostics.map((d) => [d.code, d.range.start.line]), [['unrecognised-line', 1]]);
  assert.match(file.diagnostics[0]?.message ?? '', /^Not a request line/);
});
