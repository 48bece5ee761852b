// The other tools' corpus (test/fixtures/other-tools) through the parser: the request lines the corpus
// lists for API Workbench at their lines, the httpYac lists against httpYac itself, every construct named
// where the corpus says with its tool, the requests not run with theirs — and no line of any file is
// dropped without a word (each non-blank line is part of a request, a construct read or kept, or a
// diagnostic speaks of it; checked here independently of the parser's own accounting).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseHttpFile, type HttpFile, type Range } from '../../src/core/httpfile';
import { printHttpFile } from './httpfilePrint';
import { notRunReason } from '../../src/core/run/notRun';

interface Expected {
  find: Record<string, string[] | 'same'>;
  lines: number[];
  said: Array<{ line: number; tool: string }>;
  notRun: Array<{ line: number; tool: string }>;
  sent: string[];
}
interface Httpyac {
  cli: { initFileProvider(): void };
  store: { HttpFileStore: new () => { getOrCreate(name: string, text: () => Promise<string>, version: number, options: { workingDir: string }): Promise<{ httpRegions: Array<{ request?: { method?: string; url?: string } }> }> } };
}

const corpus = join(import.meta.dirname, '../fixtures/other-tools');
const names = readdirSync(corpus).filter((f) => f.endsWith('.http'));
const load = (name: string): { text: string; expected: Expected } => ({
  text: readFileSync(join(corpus, name), 'utf8'),
  expected: JSON.parse(readFileSync(join(corpus, name.replace(/\.http$/, '.expected.json')), 'utf8')) as Expected,
});
const ENVIRONMENT = { base: 'http://127.0.0.1:1', hostport: '127.0.0.1:1', segment: 'seg' };
const TOOLS = ['httpYac', 'JetBrains HTTP Client', 'REST Client'] as const;

/** The request lines as the corpus writes them. */
function requestLines(file: HttpFile): string[] {
  return file.requests.map((r) => `${r.requestLine.method} ${r.requestLine.url}${r.queryContinuations.map((q) => q.text).join('')}`);
}

/** Every line some part of the tree, or a diagnostic, covers. */
function accountedLines(file: HttpFile): Set<number> {
  const lines = new Set<number>();
  const add = (r: Range): void => { for (let l = r.start.line; l <= r.end.line; l++) lines.add(l); };
  for (const b of file.blocks) {
    if (b.separator) add(b.separator.range);
    for (const x of [...b.directives, ...b.comments, ...b.variables, ...b.kept]) add(x.range);
    const r = b.request;
    if (!r) continue;
    for (const x of [r.requestLine, ...r.queryContinuations, ...r.headers, ...r.headerSpreads, ...r.responseHandlers, ...r.assertions]) add(x.range);
    if (r.body) add(r.body.range);
  }
  for (const d of file.diagnostics) add(d.range);
  return lines;
}

void test('the corpus has a file per construct family, each with every tool\'s list', () => {
  assert.ok(names.length >= 10, names.join(', '));
  for (const name of names) {
    const { expected } = load(name);
    for (const tool of [...TOOLS, 'API Workbench']) assert.ok(expected.find[tool], `${name}: ${tool}`);
  }
});

for (const name of names) {
  void test(`other tools: ${name} — the request lines, what is said and what is not run`, () => {
    const { text, expected } = load(name);
    const file = parseHttpFile(text);
    assert.equal(printHttpFile(file), text, 'round trip');
    assert.deepEqual(requestLines(file), expected.find['API Workbench']);
    assert.deepEqual(file.requests.map((r) => r.requestLine.range.start.line + 1), expected.lines);
    for (const s of expected.said) {
      assert.ok(file.diagnostics.some((d) => d.range.start.line + 1 === s.line && d.message.includes(s.tool)), `${name}:${s.line}: a diagnostic naming ${s.tool}`);
    }
    const notRun = file.blocks.flatMap((b) => {
      const reason = b.request && notRunReason(file, b, b.request, ENVIRONMENT);
      return reason ? [{ line: b.request.requestLine.range.start.line + 1, tool: reason.tool }] : [];
    });
    assert.deepEqual(notRun, expected.notRun);
    assert.equal(file.diagnostics.filter((d) => d.code === 'unrecognised-line').length, 0, 'every line is read by some grammar');
  });

  void test(`other tools: ${name} — no line is dropped without a word`, () => {
    const { text } = load(name);
    const file = parseHttpFile(text);
    const accounted = accountedLines(file);
    file.lines.forEach((line, i) => {
      if (line.text.trim() !== '') assert.ok(accounted.has(i), `${name}:${i + 1} '${line.text}' is neither read nor spoken of`);
    });
  });
}

void test('other tools: httpYac itself finds the request lines the corpus lists for it', async () => {
  const httpyac = createRequire(import.meta.url)('httpyac') as Httpyac;
  httpyac.cli.initFileProvider();
  for (const name of names) {
    const { text, expected } = load(name);
    const store = new httpyac.store.HttpFileStore();
    const regions = (await store.getOrCreate(join(corpus, name), () => Promise.resolve(text), 0, { workingDir: corpus })).httpRegions;
    assert.deepEqual(regions.filter((r) => r.request).map((r) => `${r.request?.method} ${r.request?.url}`), expected.find['httpYac'], name);
  }
});

void test('a line no grammar reads is kept and warned, never dropped: after a handler, inside a request\'s end', () => {
  const text = 'GET https://x.test/a\n\n> ./handler.js\nthis is no construct\n\n###\nGET https://x.test/b\n';
  const file = parseHttpFile(text);
  assert.deepEqual(requestLines(file), ['GET https://x.test/a', 'GET https://x.test/b']);
  const warned = file.diagnostics.filter((d) => d.code === 'unrecognised-line');
  assert.deepEqual(warned.map((d) => [d.range.start.line, d.severity]), [[3, 'warning']]);
  assert.deepEqual(file.blocks[0]?.kept.map((k) => [k.kind, k.text]), [['unrecognised', 'this is no construct']]);
  assert.equal(printHttpFile(file), text);
});

void test('every request-line keyword of the one list opens a request, in any case the tools accept; others do not', () => {
  for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS', 'CONNECT', 'TRACE', 'PROPFIND', 'MKCOL', 'SEARCH', 'VERSION-CONTROL']) {
    const file = parseHttpFile(`GET https://x.test/a\n${method} https://x.test/b\n`);
    assert.deepEqual(file.requests.map((r) => [r.requestLine.method, r.requestLine.kind]), [['GET', 'http'], [method, 'http']], method);
  }
  const kinds: Array<[string, string]> = [['GRAPHQL', 'graphql'], ['GRPC', 'grpc'], ['WEBSOCKET', 'websocket'], ['WS', 'websocket'], ['WSS', 'websocket'], ['SSE', 'sse'], ['EVENTSOURCE', 'sse'], ['MQTT', 'mqtt'], ['MQTTS', 'mqtt'], ['AMQP', 'amqp']];
  for (const [word, kind] of kinds) {
    const file = parseHttpFile(`GET https://x.test/a\n${word} https://x.test/b\n`);
    assert.deepEqual(file.requests.map((r) => r.requestLine.kind), ['http', kind], word);
  }
  // A header line, a JSON body line or a lower-case word after a request line is no request line.
  const file = parseHttpFile('POST https://x.test/a\nX-Get: GET https://x.test/b\n\n{\n  "GET": "/v1"\n}\n');
  assert.equal(file.requests.length, 1);
  assert.deepEqual(file.diagnostics, []);
});

void test('a request line after a blank line in a body stays body (REST Client, JetBrains), with a warning naming the tools', () => {
  const file = parseHttpFile('POST https://x.test/a\n\n{"a": 1}\n\nGET https://x.test/{{ a b }}\n');
  assert.equal(file.requests.length, 1);
  const warning = file.diagnostics.find((d) => d.code === 'missing-separator');
  assert.equal(warning?.range.start.line, 4);
  assert.match(warning?.message ?? '', /REST Client.*JetBrains HTTP Client.*httpYac/);
});

void test('a JetBrains multi-line URL joins its pieces; a ?? line right after the request line is an assertion, not a query', () => {
  const file = parseHttpFile('GET https://x.test\n    /a\n    /b\n    ?c=1\n    &d=2\n?? status == 200\n');
  assert.deepEqual(requestLines(file), ['GET https://x.test/a/b?c=1&d=2']);
  assert.deepEqual(file.requests[0]?.queryParameters.map((q) => [q.name, q.value]), [['c', '1'], ['d', '2']]);
  assert.deepEqual(file.requests[0]?.assertions.map((a) => a.text), ['status == 200']);
});

void test('lazy variables (@x := value) are file variables, marked lazy', () => {
  const file = parseHttpFile('@a := {{$uuid}}\n@b = 1\nGET https://x.test/{{a}}\n');
  assert.deepEqual(file.blocks[0]?.variables.map((v) => [v.name, v.value, v.lazy ?? false]), [['a', '{{$uuid}}', true], ['b', '1', false]]);
});
