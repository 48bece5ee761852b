// The one gate between the lazily loaded workbench and what acts on the environment or the catalog. The
// workbench reads the env file and the catalog overlays as it loads (`filesRead`); a command run before
// then (a Send from the palette right after an .http file opened) would see no environment: its request
// went out without the environment's variables and auth, and its Next page was refused once the env file
// was read ("paged in environment '(no environment)'"). Commands and the Environments view go through it;
// the Services view's first rows need neither file and do not wait.

/** What the gate needs of the workbench: the promise that settles once its files are read (never rejects). */
export interface ReadsFiles {
  readonly filesRead: Promise<void>;
}

/** `workbench`, resolving only once the workbench's files are read. */
export function afterFilesRead<W extends ReadsFiles>(workbench: () => Promise<W>): () => Promise<W> {
  return () => workbench().then((w) => w.filesRead.then(() => w));
}
