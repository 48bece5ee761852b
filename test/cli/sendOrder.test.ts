// sendOrder: which request of a run is sent when. Requests are started by a fake whose responses the test
// receives and settles by hand; the log says in which order requests were started.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sendOrder } from '../../src/cli/sendOrder';

interface Fake {
  readonly started: number[];
  receive(i: number): void;
  settle(i: number): void;
  outcome(i: number): Promise<string>;
}

function fakeRun(overlaps: (i: number) => boolean): Fake {
  const started: number[] = [];
  const received = new Map<number, () => void>();
  const settle = new Map<number, (value: string) => void>();
  const order = sendOrder<string>((i, receivedWhole) => {
    started.push(i);
    received.set(i, receivedWhole);
    return new Promise<string>((resolve) => settle.set(i, resolve));
  }, overlaps);
  return {
    started,
    receive: (i) => received.get(i)!(),
    settle: (i) => settle.get(i)!(`outcome ${i}`),
    outcome: (i) => order.outcome(i),
  };
}

void describe('sendOrder', () => {
  void it('sends the next request once a response is received whole, before that response is settled', async () => {
    const run = fakeRun(() => true);
    const first = run.outcome(0);
    assert.deepEqual(run.started, [0]);
    run.receive(0);
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
    run.receive(0);
    run.receive(1);
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
    run.receive(0);
    assert.deepEqual(run.started, [0]);
    run.settle(0);
    await first;
    const second = run.outcome(1);
    assert.deepEqual(run.started, [0, 1]);
    run.receive(1);
    assert.deepEqual(run.started, [0, 1, 2], 'request 1 may overlap its next');
    run.settle(1);
    await second;
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
