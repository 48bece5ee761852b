// Another tool's script is kept as written and said, never sent: a JetBrains HTTP Client pre-request
// script (`< {% … %}`) written below a request's body, or right below its request line, is read as body
// text and sent to the server, and nothing says so (a `> {% … %}` handler in the same place is kept and said).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseHttpFile } from '../../src/core/httpfile';

const SCRIPT = ['< {%', '  request.variables.set("a", "1");', '%}'];

function saidOrKept(text: string, scriptLine: number): { body: string; said: string[] } {
  const file = parseHttpFile(text);
  const body = file.requests[0]?.body;
  return {
    body: body?.kind === 'inline' ? body.text : '',
    said: file.diagnostics.filter((d) => d.range.start.line <= scriptLine && d.range.end.line >= scriptLine).map((d) => d.code),
  };
}

void test('a pre-request script below a JSON body is not sent as part of the body without a word', () => {
  const text = ['POST http://api.test/notes', 'Content-Type: application/json', '', '{"a": 1}', '', ...SCRIPT, ''].join('\n');
  const { body, said } = saidOrKept(text, 5);
  assert.ok(!body.includes('{%') || said.length > 0, `the body sent is ${JSON.stringify(body)} and no diagnostic names line 5`);
});

void test('a pre-request script right below the request line is not sent as the body without a word', () => {
  const text = ['GET http://api.test/notes', ...SCRIPT, ''].join('\n');
  const { body, said } = saidOrKept(text, 1);
  assert.ok(!body.includes('{%') || said.length > 0, `the body sent is ${JSON.stringify(body)} and no diagnostic names line 1`);
});
