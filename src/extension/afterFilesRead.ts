// The one gate between the lazily loaded workbench and what acts on the environment or the catalog. The
// workbench reads the env file and the catalog overlays as it loads (`filesRead`); a command run before
// then (a Send from the palette right after an .http file opened) would see no environment: its request
// went out without the environment's variables and auth, and its Next page was refused once the env file
// was read ("paged in environment '(no environment)'"). Commands and the Environments view go through it;
// the Services view's first rows need neither file and do not wait.
// The env file is searched for in the workspace: in a large one that can take seconds, and a command
// waiting on it would look ignored. So a wait longer than SLOW_READ_MS is shown (`whileSlow`) until the
// files are read, once per workbench.

/** What the gate needs of the workbench: the promise that settles once its files are read (never rejects). */
export interface ReadsFiles {
  readonly filesRead: Promise<void>;
}

/** How long a command may wait for the workbench's files before the wait is shown. */
export const SLOW_READ_MS = 400;

/**
 * `workbench`, resolving only once the workbench's files are read. `whileSlow` is told, once per
 * workbench, when a call has waited SLOW_READ_MS and the files are still being read; it gets the promise
 * that settles when they are (a progress indicator ends with it).
 */
export function afterFilesRead<W extends ReadsFiles>(workbench: () => Promise<W>, whileSlow?: (read: Promise<void>) => void): () => Promise<W> {
  const read = new WeakSet<W>();
  const shown = new WeakSet<W>();
  return () => workbench().then((w) => {
    if (read.has(w)) return w;
    const done = w.filesRead.then(() => {
      read.add(w);
      return w;
    });
    if (whileSlow && !shown.has(w)) {
      const timer = setTimeout(() => {
        if (read.has(w) || shown.has(w)) return;
        shown.add(w);
        whileSlow(w.filesRead);
      }, SLOW_READ_MS);
      void done.then(() => clearTimeout(timer));
    }
    return done;
  });
}
