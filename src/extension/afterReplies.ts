// When work that blocks the thread (loading the workbench bundle) may start without delaying an answer
// already given. The extension host sends its answers to the editor when its RPC writer flushes, on a
// setTimeout(0) it schedules as an answer is written (VS Code's ProtocolWriter). A timer set now could
// run before that flush (timers of the same delay run in the order set), and setImmediate surely would;
// a timer set from inside a timer runs after every timer already due, the flush among them.

/** Runs `fn` once the answers given in this turn of the event loop have been sent. */
export function afterRepliesSent(fn: () => void): void {
  setTimeout(() => setTimeout(fn, 0), 0);
}
