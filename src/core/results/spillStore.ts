// Bytes of a response the panel shows later (its raw body, its rows as NDJSON), held in memory up to
// `spillAt` and past it moved to a spill file (src/core/json/spill.ts: 0600 in a 0700 folder of the OS
// temp folder, removed by remove() and at the latest when the process exits). So the extension host holds
// at most `spillAt` bytes of a response whatever its size; the panel reads it back by byte range.
import { open, type FileHandle } from 'node:fs/promises';
import { openSpill, type Spill } from '../json/spill';

/**
 * Past this many bytes a response's part goes to disk. Below it the table and the raw view are held whole,
 * and sortable: a 100 000-row page (about 15 MB) still is.
 */
export const SPILL_AT = 16 << 20;

export class SpillStore {
  private held: Buffer[] = [];
  private spill: Spill | undefined;
  private file: FileHandle | undefined;
  private bytes = 0;
  private removed = false;
  /** Writes, truncations and reads in the order asked (a read never sees half a write). */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly spillAt = SPILL_AT) {}

  get size(): number {
    return this.bytes;
  }

  get spilled(): boolean {
    return this.file !== undefined;
  }

  /** Appends a copy of `chunk` (the caller may reuse its buffer once this resolves). */
  write(chunk: Buffer): Promise<void> {
    return this.inTurn(async () => {
      if (this.removed) throw new Error('the response kept for the panel was already removed');
      if (!this.file && this.bytes + chunk.length <= this.spillAt) {
        this.held.push(Buffer.from(chunk));
        this.bytes += chunk.length;
        return;
      }
      if (!this.file) await this.moveToDisk();
      await this.file!.write(chunk, 0, chunk.length, this.bytes);
      this.bytes += chunk.length;
    });
  }

  /** Cuts the bytes back to `size` (a page the walk refused). */
  truncate(size: number): Promise<void> {
    return this.inTurn(async () => {
      if (size >= this.bytes) return;
      if (this.file) await this.file.truncate(size);
      else this.held = [Buffer.concat(this.held).subarray(0, size)];
      this.bytes = size;
    });
  }

  /** Bytes [start, end) (cut at the store's size; shorter when the file was cut by someone else); rejects in words once removed. */
  read(start: number, end: number): Promise<Buffer> {
    return this.inTurn(async () => {
      if (this.removed) throw new Error('the response kept for the panel was removed (the panel closed)');
      const to = Math.min(end, this.bytes);
      if (to <= start) return Buffer.alloc(0);
      if (!this.file) return Buffer.concat(this.held).subarray(start, to);
      const buffer = Buffer.allocUnsafe(to - start);
      let got = 0;
      while (got < buffer.length) {
        const { bytesRead } = await this.file.read(buffer, got, buffer.length - got, start + got);
        // Cut short by someone else: what is there; the reader says what is missing.
        if (bytesRead === 0) return buffer.subarray(0, got);
        got += bytesRead;
      }
      return buffer;
    });
  }

  /** Every byte, when they are held in memory (not spilled); undefined once they are on disk. */
  heldBytes(): Buffer | undefined {
    return this.file ? undefined : Buffer.concat(this.held);
  }

  /** Removes the file (and its folder) and drops what is held; later writes and reads fail. */
  remove(): Promise<void> {
    return this.inTurn(async () => {
      this.removed = true;
      this.held = [];
      const file = this.file;
      this.file = undefined;
      await file?.close().catch(() => undefined);
      await this.spill?.remove();
    });
  }

  private async moveToDisk(): Promise<void> {
    this.spill = await openSpill();
    // The spill keeps its own handle for appends; this one writes and reads at explicit positions.
    this.file = await open(this.spill.path, 'r+');
    const before = Buffer.concat(this.held);
    this.held = [];
    await this.file.write(before, 0, before.length, 0);
  }

  private inTurn<T>(work: () => Promise<T>): Promise<T> {
    const turn = this.queue.then(work);
    this.queue = turn.catch(() => undefined);
    return turn;
  }
}
