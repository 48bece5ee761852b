// THE signals that end a run before its end, and so the ones every cleanup and last word listens for:
// Ctrl-C (SIGINT), a kill (SIGTERM), the terminal closed or an ssh session dropped (SIGHUP), Ctrl-\
// (SIGQUIT). A process ended by a signal emits no 'exit', so what must happen before it ends (a spilled
// body removed, the lines for a pipe flushed, where an old file waits said) listens for each of these.
// A name the platform lacks (SIGQUIT on Windows) is then a plain event that never comes.

export const ENDING_SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT'];

/** `handler` once on the first of each ending signal; the function returned stops listening. */
export function onceOnEndingSignal(handler: (signal: NodeJS.Signals) => void): () => void {
  for (const signal of ENDING_SIGNALS) process.once(signal, handler);
  return () => {
    for (const signal of ENDING_SIGNALS) process.off(signal, handler);
  };
}
