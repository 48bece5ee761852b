// Which file variables a file defines is one rule (document.ts fileVariablesOf: what the parse of each
// block read), asked by diagnostics, completion and hover alike. httpYac's lazy file variable
// `@name := value` is a file variable: completion offers it and hover shows it, as it does `@name = value`.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { MarkupContent } from 'vscode-languageserver';
import { createHttpLanguageService, HttpDocument } from '../../src/server/service';

const service = createHttpLanguageService();
service.setEnvironmentVariables(['base']);

void test('a lazy file variable is defined for completion and hover as it is for diagnostics', () => {
  const text = ['@eager = 1', '@lazy := 2', '', '### B', 'GET {{base}}/b?x={{lazy}}&y={{eager}}'].join('\n');
  const document = new HttpDocument('file:///t.http', 1, text);
  assert.deepEqual(service.doValidate(document).filter((d) => d.code === 'undefined-variable'), [], 'diagnostics: both are defined');
  const hover = (character: number): string => (service.doHover(document, { line: 4, character })?.contents as MarkupContent | undefined)?.value ?? '';
  assert.match(hover(text.split('\n')[4]!.indexOf('eager') + 1), /File variable `eager`/);
  assert.match(hover(text.split('\n')[4]!.indexOf('lazy') + 1), /File variable `lazy`/, 'hover on {{lazy}}');
  const typed = ['@eager = 1', '@lazy := 2', '', '### B', 'GET {{base}}/b?x={{'].join('\n');
  const labels = service.doComplete(new HttpDocument('file:///u.http', 1, typed), { line: 4, character: 19 }).items.map((i) => i.label);
  assert.ok(labels.includes('eager'));
  assert.ok(labels.includes('lazy'), `completion offers lazy: ${labels.filter((l) => !l.startsWith('$')).join(', ')}`);
});

void test('a variable of a block\'s second request, and an @ line of a body, are what diagnostics, completion and hover all say', () => {
  const text = ['### A', 'GET {{base}}/a', '# @name second', '@late = 3', 'POST {{base}}/b', 'Content-Type: text/plain', '', '@body = 4', '', '### C', 'GET {{base}}/c?x={{late}}&y={{body}}', ''].join('\n');
  const document = new HttpDocument('file:///v.http', 1, text);
  const warned = service.doValidate(document).filter((d) => d.code === 'undefined-variable').map((d) => d.message);
  assert.deepEqual(warned, ["The variable 'body' is not defined in the active environment or the file."]);
  const line = text.split('\n')[10]!;
  const hover = (at: number): string => (service.doHover(document, { line: 10, character: at })?.contents as MarkupContent | undefined)?.value ?? '';
  assert.match(hover(line.indexOf('late') + 1), /File variable `late` = `3`/);
  assert.match(hover(line.indexOf('body') + 1), /`body` is not defined/);
  const labels = service.doComplete(new HttpDocument('file:///w.http', 1, `${text}GET {{base}}/d?z={{`), { line: 11, character: 19 }).items.map((i) => i.label);
  assert.ok(labels.includes('late') && !labels.includes('body'), labels.filter((l) => !l.startsWith('$')).join(', '));
});
