// A JSON body is redacted by the same walk as a row (redact.ts redactTree): a secret-named field masked
// whatever its value holds (unless null or empty), every other field kept, a key "__proto__" too (an own
// field of the body, as JSON.parse makes it, never the copy's prototype). What History stores is that.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { HistoryStore } from '../../src/core/history';
import { Redactor } from '../../src/core/secrets';
import { memoryHistoryFiles } from './memoryHistoryFiles';

const body = '{"__proto__":{"admin":true},"password":"Hunter2Literal9","token":null,"session":{"id":"s-1"},"name":"ann"}';

void it('a body\'s "__proto__" field is kept, secret-named fields masked as a row\'s are', async () => {
  const shown = new Redactor([]).body(body, 'application/json');
  assert.equal(shown, '{"__proto__":{"admin":true},"password":"***","token":null,"session":"***","name":"ann"}');
  assert.deepEqual(new Redactor([]).row(JSON.parse(body)), JSON.parse(shown), 'the body and a row agree');
  const store = new HistoryStore(memoryHistoryFiles(), () => new Redactor([]));
  const entry = await store.record({ request: { method: 'GET', url: 'http://127.0.0.1:9/x', headers: {} }, response: { status: 200, statusText: 'OK', headers: { 'content-type': 'application/json' }, bodyText: body, timing: { startedAt: 0, firstByteMs: 1, totalMs: 2 }, sizeBytes: body.length } });
  assert.equal((await store.exchange(entry.id))?.response?.bodyText, shown);
});
