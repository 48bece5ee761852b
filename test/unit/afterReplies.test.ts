// afterRepliesSent: work that blocks the thread starts only after the editor's RPC writer has flushed the
// answers of this turn (it flushes on a setTimeout(0) set as an answer is written, after the call).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EventEmitter, once } from 'node:events';
import { afterRepliesSent } from '../../src/extension/afterReplies';

void test('runs after a flush timer set later in the same turn, where a plain timer set before it would run first', async () => {
  const order: string[] = [];
  const done = new EventEmitter();
  afterRepliesSent(() => { order.push('load'); done.emit('done'); });
  setImmediate(() => order.push('setImmediate'));
  setTimeout(() => order.push('plain timer'), 0);
  // The answer is written when the provider's promise settles: the writer sets its flush timer then.
  await Promise.resolve();
  setTimeout(() => order.push('writer flush'), 0);
  await once(done, 'done');
  assert.ok(order.indexOf('writer flush') < order.indexOf('load'), order.join(' → '));
  // The premise: a timer set before the flush's runs before it (setImmediate may too, depending on when
  // the loop first reaches its timers); afterRepliesSent's first timer is such a timer.
  assert.ok(order.indexOf('plain timer') < order.indexOf('writer flush'), `the test's premise: ${order.join(' → ')}`);
});
