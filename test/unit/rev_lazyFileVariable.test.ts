// httpYac's lazy file variable `@name := value` is a file variable (the parser reads it, validation counts
// it as defined): completion offers it and hover shows it, as it does `@name = value`.
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
