// What waits while a file opens. The folding ranges, outline and lenses an editor asks as a file opens
// need the whole file; answered between validation's slices, they held its diagnostics back. They are
// not needed to publish, so they wait for the end of the open's first validation pass (published whole,
// made stale by a change, or failed), or for the first change or the close, whichever comes first. The
// look-up of the file's env file (a few file-system calls) waits for the file's first publication (its
// first part). Completion and hover never wait here.
interface Gate { readonly done: Promise<void>; readonly release: () => void }

function gate(): Gate {
  let release = (): void => undefined;
  const done = new Promise<void>((resolve) => { release = resolve; });
  return { done, release };
}

export class OpeningGates {
  /** Open documents whose first pass has not ended. */
  private readonly passes = new Map<string, Gate>();
  /** Open documents whose first publication has not been handed to the transport. */
  private readonly firstPublications = new Map<string, Gate>();

  /** `uri` opened: what waits for its first pass or publication waits from now on. */
  opened(uri: string): void {
    this.passDone(uri);
    this.passes.set(uri, gate());
    this.firstPublications.set(uri, gate());
  }

  /** `uri`'s first publication (a part or the whole) has been handed to the transport. */
  published(uri: string): void {
    this.firstPublications.get(uri)?.release();
    this.firstPublications.delete(uri);
  }

  /** `uri`'s first pass has ended (published whole, stale, failed), or it changed or closed. */
  passDone(uri: string): void {
    this.published(uri);
    this.passes.get(uri)?.release();
    this.passes.delete(uri);
  }

  /** `answer` now, or once `uri`'s first pass has ended. */
  afterPass<R>(uri: string, answer: () => R): R | Promise<R> {
    const pass = this.passes.get(uri);
    return pass ? pass.done.then(answer) : answer();
  }

  /** Settles once `uri`'s first publication is out (at once when it is, or when `uri` is not opening). */
  firstPublication(uri: string): Promise<void> {
    return this.firstPublications.get(uri)?.done ?? Promise.resolve();
  }

  /** Whether `uri`'s first pass is still the one `than` was taken from (see `pass`). */
  isPass(uri: string, than: unknown): boolean {
    return this.passes.get(uri) === than;
  }

  /** A token of `uri`'s first pass now (undefined when none runs). */
  pass(uri: string): unknown {
    return this.passes.get(uri);
  }
}
