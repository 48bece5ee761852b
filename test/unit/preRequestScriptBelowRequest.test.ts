// Another tool's script is kept as written and said, never sent: a JetBrains HTTP Client pre-request
// script (`< {% … %}`) written below a request's body, or right below its request line, is kept out of
// the body and said as not run, as a `> {% … %}` handler in the same place is.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseHttpFile } from '../../src/core/httpfile';

const SCRIPT = ['< {%', '  request.variables.set("a", "1");', '%}'];

function saidOrKept(text: string, scriptLine: number): { body: string; said: string[]; kept: string[] } {
  const file = parseHttpFile(text);
  const body = file.requests[0]?.body;
  return {
    body: body?.kind === 'inline' ? body.text : '',
    said: file.diagnostics.filter((d) => d.range.start.line <= scriptLine && d.range.end.line >= scriptLine).map((d) => d.code),
    kept: file.blocks.flatMap((b) => b.kept).filter((k) => k.range.start.line === scriptLine).map((k) => k.kind),
  };
}

void test('a pre-request script below a JSON body is kept out of the body and said', () => {
  const text = ['POST http://api.test/notes', 'Content-Type: application/json', '', '{"a": 1}', '', ...SCRIPT, ''].join('\n');
  assert.deepEqual(saidOrKept(text, 5), { body: '{"a": 1}', said: ['kept-construct'], kept: ['pre-request-script'] });
});

void test('a pre-request script right below the request line is no body and is said', () => {
  const text = ['GET http://api.test/notes', ...SCRIPT, ''].join('\n');
  assert.deepEqual(saidOrKept(text, 1), { body: '', said: ['kept-construct'], kept: ['pre-request-script'] });
});

void test('a one-line pre-request script right below a body line (no blank line) ends the body', () => {
  const text = ['POST http://api.test/notes', 'Content-Type: application/json', '', '{"a": 1}', '< {% request.variables.set("a", "1"); %}', ''].join('\n');
  assert.deepEqual(saidOrKept(text, 4), { body: '{"a": 1}', said: ['kept-construct'], kept: ['pre-request-script'] });
});
