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

void test('a `> text` line inside a text body stays body; a script path or `> {%` ends it', () => {
  const text = 'POST http://h.test/issue\nContent-Type: text/markdown\n\nThanks!\n> I tried it twice\nand it failed\n';
  const body = parseHttpFile(text).requests[0]?.body;
  assert.equal(body?.kind === 'inline' ? body.text : undefined, 'Thanks!\n> I tried it twice\nand it failed');
  for (const handler of ['> ./check.js', '> ../h/check.mjs', '> /abs/check', '> check.ts', '> {% client.log(1) %}']) {
    const node = parseHttpFile(`POST http://h.test/x\n\nbody\n${handler}\n`).requests[0];
    assert.equal(node?.body?.kind === 'inline' ? node.body.text : undefined, 'body', handler);
    assert.equal(node?.responseHandlers.length, 1, handler);
  }
  const redirect = parseHttpFile('POST http://h.test/x\n\nbody\n>> out.json\n').requests[0];
  assert.equal(redirect?.body?.kind === 'inline' ? redirect.body.text : undefined, 'body');
});

void test('a request whose block holds a line the parser did not read is not run, the line named', () => {
  const [after] = reasons('POST http://h.test/x\nContent-Type: application/json\n\n{{\n  exports.b = 2;\n}}\n{"real": "body"}\n');
  assert.match(after ?? '', /^line 7: /);
  const [header] = reasons('GET http://h.test/x\n{{\n  exports.b = 2;\n}}\nX-H: 1\n');
  assert.match(header ?? '', /^line 5: /);
  assert.deepEqual(reasons('GET http://h.test/x\nX-H: 1\n'), [undefined]);
});

void test('a request line without a scheme opens a request, not run for want of a scheme', () => {
  const text = 'GET http://127.0.0.1:18081/a\nDELETE 127.0.0.1:18081/b\n\n###\nPOST localhost:18081/d\nGET example.test/e\n';
  const file = parseHttpFile(text);
  assert.deepEqual(file.requests.map((r) => r.requestLine.url), ['http://127.0.0.1:18081/a', '127.0.0.1:18081/b', 'localhost:18081/d', 'example.test/e']);
  const [ok, ...rest] = reasons(text);
  assert.equal(rest.length, 3);
  // In a body it is the request line the body swallows, said as such.
  assert.equal(parseHttpFile('POST http://h.test/x\n\n{"a": 1}\nDELETE 127.0.0.1:18081/b\n').diagnostics.filter((d) => d.code === 'missing-separator').length, 1);
  assert.equal(ok, undefined);
  for (const reason of rest) assert.match(reason ?? '', /no scheme/);
  // A body line that merely starts like it stays body.
  assert.equal(parseHttpFile('POST http://h.test/x\n\nGET: 1\nNOTE this:1\n').requests.length, 1);
});

void test('an HTTP method with a ws, wss, grpc, mqtt or amqp URL is that kind, not sent, by name', () => {
  const [ws, grpc, mqtt, amqp, http] = reasons('GET ws://h.test/s\n\n###\nPOST grpc://h.test/s\n\n###\nGET mqtt://h.test/t\n\n###\nPOST amqp://h.test/q\n\n###\nGET http://h.test/\n');
  assert.match(ws ?? '', /^WebSocket request \(ws, httpYac\): not supported/);
  assert.match(grpc ?? '', /^gRPC request \(grpc, httpYac\): not supported/);
  assert.match(mqtt ?? '', /^MQTT request/);
  assert.match(amqp ?? '', /^AMQP request/);
  assert.equal(http, undefined);
});
