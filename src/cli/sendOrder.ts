// The order in which `apiwb run` sends its requests. One after the other, always: a request goes only once
// the response before it has been received whole. What may overlap is the work around them: where
// `overlaps(i, bytes)` allows it for response i of that size, request i+1 is sent the moment response i
// has been received, and response i is examined (rows, business errors, its line) while the server
// answers request i+1. At most one request is ahead of the one whose outcome is awaited.

export interface SendOrder<T> {
  /** Request i's outcome, started now unless it already was; ask for them in order, each once. */
  outcome(i: number): Promise<T>;
}

/**
 * `start(i, received)` sends request i and calls `received(bytes)` once its response has been received
 * whole (never when none came); its promise never rejects.
 */
export function sendOrder<T>(start: (i: number, received: (bytes: number) => void) => Promise<T>, overlaps: (i: number, bytes: number) => boolean): SendOrder<T> {
  const ahead = new Map<number, Promise<T>>();
  // Requests received whole before their outcome was asked for (their size): their next goes when it is.
  const receivedEarly = new Map<number, number>();
  let current = -1;
  const sendNext = (i: number, bytes: number): void => {
    if (overlaps(i, bytes) && !ahead.has(i + 1)) ahead.set(i + 1, begin(i + 1));
  };
  const begin = (i: number): Promise<T> => start(i, (bytes) => {
    if (i === current) sendNext(i, bytes);
    else receivedEarly.set(i, bytes);
  });
  return {
    outcome(i) {
      current = i;
      const pending = ahead.get(i) ?? begin(i);
      ahead.delete(i);
      const bytes = receivedEarly.get(i);
      if (bytes !== undefined) {
        receivedEarly.delete(i);
        sendNext(i, bytes);
      }
      return pending;
    },
  };
}
