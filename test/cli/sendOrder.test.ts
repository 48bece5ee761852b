// sendOrder: which request of a run is sent when. Requests are started by a fake whose responses the test
// receives and settles by hand; the log says in which order requests were started. And overlapsNext, the
// rule of apiwb run for when a response may be examined while the next request is answered.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { overlapsNext, type PlannedRequest } from '../../src/cli/runCommand';
import { sendOrder } from '../../src/cli/sendOrder';
import { parseHttpFile } from '../../src/core/httpfile/parser';

interface Fake {
  readonly started: number[];
  receive(i: number, bytes?: number): void;
  settle(i: number): void;
  outcome(i: number): Promise<string>;
}

function fakeRun(overlaps: (i: number, bytes: number) => boolean): Fake {
  const started: number[] = [];
  const received = new Map<number, (bytes: number) => void>();
  const settle = new Map<number, (value: string) => void>();
  const order = sendOrder<string>((i, receivedWhole) => {
    started.push(i);
    received.set(i, receivedWhole);
    return new Promise<string>((resolve) => settle.set(i, resolve));
  }, overlaps);
  return {
    started,
    receive: (i, bytes = 100) => received.get(i)!(bytes),
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

  void it('the size of the response received is the one the rule is asked about, also when received early', async () => {
    const asked: string[] = [];
    const run = fakeRun((i, bytes) => {
      asked.push(`${i}:${bytes}`);
      return bytes < 1000;
    });
    const first = run.outcome(0);
    run.receive(0, 10);
    run.receive(1, 5000);
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
