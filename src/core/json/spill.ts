// Where a response body that is not held in memory goes while it is examined: a file of its own in the
// OS temp folder (a folder made for it, mode 0700; the file 0600), removed once examined, and at the
// latest when the process exits. A body may hold secrets: it is never written anywhere else, and never
// kept after its examination.
import { rmSync } from 'node:fs';
import { mkdtemp, open, rm, type FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onceOnEndingSignal } from '../endingSignals';

export interface Spill {
  readonly path: string;
  /** Appends bytes; resolves once they are handed to the operating system. */
  write(chunk: Buffer): Promise<void>;
  /** Reads the spilled bytes back in order, chunk by chunk (awaiting what `each` returns); each chunk is `each`'s own. */
  readBack(each: (chunk: Buffer) => void | Promise<void>): Promise<void>;
  /** Removes the file and its folder (also on the process's exit, when not done before). */
  remove(): Promise<void>;
}

const live = new Set<string>();
let exitHook = false;

function removeAllNow(): void {
  for (const dir of live) rmSync(dir, { recursive: true, force: true });
  live.clear();
}

export async function openSpill(): Promise<Spill> {
  const dir = await mkdtemp(join(tmpdir(), 'apiwb-body-'));
  live.add(dir);
  if (!exitHook) {
    exitHook = true;
    process.once('exit', removeAllNow);
    // Killed by a signal, the process emits no 'exit': removed first, then the signal does what it did.
    onceOnEndingSignal((signal) => {
      removeAllNow();
      if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
    });
  }
  const path = join(dir, 'body');
  let handle: FileHandle | undefined;
  try {
    handle = await open(path, 'wx', 0o600);
  } catch (error) {
    live.delete(dir);
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  let writing: FileHandle | undefined = handle;
  return {
    path,
    async write(chunk) {
      if (!writing) throw new Error('the spill file is closed');
      await writing.write(chunk);
    },
    async readBack(each) {
      const closing = writing;
      writing = undefined;
      await closing?.close();
      const reader = await open(path, 'r');
      try {
        for (;;) {
          const buffer = Buffer.allocUnsafe(1 << 20);
          const { bytesRead } = await reader.read(buffer, 0, buffer.length, null);
          if (bytesRead === 0) break;
          await each(buffer.subarray(0, bytesRead));
        }
      } finally {
        await reader.close();
      }
    },
    async remove() {
      const closing = writing;
      writing = undefined;
      await closing?.close().catch(() => undefined);
      live.delete(dir);
      await rm(dir, { recursive: true, force: true });
    },
  };
}
