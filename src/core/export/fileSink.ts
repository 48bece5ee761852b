// The file half of the NDJSON and CSV sinks: positional writes that resume at a checkpoint's length.
import { constants } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import type { FileSinkOptions } from './sink';

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
  /** The old content being cut off a file that existed (every write and close waits for it). */
  private emptying: Promise<void> | undefined;

  private constructor(private readonly handle: FileHandle, private length: number, private readonly durable: boolean) {}

  static async open(path: string, options: FileSinkOptions): Promise<AppendOnlyFile> {
    if (options.resume) {
      const handle = await open(path, 'r+');
      const { size } = await handle.stat();
      if (size < options.resume.bytes) {
        await handle.close();
        throw new Error(`${path} holds ${size} bytes but the checkpoint says ${options.resume.bytes} were written: it is not the file of this walk`);
      }
      // Anything past the checkpoint is a page that was not confirmed: drop it so it is not duplicated.
      await handle.truncate(options.resume.bytes);
      return new AppendOnlyFile(handle, options.resume.bytes, options.durable === true);
    }
    // A new file starts empty, but emptying a large old one takes the kernel a while (about 40 ms for
    // 170 MB): it is opened as it is and cut to nothing meanwhile (the walk signs in and sends its first
    // request); every write and the close wait for the cut, and a failed cut fails them.
    const handle = await open(path, constants.O_WRONLY | constants.O_CREAT, 0o666);
    const file = new AppendOnlyFile(handle, 0, options.durable === true);
    try {
      if ((await handle.stat()).size > 0) {
        file.emptying = handle.truncate(0);
        file.emptying.catch(() => undefined);
      }
    } catch (error) {
      await handle.close();
      throw error;
    }
    return file;
  }

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
    await this.emptying;
    this.touched = true;
    let position = this.length + this.held;
    // writev takes at most IOV_MAX buffers at once and may write fewer bytes than asked.
    for (let i = 0; i < buffers.length; i += 512) {
      let batch = buffers.slice(i, i + 512);
      let size = batch.reduce((n, b) => n + b.length, 0);
      while (size > 0) {
        const { bytesWritten } = await this.handle.writev(batch, position);
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
    if (this.durable) await this.handle.datasync();
    this.length += this.held;
    this.held = 0;
    this.touched = false;
  }

  /** The bytes held (and any a failed write left) are cut off: the file ends at the bytes kept. */
  async drop(): Promise<void> {
    if (!this.touched) return;
    this.held = 0;
    await this.handle.truncate(this.length);
    this.touched = false;
  }

  async close(): Promise<void> {
    try {
      await this.emptying;
    } finally {
      await this.handle.close();
    }
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
