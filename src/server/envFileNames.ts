// The env file's variable names, read by the server itself, for clients that send none (Neovim, Emacs,
// any LSP client without API Workbench's extension; the extension sends the active environment's names
// with apiWorkbench/environmentChanged, which then wins). The files: http-client.env.json and
// http-client.private.env.json at each workspace folder (or rootUri), and the nearest folder holding one
// above each opened document (as `apiwb run` finds its env file). Names only (core/env/envFileNames.ts):
// no value, and a private file's values never, reach the service. Kept up to date by
// workspace/didChangeWatchedFiles when the client can register it, else read again as a document opens.
// A file that does not parse keeps the names it had (a file being edited is broken half the time).
import { readFile, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DidChangeWatchedFilesNotification, type Connection, type InitializeParams } from 'vscode-languageserver';
import { envFileVariableNames, mergeEnvFileVariables, type EnvFileVariable } from '../core/env/envFileNames';
import { ENV_FILE_NAME, MAX_ENV_FILE_LENGTH } from '../core/env/loadEnvFile';
import { PRIVATE_ENV_FILE_NAME } from '../core/env/privateEnv';
import { faultText } from '../core/text/faultText';

const FILE_NAMES = [ENV_FILE_NAME, PRIVATE_ENV_FILE_NAME];
/** Folders walked up from a document to find its env file. */
const MAX_LEVELS = 64;

function pathOf(uri: string): string | undefined {
  try {
    return uri.startsWith('file:') ? fileURLToPath(uri) : undefined;
  } catch {
    return undefined;
  }
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

export class EnvFileNames {
  /** Folders whose env files are read. */
  private readonly folders = new Set<string>();
  /** Each env file's names as last read well; a deleted file is dropped. */
  private readonly byFile = new Map<string, EnvFileVariable[]>();
  private watched = false;
  private reads: Promise<void> = Promise.resolve();
  /** Reads, and opens looking for an env file, not finished yet. */
  private readonly pending = new Set<Promise<void>>();

  constructor(private readonly publish: (variables: readonly EnvFileVariable[]) => void, private readonly log: (line: string) => void = () => undefined) {}

  initialize(params: InitializeParams): void {
    const folders = params.workspaceFolders?.map((f) => f.uri) ?? (params.rootUri ? [params.rootUri] : []);
    for (const uri of folders) {
      const path = pathOf(uri);
      if (path) this.folders.add(path);
    }
    this.watched = params.capabilities.workspace?.didChangeWatchedFiles?.dynamicRegistration === true;
  }

  /** After `initialized`: the first read, and the watch where the client offers it. */
  start(connection: Connection): Promise<void> {
    connection.onNotification(DidChangeWatchedFilesNotification.type, (params) => {
      for (const change of params.changes) {
        const path = pathOf(change.uri);
        if (path && FILE_NAMES.includes(basename(path))) this.folders.add(dirname(path));
      }
      void this.refresh();
    });
    if (this.watched) {
      void connection.client.register(DidChangeWatchedFilesNotification.type, {
        watchers: FILE_NAMES.map((name) => ({ globPattern: `**/${name}` })),
      }).catch(() => { this.watched = false; });
    }
    return this.refresh();
  }

  /** `answer` now when no read is under way, else once the reads under way have published. */
  afterReads<R>(answer: () => R): R | Promise<R> {
    return this.pending.size === 0 ? answer() : Promise.allSettled([...this.pending]).then(answer);
  }

  private track(work: Promise<void>): Promise<void> {
    this.pending.add(work);
    const done = (): void => { this.pending.delete(work); };
    work.then(done, done);
    return work;
  }

  /**
   * A document opened: its nearest env file folder is read (again, when nothing watches the files), once
   * `after` settles (the server: once the document's first diagnostics are out). Completions wait for it
   * from now on, as for any read under way.
   */
  opened(uri: string, after: Promise<unknown> = Promise.resolve()): Promise<void> {
    const lookUp = (): Promise<void> => this.openedUnread(uri);
    return this.track(after.then(lookUp, lookUp));
  }

  private async openedUnread(uri: string): Promise<void> {
    const path = pathOf(uri);
    if (!path) return;
    let folder = dirname(path);
    for (let level = 0; level < MAX_LEVELS; level++) {
      if (this.folders.has(folder)) break;
      if ((await isFile(join(folder, ENV_FILE_NAME))) || (await isFile(join(folder, PRIVATE_ENV_FILE_NAME)))) {
        this.folders.add(folder);
        return this.refresh();
      }
      const parent = dirname(folder);
      if (parent === folder) break;
      folder = parent;
    }
    if (!this.watched) return this.refresh();
  }

  /** Reads every env file of the folders known, one read after another (an older read never wins). */
  refresh(): Promise<void> {
    this.reads = this.reads.then(() => this.readAll(), () => this.readAll());
    return this.track(this.reads);
  }

  private async readAll(): Promise<void> {
    for (const folder of this.folders) {
      for (const name of FILE_NAMES) {
        const file = join(folder, name);
        let text: string;
        try {
          if ((await stat(file)).size > MAX_ENV_FILE_LENGTH) continue;
          text = await readFile(file, 'utf8');
        } catch {
          this.byFile.delete(file);
          continue;
        }
        try {
          this.byFile.set(file, envFileVariableNames(text, file, name === PRIVATE_ENV_FILE_NAME));
        } catch (error) {
          this.log(`${faultText(error)} (the names read before are kept)`);
        }
      }
    }
    this.publish(mergeEnvFileVariables(this.byFile.values()));
  }
}
