// The summary lines of `apiwb run` on their way to stdout. On a terminal each line is written as it
// comes (the progress line on stderr is cleared and redrawn around it). To a file or a pipe, lines that
// come within `everyMs` of the last write are gathered and written together when that time is up: a
// 1 000-request run makes a few dozen writes instead of a thousand system calls, and a reader (tail -f,
// a CI log) still sees every line at most `everyMs` after its request finished, in order.

export interface LineWriter {
  write(text: string): void;
  /** Writes what is gathered now (before other output, and at the end of the run). */
  flush(): void;
}

export interface LineWriterClock {
  now(): number;
  /** Calls `fn` once after `ms`; the returned function cancels it. */
  later(fn: () => void, ms: number): () => void;
}

const realClock: LineWriterClock = {
  now: () => performance.now(),
  later: (fn, ms) => {
    const timer = setTimeout(fn, ms);
    timer.unref();
    return () => clearTimeout(timer);
  },
};

export function lineWriter(stream: { write(text: string): unknown; readonly isTTY?: boolean }, everyMs = 20, clock: LineWriterClock = realClock): LineWriter {
  if (stream.isTTY === true) return { write: (text) => { stream.write(text); }, flush: () => undefined };
  let pending = '';
  let lastWrite = Number.NEGATIVE_INFINITY;
  let cancel: (() => void) | undefined;
  const flush = (): void => {
    cancel?.();
    cancel = undefined;
    if (pending === '') return;
    const text = pending;
    pending = '';
    lastWrite = clock.now();
    stream.write(text);
  };
  return {
    write(text) {
      pending += text;
      const since = clock.now() - lastWrite;
      if (since >= everyMs) flush();
      else cancel ??= clock.later(flush, everyMs - since);
    },
    flush,
  };
}
