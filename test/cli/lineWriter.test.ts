// The summary lines' writer: on a terminal every line at once; to a file or a pipe, lines gathered for at
// most `everyMs` and written in order, nothing left behind at the end.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { lineWriter, type LineWriterClock } from '../../src/cli/reporters/lineWriter';

/** A clock the test moves by hand; `later` callbacks run when their time is reached. */
function manualClock(): LineWriterClock & { advance(ms: number): void; pending(): number } {
  let t = 0;
  let timers: { at: number; fn: () => void }[] = [];
  return {
    now: () => t,
    later(fn, ms) {
      const timer = { at: t + ms, fn };
      timers.push(timer);
      return () => { timers = timers.filter((x) => x !== timer); };
    },
    advance(ms) {
      t += ms;
      const due = timers.filter((x) => x.at <= t);
      timers = timers.filter((x) => x.at > t);
      for (const x of due) x.fn();
    },
    pending: () => timers.length,
  };
}

const recorder = (isTTY: boolean): { writes: string[]; write(text: string): void; isTTY: boolean } => {
  const writes: string[] = [];
  return { writes, isTTY, write: (text) => { writes.push(text); } };
};

void describe('lineWriter', () => {
  void it('to a file or a pipe: the first line at once, the next ones within the window together, in order, on time', () => {
    const clock = manualClock();
    const stream = recorder(false);
    const out = lineWriter(stream, 50, clock);
    out.write('a\n');
    assert.deepEqual(stream.writes, ['a\n'], 'the first line is not held');
    clock.advance(10);
    out.write('b\n');
    clock.advance(10);
    out.write('c\n');
    assert.deepEqual(stream.writes, ['a\n'], 'gathered while within the window');
    assert.equal(clock.pending(), 1, 'one timer for the gathered lines, not one per line');
    clock.advance(30);
    assert.deepEqual(stream.writes, ['a\n', 'b\nc\n'], 'written when the window is up: 50 ms after the last write');
    clock.advance(100);
    out.write('d\n');
    assert.deepEqual(stream.writes, ['a\n', 'b\nc\n', 'd\n'], 'after a quiet spell a line goes at once');
    out.write('e\n');
    out.flush();
    assert.deepEqual(stream.writes, ['a\n', 'b\nc\n', 'd\n', 'e\n'], 'flush writes what is gathered');
    assert.equal(clock.pending(), 0, 'and cancels its timer');
    out.flush();
    clock.advance(1000);
    assert.equal(stream.writes.length, 4, 'nothing written twice, no empty write');
  });

  void it('on a terminal: every line as it comes', () => {
    const clock = manualClock();
    const stream = recorder(true);
    const out = lineWriter(stream, 50, clock);
    out.write('a\n');
    out.write('b\n');
    assert.deepEqual(stream.writes, ['a\n', 'b\n']);
    assert.equal(clock.pending(), 0);
  });
});
