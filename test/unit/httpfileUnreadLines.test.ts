// No line of a request's block is sent unread or dropped without a word: a request line right after a
// body, a scheme-less request line, a `> text` line inside a text body, a line the parser did not read,
// and an HTTP method with a ws/grpc/mqtt/amqp URL.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseHttpFile } from '../../src/core/httpfile';
import { notRunReason } from '../../src/core/run/notRun';

const reasons = (text: string): Array<string | undefined> => {
  const file = parseHttpFile(text);
  return file.blocks.filter((b) => b.request).map((b) => notRunReason(file, b, b.request!, {})?.reason);
};

void test('a request line right after a body line (no blank line) is body with the missing-separator warning', () => {
  const file = parseHttpFile('POST http://h.test/create\nContent-Type: application/json\n\n{"a": 1}\nDELETE http://h.test/items/7\n');
  assert.equal(file.requests.length, 1);
  const warning = file.diagnostics.find((d) => d.code === 'missing-separator');
  assert.equal(warning?.range.start.line, 4);
  assert.equal(warning?.severity, 'warning');
});
