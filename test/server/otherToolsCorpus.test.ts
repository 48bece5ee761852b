// The language server over stdio (a real LSP client) on the other tools' corpus
// (test/fixtures/other-tools): every line the corpus says is another tool's construct gets a diagnostic
// there naming that tool; every request the corpus lists as not run has, in its own block, an error or a
// diagnostic saying it is not run; a request line another tool reads as a new request without ### is warned;
// and no line is reported as unread.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DidOpenTextDocumentNotification, DiagnosticSeverity, type Diagnostic } from 'vscode-languageserver-protocol/node';
import { openSettled, startLspSession, type LspSession } from './lspClient';

const corpus = join(import.meta.dirname, '../fixtures/other-tools');
const names = readdirSync(corpus).filter((f) => f.endsWith('.http'));
interface Expected { lines: number[]; said: Array<{ line: number; tool: string }>; notRun: Array<{ line: number; tool: string }> }
let session: LspSession;
const published = new Map<string, Diagnostic[]>();

before(async () => {
  session = await startLspSession();
  for (const name of names) {
    const uri = `file:///work/other-tools/${name}`;
    published.set(name, await openSettled(session, uri, readFileSync(join(corpus, name), 'utf8')));
  }
});
after(async () => { await session.close(); });

for (const name of names) {
  void test(`language server: ${name} — other tools' constructs named, not-run requests said in their block`, () => {
    const expected = JSON.parse(readFileSync(join(corpus, name.replace(/\.http$/, '.expected.json')), 'utf8')) as Expected;
    const diagnostics = published.get(name) ?? [];
    for (const s of expected.said) {
      assert.ok(diagnostics.some((d) => d.range.start.line + 1 === s.line && d.message.includes(s.tool)), `${name}:${s.line}: a diagnostic naming ${s.tool}\n${JSON.stringify(diagnostics, null, 1)}`);
    }
    for (const n of expected.notRun) {
      const end = expected.lines.find((l) => l > n.line) ?? Number.MAX_SAFE_INTEGER;
      const inBlock = diagnostics.filter((d) => d.range.start.line + 1 >= n.line && d.range.start.line + 1 < end);
      assert.ok(inBlock.some((d) => d.severity === DiagnosticSeverity.Error || /not run/.test(d.message)), `${name}:${n.line}: its block says why it is not run`);
    }
    assert.ok(!diagnostics.some((d) => d.code === 'unrecognised-line'), 'no line unread');
  });
}

void test('language server: a request line without ### after another one, or after a ?? line, is warned naming httpYac', () => {
  const warnings = (published.get('no-separator.http') ?? []).filter((d) => d.severity === DiagnosticSeverity.Warning && /without ###/.test(d.message));
  assert.deepEqual(warnings.map((d) => d.range.start.line + 1), [3, 10]);
  assert.ok(warnings.every((d) => d.message.includes('httpYac')));
});

void test('language server: a line no grammar reads is warned where it is, the request after it still found', async () => {
  const uri = 'file:///work/other-tools/stray.http';
  const next = session.nextDiagnostics(uri);
  await session.connection.sendNotification(DidOpenTextDocumentNotification.type, {
    textDocument: { uri, languageId: 'http', version: 1, text: 'GET https://x.test/a\n\n> ./handler.js\nthis is no construct\n\nGET https://x.test/b\n' },
  });
  const diagnostics = (await next).diagnostics;
  const stray = diagnostics.filter((d) => d.code === 'unrecognised-line');
  assert.deepEqual(stray.map((d) => [d.range.start.line, d.severity]), [[3, DiagnosticSeverity.Warning]]);
  assert.ok(diagnostics.some((d) => d.range.start.line === 5 && /without ###/.test(d.message)), 'the request after it is a request');
});
