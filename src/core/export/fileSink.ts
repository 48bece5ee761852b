// The file half of the NDJSON and CSV sinks: positional writes that resume at a checkpoint's length.
import { constants } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { access, lstat, open, readdir, rename, unlink, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { fileFaultWords } from '../files/outputs';
import type { FileSinkOptions, SinkMark } from './sink';
import { onceOnEndingSignal } from '../endingSignals';

/**
 * A file written at positions from its kept length: appended bytes count once kept. A page held while it
 * arrives (hold) lies past the kept bytes until keep() counts it or drop() cuts it off; append and
 * appendBuffers are hold then keep.
 */
export class AppendOnlyFile {
  /** Bytes written past `length` and not kept yet. */
  private held = 0;
  /** Something was written (perhaps partly, by a failed write) since the last keep or drop. */
  private touched = false;
  /** The file, once opened: a new file is opened (an old one there moved aside) at its first write. */
  private handle: FileHandle | undefined;
  /** Where the file that was there before the first write waits, until close keeps it or lets it go. */
  private aside: string | undefined;
  /** After close: the path holds what it held before (nothing kept: the new file gone, the old one back). */
  leftAsItWas = false;

  private constructor(private readonly path: string, handle: FileHandle | undefined, private length: number, private readonly options: FileSinkOptions) {
    this.handle = handle;
  }

  static async open(path: string, options: FileSinkOptions): Promise<AppendOnlyFile> {
    if (options.resume) {
      const handle = await worded(path, () => open(path, constants.O_RDWR | NOFOLLOW));
      const { size } = await handle.stat();
      if (size < options.resume.bytes) {
        await handle.close();
        throw new Error(`${path} holds ${size} bytes but the checkpoint says ${options.resume.bytes} were written: it is not the file of this walk`);
      }
      // Anything past the checkpoint is a page that was not confirmed: drop it so it is not duplicated.
      await handle.truncate(options.resume.bytes);
      return new AppendOnlyFile(path, handle, options.resume.bytes, options);
    }
    // A new file replaces what is there only once there is something to write (or at a close that asks
    // for it): a run that fails before its first row (at sign-in) leaves yesterday's file as it was. What
    // would make that first write fail (a folder, a link, no permission) is said now, before anything is sent.
    await worded(path, () => access(dirname(path), constants.W_OK));
    const there = await lstat(path).catch(() => undefined);
    if (there?.isDirectory()) throw new Error(fileFaultWords(Object.assign(new Error(), { code: 'EISDIR' }), path));
    if (there?.isSymbolicLink()) throw new Error(fileFaultWords(Object.assign(new Error(), { code: 'ELOOP' }), path));
    if (there) await worded(path, () => access(path, constants.W_OK));
    return new AppendOnlyFile(path, undefined, 0, options);
  }

  /**
   * The file, opened at the first write: created, never through a link. An old file there is moved aside
   * (beside it, hidden) until close: a run that keeps no row puts it back, as one that wrote none leaves it.
   */
  private async opened(): Promise<FileHandle> {
    if (this.handle) return this.handle;
    const old = this.options.exclusive ? undefined : await lstat(this.path).catch(() => undefined);
    if (old?.isFile()) {
      const aside = await freeAsideName(this.path);
      await worded(this.path, () => rename(this.path, aside));
      this.aside = aside;
      this.sayAsideIfStopped(aside);
    }
    // The new file keeps the old one's permissions and, where the user may give it, its owner.
    const mode = old?.isFile() ? old.mode & 0o777 : 0o666;
    let handle: FileHandle;
    try {
      handle = await worded(this.path, () => open(this.path, constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | NOFOLLOW | (this.options.exclusive ? constants.O_EXCL : 0), mode));
    } catch (error) {
      // No new file: the old one goes back to its name at once.
      await this.putBack();
      throw error;
    }
    if (old?.isFile()) {
      await handle.chmod(mode).catch(() => undefined);
      await handle.chown(old.uid, old.gid).catch(() => undefined);
    }
    this.handle = handle;
    return handle;
  }

  /**
   * A run stopped by Ctrl-C or a kill while the old file waits aside: the rows written so far stay at the
   * path (a walk resumes from them), and where the old file is kept is said, so it is never lost unseen.
   */
  private sayAsideIfStopped(aside: string): void {
    // Said only through the caller's port (the CLI's stderr line); without one, the next run's
    // keptAsideNotes says where the copy is.
    const note = this.options.say;
    if (!note) return;
    const say = (signal: NodeJS.Signals): void => {
      this.forgetSignals();
      try {
        note(`stopped: the file that was at ${this.path} before this run is kept at ${aside}`);
      } catch {
        // stderr closed: nothing more can be said.
      }
      // The only listener: the signal ends the process as it would have without one.
      if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
    };
    const forget = onceOnEndingSignal(say);
    this.forgetSignals = () => {
      forget();
      this.forgetSignals = () => undefined;
    };
  }

  private forgetSignals: () => void = () => undefined;

  /** The bytes kept. */
  get bytes(): number {
    return this.length;
  }

  async append(text: string): Promise<void> {
    if (text === '') return;
    await this.appendBuffers([Buffer.from(text, 'utf8')]);
  }

  /** Appends buffers in order with writev (no concatenation of a large page) and keeps them. */
  async appendBuffers(buffers: readonly Buffer[]): Promise<void> {
    await this.hold(buffers);
    await this.keep();
  }

  /** Writes buffers after the bytes kept and held so far, without keeping them. */
  async hold(buffers: readonly Buffer[]): Promise<void> {
    let total = 0;
    for (const b of buffers) total += b.length;
    if (total === 0) return;
    const handle = await this.opened();
    this.touched = true;
    let position = this.length + this.held;
    // writev takes at most IOV_MAX buffers at once and may write fewer bytes than asked.
    for (let i = 0; i < buffers.length; i += 512) {
      let batch = buffers.slice(i, i + 512);
      let size = batch.reduce((n, b) => n + b.length, 0);
      while (size > 0) {
        const { bytesWritten } = await worded(this.path, () => handle.writev(batch, position));
        position += bytesWritten;
        size -= bytesWritten;
        if (size > 0) batch = skipBytes(batch, bytesWritten);
      }
    }
    this.held += total;
  }

  /** The bytes held count as written (flushed to disk first when durable). */
  async keep(): Promise<void> {
    if (this.held === 0) return;
    if (this.options.durable === true && this.handle) await worded(this.path, () => this.handle!.datasync());
    this.length += this.held;
    this.held = 0;
    this.touched = false;
  }

  /** The bytes held (and any a failed write left) are cut off: the file ends at the bytes kept. */
  async drop(): Promise<void> {
    if (!this.touched) return;
    this.held = 0;
    await this.handle?.truncate(this.length);
    this.touched = false;
  }

  /** Where the file ends now: cutting back to it removes what was written since, kept or held. */
  mark(): SinkMark {
    const at = this.length;
    return {
      cutBack: async () => {
        if (this.length <= at && !this.touched) return;
        this.held = 0;
        this.touched = false;
        this.length = Math.min(this.length, at);
        await worded(this.path, () => this.handle!.truncate(this.length));
      },
    };
  }

  /** The old file waiting aside back at the path (over whatever is there); said by leftAsItWas. */
  private async putBack(): Promise<void> {
    if (this.aside) {
      await worded(this.path, () => rename(this.aside!, this.path));
      this.aside = undefined;
      this.leftAsItWas = true;
    }
    this.forgetSignals();
  }

  /**
   * After the sink's own last write failed (a JSON array's closing bracket): the file is closed and, when an
   * old file waits aside, it is put back in place of the new one, which ends cut short.
   */
  async closeAfterFault(): Promise<void> {
    await this.handle?.close().catch(() => undefined);
    this.handle = undefined;
    await this.putBack();
  }

  async close(): Promise<void> {
    // Nothing kept (none written, or all of it cut off again): the file is made (empty) only when the
    // caller says the run's output is ready; else the path is left as it was before (the old file back).
    const replace = this.options.replaceUnwritten?.() !== false;
    if (!this.handle && replace) await this.opened();
    await this.handle?.close();
    if (this.length === 0 && !replace && !this.options.resume) {
      // The old file back (putBack), else the new one gone: the path as it was.
      if (this.aside) await this.putBack();
      else if (this.handle) await worded(this.path, () => unlink(this.path));
      this.leftAsItWas = true;
    }
    if (this.aside) await worded(this.aside, () => unlink(this.aside!));
    this.aside = undefined;
    this.forgetSignals();
  }
}

/** The hidden names beside `path` an old file waits under while a run writes a new one: this, then 8 hex digits. */
function asidePrefix(path: string): string {
  return `.${basename(path)}.apiwb-before-`;
}

/** A hidden name beside `path` that no file has yet (the old file waits there until close). */
async function freeAsideName(path: string): Promise<string> {
  for (let tries = 0; tries < 8; tries++) {
    const aside = join(dirname(path), `${asidePrefix(path)}${randomUUID().slice(0, 8)}`);
    const there = await lstat(aside).catch((error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? undefined : error));
    if (there === undefined) return aside;
  }
  throw new Error(`${path}: no free name beside it to keep the file that is there while this run writes a new one`);
}

/**
 * What a run about to write `path` says of old files still waiting beside it: an earlier run moved each
 * aside and was stopped before it could put it back or let it go (a kill that no handler sees, a power
 * cut). Each may be the only copy of what was at `path`: it is never removed, only said, one a line.
 */
export async function keptAsideNotes(path: string): Promise<string[]> {
  const prefix = asidePrefix(path);
  const names = await readdir(dirname(path)).catch(() => [] as string[]);
  return names
    .filter((name) => name.startsWith(prefix) && /^[0-9a-f]{8}$/.test(name.slice(prefix.length)))
    .sort()
    .map((name) => `an earlier run writing ${path} was stopped before it ended: the file that was there before it is kept at ${join(dirname(path), name)}, and is left there (move it back, or delete it once it is not needed)`);
}

/** 0 where the platform has no such flag (Windows). */
const NOFOLLOW = constants.O_NOFOLLOW ?? 0;

/** `work`, its file system error said in words (fileFaultWords) with the file's path. */
async function worded<T>(path: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw (error as NodeJS.ErrnoException).code ? new Error(fileFaultWords(error, path)) : error;
  }
}

function skipBytes(buffers: readonly Buffer[], count: number): Buffer[] {
  const rest: Buffer[] = [];
  let skip = count;
  for (const b of buffers) {
    if (skip >= b.length) skip -= b.length;
    else {
      rest.push(skip > 0 ? b.subarray(skip) : b);
      skip = 0;
    }
  }
  return rest;
}
