// Files written for REST Client, httpYac and the JetBrains HTTP Client (test/fixtures/compat): the parser
// finds the requests the corpus says, keeps every other tool's construct verbatim with a diagnostic naming
// the tool, never reads one as a request or a body, and prints the file back byte for byte. The httpYac
// lists of the corpus are checked against httpYac itself when it is installed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseHttpFile } from '../../src/core/httpfile';
import { printHttpFile } from './httpfilePrint';

interface Expected {
  find: Record<string, string[] | 'same'>;
  kept: Array<{ kind: string; tool: string; lines: [number, number] }>;
  diagnostics: Array<{ code: string; line: number }>;
  bodies?: boolean[];
  handlers?: string[][];
  assertions?: string[][];
}
interface HttpyacRegion { request?: { method?: string; url?: string } }
interface Httpyac {
  cli: { initFileProvider(): void };
  store: { HttpFileStore: new () => { getOrCreate(name: string, text: () => Promise<string>, version: number, options: { workingDir: string }): Promise<{ httpRegions: HttpyacRegion[] }> } };
}

const corpus = join(import.meta.dirname, '../fixtures/compat');
const names = readdirSync(corpus).filter((f) => f.endsWith('.http'));
let httpyac: Httpyac | undefined;
try {
  httpyac = createRequire(import.meta.url)('httpyac') as Httpyac;
  httpyac.cli.initFileProvider();
} catch {
  httpyac = undefined;
}

const load = (name: string): { text: string; expected: Expected } => ({
  text: readFileSync(join(corpus, name), 'utf8'),
  expected: JSON.parse(readFileSync(join(corpus, name.replace(/\.http$/, '.expected.json')), 'utf8')) as Expected,
});
const found = (expected: Expected, tool: string): string[] | undefined => {
  const list = expected.find[tool];
  return list === 'same' ? expected.find['API Workbench'] as string[] : list;
};

void test('the corpus covers each tool and each kept construct', () => {
  const all = names.map((n) => load(n).expected);
  for (const tool of ['REST Client', 'httpYac', 'JetBrains HTTP Client']) assert.ok(all.some((e) => e.find[tool]), tool);
  const kinds = new Set(all.flatMap((e) => e.kept.map((k) => k.kind)));
  for (const kind of ['pre-request-script', 'script-block', 'block-comment', 'proto-import', 'xpath-namespace', 'import', 'run', 'curl', 'output-redirect', 'recorded-response']) {
    assert.ok(kinds.has(kind), kind);
  }
});

for (const name of names) {
  void test(`compat: ${name} — the requests, kept constructs and diagnostics the corpus lists`, () => {
    const { text, expected } = load(name);
    const file = parseHttpFile(text);
    assert.equal(printHttpFile(file), text, 'round trip');
    assert.deepEqual(file.requests.map((r) => `${r.requestLine.method} ${r.requestLine.url}${r.queryContinuations.map((q) => q.text).join('')}`), expected.find['API Workbench']);
    assert.deepEqual(
      file.blocks.flatMap((b) => b.kept).map((k) => ({ kind: k.kind, tool: k.tool, lines: [k.range.start.line + 1, k.range.end.line + 1] })),
      expected.kept,
    );
    assert.deepEqual(file.diagnostics.map((d) => ({ code: d.code, line: d.range.start.line + 1 })), expected.diagnostics);
    for (const d of file.diagnostics.filter((x) => x.code === 'kept-construct')) {
      assert.equal(d.severity, 'information');
      assert.match(d.message, /REST Client|httpYac|JetBrains HTTP Client/, 'names the tool');
    }
    if (expected.bodies) assert.deepEqual(file.requests.map((r) => r.body !== undefined), expected.bodies);
    if (expected.handlers) assert.deepEqual(file.requests.map((r) => r.responseHandlers.map((h) => h.kind)), expected.handlers);
    if (expected.assertions) assert.deepEqual(file.requests.map((r) => r.assertions.map((a) => a.text)), expected.assertions);
    // No kept line is inside a request line, a header or a body.
    for (const k of file.blocks.flatMap((b) => b.kept)) {
      for (const r of file.requests) {
        assert.ok(k.range.end.line < r.requestLine.range.start.line || k.range.start.line > r.requestLine.range.end.line, `${k.kind} is not a request line`);
        for (const h of r.headers) assert.ok(k.range.end.line < h.range.start.line || k.range.start.line > h.range.end.line, `${k.kind} is not a header`);
        if (r.body) assert.ok(k.range.end.line < r.body.range.start.line || k.range.start.line > r.body.range.end.line, `${k.kind} is not a body`);
      }
    }
  });

  void test(`compat: ${name} — httpYac finds the requests the corpus says`, async () => {
    assert.ok(httpyac, 'httpyac (a devDependency) is not installed: run npm ci');
    const { text, expected } = load(name);
    const theirs = found(expected, 'httpYac');
    if (!theirs) return;
    const store = new httpyac.store.HttpFileStore();
    const regions = (await store.getOrCreate(join(corpus, name), () => Promise.resolve(text), 0, { workingDir: corpus })).httpRegions;
    assert.deepEqual(regions.filter((r) => r.request).map((r) => `${r.request?.method} ${r.request?.url}`), theirs);
  });
}

void test('a request line after a body with no ### gets a warning; a JSON body line does not', () => {
  const file = parseHttpFile('POST https://x.test/a\nContent-Type: application/json\n\n{\n  "GET": "/v1"\n}\n\nGET /v1/next\n');
  assert.deepEqual(file.diagnostics.map((d) => [d.code, d.severity, d.range.start.line]), [['missing-separator', 'warning', 7]]);
  assert.match(file.diagnostics[0]?.message ?? '', /missing ###/);
  assert.equal(file.requests.length, 1);
});

void test('unterminated scripts and block comments are errors that name what is open', () => {
  for (const [text, closer] of [['{{\n  exports.a = 1;\nGET https://x.test/\n', '}}'], ['< {%\n  request.variables.set("a", 1)\nGET https://x.test/\n', '%}'], ['/*\nGET https://x.test/\n', '*/']] as const) {
    const file = parseHttpFile(text);
    assert.equal(file.requests.length, 0, 'nothing inside an open block is a request');
    assert.ok(file.diagnostics.some((d) => d.code === 'unterminated-block' && d.severity === 'error' && d.message.includes(closer)), text);
    assert.equal(printHttpFile(file), text);
  }
});
