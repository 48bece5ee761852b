// What httpYac and the JetBrains HTTP Client complete before a request goes, and what keeps a request from
// being run: path-only request lines (Host header: https on 443/8443, else http; else @host), header
// spreads of a file variable's JSON object (spread wins), and their faults; the per-request not-run reasons.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseHttpFile } from '../../src/core/httpfile';
import { shapeProblem, shapeRequest, withBasicEncoded } from '../../src/core/run/requestShape';
import { fileProblems, notRunReason } from '../../src/core/run/notRun';
import { evaluateAssertions } from '../../src/core/run/assertions';

const shaped = (text: string, headers: Record<string, string> = {}, environment: Record<string, string> = {}): unknown => {
  const file = parseHttpFile(text);
  const node = file.requests[0]!;
  return shapeRequest(file, node, { url: node.requestLine.url, headers }, { environment });
};

void test('a path-only line goes to its Host header: https on 443 and 8443 only, else http', () => {
  assert.deepEqual(shaped('GET /a\nHost: x.test\n', { Host: 'x.test' }), { url: 'http://x.test/a', headers: { Host: 'x.test' } });
  assert.deepEqual(shaped('GET /a\n', { host: 'x.test:443' }), { url: 'https://x.test:443/a', headers: { host: 'x.test:443' } });
  assert.deepEqual(shaped('GET /a\n', { host: 'x.test:8443' }), { url: 'https://x.test:8443/a', headers: { host: 'x.test:8443' } });
  assert.deepEqual(shaped('GET /a\n', { host: 'x.test:4430' }), { url: 'http://x.test:4430/a', headers: { host: 'x.test:4430' } });
});

void test('without a Host header, @host (or an environment variable host) prefixes it; with neither it is a problem', () => {
  assert.deepEqual(shaped('@host = https://h.test/\nGET /a\n'), { url: 'https://h.test/a', headers: {} });
  assert.deepEqual(shaped('GET /a\n', {}, { host: 'http://e.test' }), { url: 'http://e.test/a', headers: {} });
  assert.match(String((shaped('GET /a\n') as { problem: string }).problem), /no Host header and no \{\{host\}\}/);
  // An absolute URL and a //host URL are left alone.
  assert.deepEqual(shaped('GET https://x.test/a\n'), { url: 'https://x.test/a', headers: {} });
  assert.deepEqual(shaped('GET //x.test/a\n'), { url: '//x.test/a', headers: {} });
});

void test('a header spread adds the JSON object of its file variable (variables inside resolved), spread headers win', () => {
  const text = '@h = {"X-A": "{{v}}", "X-N": 2}\n@v = one\nGET https://x.test/\n...h\nX-A: mine\n';
  assert.deepEqual(shaped(text, { 'X-A': 'mine' }), { url: 'https://x.test/', headers: { 'X-A': 'one', 'X-N': '2' } });
});

void test('a spread of an unknown name, of a value that is no JSON object, or of an array is not run, naming httpYac', () => {
  for (const [text, words] of [
    ['GET https://x.test/\n...nope\n', /'nope' is not a file variable/],
    ['@h = X-A: 1\nGET https://x.test/\n...h\n', /does not hold a JSON object/],
    ['@h = ["a"]\nGET https://x.test/\n...h\n', /does not hold a JSON object/],
  ] as const) {
    const file = parseHttpFile(text);
    const block = file.blocks.find((b) => b.request)!;
    assert.match(shapeProblem(file, block.request!, {}) ?? '', words, text);
    assert.equal(notRunReason(file, block, block.request!, {})?.tool, 'httpYac');
    assert.ok('problem' in (shaped(text) as object), text);
  }
});

void test('not run: an error in the request\'s block (its line said), a kind not sent; a file-level error is the file\'s', () => {
  const file = parseHttpFile('{{\n  exports.a = 1;\n\n###\nGET https://x.test/a\nNot a header\n\n###\nWS wss://x.test/\n\n###\nGET https://x.test/b\n');
  const reasons = file.blocks.filter((b) => b.request).map((b) => notRunReason(file, b, b.request!, {}));
  assert.match(reasons[0]?.reason ?? '', /^line 6: Not a header/);
  assert.match(reasons[1]?.reason ?? '', /WebSocket request \(WS, httpYac\): not supported/);
  assert.equal(reasons[2], undefined);
  assert.deepEqual(fileProblems(file).map((p) => [p.line, p.tool]), [[1, 'API Workbench']]);
  assert.match(fileProblems(file)[0]?.reason ?? '', /not closed by '\}\}'/);
});

void test('?? matches, sha256, sha512, md5 (base64 or hex) hold and fail as httpYac checks them', () => {
  const file = parseHttpFile([
    'GET https://x.test/', '', '?? body $.n matches ^ap[iI]', '?? body $.n matches /^API/i', '?? body $.n matches ([', '?? body $.n matches ^x',
    '?? body $.n sha256 Ix/QTzg68dO6K9T0v3Qf2H9K8tzN4Z6Eqik+QNgFqY8=', '?? body $.n md5 5b7d77ff6df720abbb9e6121c33688d6', '?? body $.n sha512 wrong', '?? body $.missing md5 x',
  ].join('\n'));
  const results = evaluateAssertions(file.requests[0]!.assertions, { status: 200, headers: {}, bodyText: '{"n":"apiwb"}', durationMs: 1 });
  assert.deepEqual(results.map((r) => r.outcome), ['passed', 'passed', 'failed', 'failed', 'passed', 'passed', 'failed', 'failed']);
  assert.deepEqual(file.diagnostics, []);
});

void test('a written-out Basic credential goes base64-encoded: user:password and user password; an encoded one is left alone', () => {
  const encoded = (pair: string): string => `Basic ${Buffer.from(pair).toString('base64')}`;
  assert.deepEqual(withBasicEncoded({ Authorization: 'Basic ann:pw-1' }), { Authorization: encoded('ann:pw-1') });
  assert.deepEqual(withBasicEncoded({ authorization: 'basic ann  pw 1' }), { authorization: `basic ${Buffer.from('ann:pw 1').toString('base64')}` });
  assert.deepEqual(withBasicEncoded({ AUTHORIZATION: '  Basic ann:pa ss:x ' }), { AUTHORIZATION: encoded('ann:pa ss:x') });
  assert.deepEqual(withBasicEncoded({ Authorization: 'Basic émile:mot' }), { Authorization: encoded('émile:mot') });
  // The space form with a colon in the password: the user is the first word.
  assert.deepEqual(withBasicEncoded({ Authorization: 'Basic ann pa:ss' }), { Authorization: encoded('ann:pa:ss') });
  const untouched: Record<string, string>[] = [{ Authorization: encoded('ann:pw') }, { Authorization: 'Bearer a b:c' }, { 'X-Other': 'Basic a:b' }, {}];
  for (const left of untouched) {
    assert.equal(withBasicEncoded(left), left, JSON.stringify(left));
  }
});
