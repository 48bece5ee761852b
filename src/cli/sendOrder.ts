// The order in which `apiwb run` sends its requests. One after the other, always: a request goes only once
// the response before it has been received whole. What may overlap is the work around them: where
// `overlaps(i, bytes)` allows it for response i of that size, request i+1 is sent the moment response i
// has been received, and response i is examined (rows, business errors, its line) while the server
// answers request i+1. At most one request is ahead of the one whose outcome is awaited.
//
// "Sent" means on its way, not only handed over: the HTTP client writes a request on a kept-alive
// connection one turn of the event loop later (undici checks the idle connection first, in an Immediate
// queued when the request is handed to it). Everything done before that turn, the examination included,
// still happens before the request leaves. So response i waits until request i+1 has been handed over,
// then for one Immediate queued after undici's (Immediates run in the order they were queued): request
// i+1 is written by then on a kept-alive connection, and response i is examined while the server
// answers it. Undici frees response i's connection a turn after it, so request i+1 goes on another
// kept-alive connection of the same origin (a run alternates between two); one still to be opened (the
// first overlap of a run, another origin) is written once it connects, after the examination. Nor does
// response i wait on the network for request i+1: a sign-in of request i+1 ends the wait (signingIn).
//
// What else may overlap is request i+1's making ready (variables, $auth values, `< file` body; the caller
// decides, `readyNext`): once request i is on its way, while the server answers it. It is never sent
// then, and a sign-in it needs waits until request i's response is in (`idle`): the run still has one
// request on the network at a time.

export interface SendOrder<T> {
  /** Request i's outcome, started now unless it already was; ask for them in order, each once. */
  outcome(i: number): Promise<T>;
  /**
   * A request of the run is about to wait on the network before it can be sent (its sign-in): a response
   * waiting for that request to be written is examined after one Immediate instead (its line is not held
   * back by the sign-in, nor lost when the run is interrupted during it).
   */
  signingIn(): void;
  /**
   * Resolves once no request of the run is on the network (handed over, its response not yet received
   * whole nor ended): a sign-in waits for it, so that it never goes while a request of the run does.
   */
  idle(): Promise<void>;
}

/** What request i tells its order as it goes. */
export interface RequestHooks {
  /** Its response has been received whole (never when none came): awaited before it is examined. */
  readonly received: (bytes: number) => Promise<void> | undefined;
  /** Its request has been handed to the HTTP client. */
  readonly handedOver: () => void;
}

/** `start(i, hooks)` sends request i, calling its hooks as it goes; its promise never rejects. */
export type StartRequest<T> = (i: number, hooks: RequestHooks) => Promise<T>;

/**
 * `start(i, hooks)` sends request i; `overlaps(i, bytes)` says whether request i+1 may go while response i
 * (of that size) is examined; `readyNext(i)`, called once request i is on its way (written), may make request
 * i+1 ready meanwhile (never send it: it goes when the order says).
 */
export function sendOrder<T>(start: StartRequest<T>, overlaps: (i: number, bytes: number) => boolean, readyNext?: (i: number) => void): SendOrder<T> {
  /** Ends the wait of a response for its next request without that request being handed over (see signingIn). */
  let stopWaiting: (() => void) | undefined;
  const ahead = new Map<number, Promise<T>>();
  // Requests received whole before their outcome was asked for (their size): their next goes when it is.
  const receivedEarly = new Map<number, number>();
  let current = -1;
  /** Starts request i+1 when allowed; settles once it is written (or ended without being sent). */
  const sendNext = (i: number, bytes: number): Promise<void> | undefined => {
    if (!overlaps(i, bytes) || ahead.has(i + 1)) return undefined;
    let handedOver!: () => void;
    const onItsWay = new Promise<void>((resolve) => {
      handedOver = resolve;
    });
    const signIn = new Promise<void>((resolve) => {
      stopWaiting = resolve;
    });
    const next = begin(i + 1, handedOver);
    ahead.set(i + 1, next);
    // A request that ends before it is sent (a variable it cannot resolve), or that signs in first, lets
    // response i go on too.
    return Promise.race([onItsWay, next.then(() => undefined), signIn]).then(afterOneTurn);
  };
  /** The request on the network, if one is; and who waits for none to be. */
  let onTheNetwork: number | undefined;
  let waitingForIdle: (() => void)[] = [];
  const offTheNetwork = (i: number): void => {
    if (onTheNetwork !== i) return;
    onTheNetwork = undefined;
    const waiting = waitingForIdle;
    waitingForIdle = [];
    for (const resume of waiting) resume();
  };
  /** Requests begin in order: the last one begun says which have. */
  let lastBegun = -1;
  const begin = (i: number, handedOver: () => void = () => undefined): Promise<T> => {
    lastBegun = Math.max(lastBegun, i);
    const started = start(i, {
      received: (bytes) => {
        offTheNetwork(i);
        if (i === current) return sendNext(i, bytes);
        receivedEarly.set(i, bytes);
        return undefined;
      },
      handedOver: () => {
        onTheNetwork = i;
        handedOver();
        // After the HTTP client's own Immediate, which writes the request (see the top of this file); not
        // for a request that has begun meanwhile. Making ready is an optimisation: its fault is no fault.
        if (readyNext) {
          setImmediate(() => {
            if (lastBegun >= i + 1) return;
            try {
              readyNext(i);
            } catch {
              // request i+1 is made ready when it begins, and says then what is wrong
            }
          });
        }
      },
    });
    const off = (): void => offTheNetwork(i);
    started.then(off, off);
    return started;
  };
  return {
    outcome(i) {
      current = i;
      const pending = ahead.get(i) ?? begin(i);
      ahead.delete(i);
      const bytes = receivedEarly.get(i);
      if (bytes !== undefined) {
        receivedEarly.delete(i);
        // Its examination is over or under way: the next goes now, nothing waits for it.
        void sendNext(i, bytes);
      }
      return pending;
    },
    signingIn() {
      const stop = stopWaiting;
      stopWaiting = undefined;
      stop?.();
    },
    idle() {
      if (onTheNetwork === undefined) return Promise.resolve();
      return new Promise((resolve) => {
        waitingForIdle.push(resolve);
      });
    },
  };
}

/** One Immediate, queued now: it runs after those queued before it (the HTTP client's write among them). */
function afterOneTurn(): Promise<void> {
  return new Promise((resolve) => {
    setImmediate(resolve);
  });
}
