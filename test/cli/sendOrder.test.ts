// sendOrder: which request of a run is sent when. Requests are started by a fake whose responses the test
// receives and settles by hand; the log says in which order requests were started. And overlapsNext, the
// rule of apiwb run for when a response may be examined while the next request is answered.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { overlapsNext, preparesAhead } from '../../src/cli/runOverlap';
import type { PlannedRequest } from '../../src/cli/runPlan';
import { sendOrder } from '../../src/cli/sendOrder';
import { parseHttpFile } from '../../src/core/httpfile/parser';

interface Fake {
  readonly started: number[];
  /** The order was told a request signs in. */
  signingIn(): void;
  idle(): Promise<void>;
  /** What the exchange would wait for before examining response i (undefined: nothing). */
  receive(i: number, bytes?: number): Promise<void> | undefined;
  /** Request i handed to the HTTP client. */
  handOver(i: number): void;
  settle(i: number): void;
  outcome(i: number): Promise<string>;
}

/** `onStart(i, handedOver)`: what the fake request does as it starts (by default nothing: the test hands it over). */
function fakeRun(overlaps: (i: number, bytes: number) => boolean, onStart: (i: number, handedOver: () => void) => void = () => undefined): Fake {
  const started: number[] = [];
  const received = new Map<number, (bytes: number) => Promise<void> | undefined>();
  const handedOver = new Map<number, () => void>();
  const settle = new Map<number, (value: string) => void>();
  const order = sendOrder<string>((i, hooks) => {
    started.push(i);
    received.set(i, hooks.received);
    handedOver.set(i, hooks.handedOver);
    const outcome = new Promise<string>((resolve) => settle.set(i, resolve));
    onStart(i, hooks.handedOver);
    return outcome;
  }, overlaps);
  return {
    started,
    receive: (i, bytes = 100) => received.get(i)!(bytes),
    handOver: (i) => handedOver.get(i)!(),
    signingIn: () => order.signingIn(),
    idle: () => order.idle(),
    settle: (i) => settle.get(i)!(`outcome ${i}`),
    outcome: (i) => order.outcome(i),
  };
}

/** Whether `promise` has settled once everything already queued (microtasks, Immediates) has run. */
async function settledSoon(promise: Promise<unknown>): Promise<boolean> {
  let settled = false;
  void promise.then(() => { settled = true; });
  await new Promise((resolve) => setImmediate(resolve));
  await new Promise((resolve) => setImmediate(resolve));
  return settled;
}

void describe('sendOrder', () => {
  void it('readyNext(i) once request i is written (an Immediate after its hand-over), never for one not handed over', async () => {
    const log: string[] = [];
    const handedOver = new Map<number, () => void>();
    const settle = new Map<number, (value: string) => void>();
    const order = sendOrder<string>((i, hooks) => {
      handedOver.set(i, hooks.handedOver);
      return new Promise<string>((resolve) => settle.set(i, resolve));
    }, () => false, (i) => log.push(`ready after ${i}`));
    const first = order.outcome(0);
    // As undici does: handed a request, it queues the Immediate that writes it, then the hand-over is told.
    setImmediate(() => log.push('written 0'));
    handedOver.get(0)!();
    assert.deepEqual(log, [], 'not while the request is being handed over');
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(log, ['written 0', 'ready after 0'], 'after the Immediate the HTTP client writes it in (queued before)');
    settle.get(0)!('a');
    await first;
    const second = order.outcome(1);
    settle.get(1)!('b');
    await second;
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(log, ['written 0', 'ready after 0'], 'request 1 was never handed over');
  });

  void it('no readyNext(i) once request i+1 has begun (its response came before the write\'s Immediate)', async () => {
    const log: string[] = [];
    const hooksOf = new Map<number, { received: (bytes: number) => Promise<void> | undefined; handedOver: () => void }>();
    const settle = new Map<number, (value: string) => void>();
    const order = sendOrder<string>((i, hooks) => {
      hooksOf.set(i, hooks);
      log.push(`start ${i}`);
      return new Promise<string>((resolve) => settle.set(i, resolve));
    }, () => true, (i) => log.push(`ready after ${i}`));
    const first = order.outcome(0);
    hooksOf.get(0)!.handedOver();
    void hooksOf.get(0)!.received(10);
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(log, ['start 0', 'start 1'], 'request 1 began before request 0\'s Immediate: nothing to make ready');
    settle.get(0)!('a');
    await first;
    settle.get(1)!('b');
    await order.outcome(1);
  });

  void it('a throw while making the next request ready is no fault of the run', async () => {
    const handedOver = new Map<number, () => void>();
    const settle = new Map<number, (value: string) => void>();
    const order = sendOrder<string>((i, hooks) => {
      handedOver.set(i, hooks.handedOver);
      return new Promise<string>((resolve) => settle.set(i, resolve));
    }, () => false, () => { throw new Error('cannot make it ready'); });
    const first = order.outcome(0);
    handedOver.get(0)!();
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    settle.get(0)!('a');
    assert.equal(await first, 'a');
  });

  void it('idle(): at once with nothing on the network; else once the response on it is received whole, or its request ends', async () => {
    const run = fakeRun(() => false);
    const order = { idle: (): Promise<void> => run.idle() };
    assert.equal(await settledSoon(order.idle()), true, 'nothing sent yet');
    const first = run.outcome(0);
    assert.equal(await settledSoon(order.idle()), true, 'started, not handed over (preparing, signing in)');
    run.handOver(0);
    const waiting = order.idle();
    assert.equal(await settledSoon(waiting), false, 'request 0 is on the network');
    void run.receive(0);
    assert.equal(await settledSoon(waiting), true, 'its response is in');
    run.settle(0);
    await first;
    const second = run.outcome(1);
    run.handOver(1);
    const untilEnded = order.idle();
    assert.equal(await settledSoon(untilEnded), false);
    run.settle(1);
    assert.equal(await settledSoon(untilEnded), true, 'a request that ended without a whole response (a dropped connection) is off the network too');
    await second;
  });

  void it('sends the next request once a response is received whole, before that response is settled', async () => {
    const run = fakeRun(() => true);
    const first = run.outcome(0);
    assert.deepEqual(run.started, [0]);
    void run.receive(0);
    assert.deepEqual(run.started, [0, 1], 'request 1 goes as soon as response 0 is received');
    run.settle(0);
    assert.equal(await first, 'outcome 0');
    const second = run.outcome(1);
    assert.deepEqual(run.started, [0, 1], 'request 1 is not sent twice');
    run.settle(1);
    assert.equal(await second, 'outcome 1');
  });

  void it('never more than one request ahead: a response received before its outcome is asked for sends its next only then', async () => {
    const run = fakeRun(() => true);
    const first = run.outcome(0);
    void run.receive(0);
    void run.receive(1);
    assert.deepEqual(run.started, [0, 1], 'request 2 waits while outcome 0 is awaited');
    run.settle(0);
    await first;
    const second = run.outcome(1);
    assert.deepEqual(run.started, [0, 1, 2], 'request 2 goes when outcome 1 is asked for, its response being in');
    run.settle(1);
    await second;
  });

  void it('where overlapping is not allowed, the next request waits for the outcome', async () => {
    const run = fakeRun((i) => i !== 0);
    const first = run.outcome(0);
    void run.receive(0);
    assert.deepEqual(run.started, [0]);
    run.settle(0);
    await first;
    const second = run.outcome(1);
    assert.deepEqual(run.started, [0, 1]);
    void run.receive(1);
    assert.deepEqual(run.started, [0, 1, 2], 'request 1 may overlap its next');
    run.settle(1);
    await second;
  });

  void it('the size of the response received is the one the rule is asked about, also when received early', async () => {
    const asked: string[] = [];
    const run = fakeRun((i, bytes) => {
      asked.push(`${i}:${bytes}`);
      return bytes < 1000;
    });
    const first = run.outcome(0);
    void run.receive(0, 10);
    void run.receive(1, 5000);
    run.settle(0);
    await first;
    const second = run.outcome(1);
    assert.deepEqual(asked, ['0:10', '1:5000']);
    assert.deepEqual(run.started, [0, 1], 'a response the rule refuses: its next waits for its outcome');
    run.settle(1);
    await second;
    void run.outcome(2);
    assert.deepEqual(run.started, [0, 1, 2]);
  });

  void it('a response is examined once the next request is written: after its hand-over and the Immediate the HTTP client writes it in', async () => {
    const log: string[] = [];
    // As undici does on a kept-alive connection: handed a request, it writes it in an Immediate queued then.
    const run = fakeRun(() => true, (i, handedOver) => {
      if (i === 0) return;
      void Promise.resolve().then(() => {
        setImmediate(() => log.push(`written ${i}`));
        handedOver();
      });
    });
    const first = run.outcome(0);
    const waiting = run.receive(0);
    assert.ok(waiting, 'the exchange waits before examining response 0');
    // The examination's own turn was not queued before the request's hand-over: it runs after the write.
    setImmediate(() => log.push('an Immediate queued with the response'));
    await waiting;
    log.push('examined 0');
    assert.deepEqual(log, ['an Immediate queued with the response', 'written 1', 'examined 0']);
    run.settle(0);
    await first;
    run.settle(1);
    await run.outcome(1);
  });

  void it('the wait ends when the next request ends without being sent (a variable it could not resolve)', async () => {
    const run = fakeRun(() => true);
    const first = run.outcome(0);
    const waiting = run.receive(0)!;
    assert.equal(await settledSoon(waiting), false, 'nothing handed over, nothing settled: response 0 waits');
    run.settle(1);
    assert.equal(await settledSoon(waiting), true);
    run.settle(0);
    await first;
    assert.equal(await run.outcome(1), 'outcome 1');
  });

  void it('the wait ends when the next request signs in first: the response is not held for that network round', async () => {
    const run = fakeRun(() => true);
    const first = run.outcome(0);
    const waiting = run.receive(0)!;
    assert.equal(await settledSoon(waiting), false);
    run.signingIn();
    assert.equal(await settledSoon(waiting), true, 'examined while request 1 signs in');
    run.signingIn();
    run.handOver(1);
    run.settle(0);
    await first;
    run.settle(1);
    assert.equal(await run.outcome(1), 'outcome 1');
  });

  void it('nothing to wait for where the next request may not overlap, nor for a response received before its outcome was asked for', async () => {
    const refusing = fakeRun(() => false);
    const first = refusing.outcome(0);
    assert.equal(refusing.receive(0), undefined);
    refusing.settle(0);
    await first;
    const run = fakeRun(() => true);
    const zero = run.outcome(0);
    const waiting = run.receive(0)!;
    run.handOver(1);
    await waiting;
    assert.equal(run.receive(1), undefined, 'response 1 arrived while outcome 0 is still awaited');
    run.settle(0);
    await zero;
    const one = run.outcome(1);
    assert.deepEqual(run.started, [0, 1, 2]);
    run.settle(1);
    await one;
  });

  void it('a request whose response never came whole: the next is sent when its outcome is asked for', async () => {
    const run = fakeRun(() => true);
    const first = run.outcome(0);
    run.settle(0);
    await first;
    assert.deepEqual(run.started, [0]);
    const second = run.outcome(1);
    assert.deepEqual(run.started, [0, 1]);
    run.settle(1);
    await second;
  });
});

void describe('overlapsNext: which response is examined while the next request is answered', () => {
  const planOf = (text: string, readLater: readonly boolean[] = []): Array<Pick<PlannedRequest, 'readLater' | 'node'>> =>
    parseHttpFile(text).requests.map((node, i) => ({ node, readLater: readLater[i] ?? false }));
  const two = planOf('GET http://x/a\n\n###\nGET http://x/b\n');
  const plain = { allPages: false, checkContract: false };

  void it('a small response whose examination nothing after it depends on', () => {
    assert.equal(overlapsNext(two, 0, 100, plain), true);
    assert.equal(overlapsNext(two, 0, 64 * 1024, plain), true);
  });

  void it('not the last request, nor a large response, nor with --out, --all-pages or --check-contract', () => {
    assert.equal(overlapsNext(two, 1, 100, plain), false);
    assert.equal(overlapsNext(two, 0, 64 * 1024 + 1, plain), false);
    assert.equal(overlapsNext(two, 0, 100, { ...plain, out: 'rows.ndjson' }), false);
    assert.equal(overlapsNext(two, 0, 100, { ...plain, allPages: true }), false);
    assert.equal(overlapsNext(two, 0, 100, { ...plain, checkContract: true }), false);
  });

  void it('preparesAhead: the next request is made ready while this one is answered, unless it may read this response or pages are walked', () => {
    assert.equal(preparesAhead(two, 0, { allPages: false }), true);
    assert.equal(preparesAhead(two, 1, { allPages: false }), false, 'no request after the last');
    assert.equal(preparesAhead(two, 0, { allPages: true }), false);
    assert.equal(preparesAhead(planOf('GET http://x/a\n\n###\nGET http://x/b\n', [true, false]), 0, { allPages: false }), false, 'a response read later by name');
    assert.equal(preparesAhead(planOf('GET http://x/a\n\n###\nGET http://x/b\n', [false, true]), 0, { allPages: false }), true, 'the next one read later itself is no reason');
    assert.equal(preparesAhead(planOf('GET http://x/a\n\n?? duration < 50\n\n###\nGET http://x/b\n'), 0, { allPages: false }), false, 'a request that asserts its duration');
  });

  void it('not a response read later by name, nor one with assertions, nor before a request that asserts its duration', () => {
    assert.equal(overlapsNext(planOf('GET http://x/a\n\n###\nGET http://x/b\n', [true, false]), 0, 100, plain), false);
    const asserted = planOf('GET http://x/a\n\n?? status == 200\n\n###\nGET http://x/b\n');
    const timed = planOf('GET http://x/a\n\n###\nGET http://x/b\n\n?? duration < 50\n');
    const statusNext = planOf('GET http://x/a\n\n###\nGET http://x/b\n\n?? status == 200\n');
    assert.deepEqual([asserted, timed, statusNext].map((p) => p.map((r) => r.node.assertions.map((a) => a.subject))), [[['status'], []], [[], ['duration']], [[], ['status']]]);
    assert.equal(overlapsNext(asserted, 0, 100, plain), false);
    assert.equal(overlapsNext(timed, 0, 100, plain), false);
    assert.equal(overlapsNext(statusNext, 0, 100, plain), true, 'other assertions of the next request do not read its time');
  });
});
