// The Node adapter of HistoryFiles: a directory created on first write. Names are checked to be plain
// file names (the index names the body files, and the index is read from disk: it must not reach out).
// History is read back by the product itself, so it is untrusted input: its files are written and read
// only as the product's own (src/core/files/ownFile.ts: an exclusive temporary file renamed into place,
// never through a link; read only when a regular file of this user's that no one else may write). One
// that is not is discarded with a message (`discarded`), never read; its content is then validated by the store.
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { readOwnFile, writeOwnFile } from '../files/ownFile';
import type { HistoryFiles } from './store';

/** A history file larger than this was not written by the store (its index and bodies are bounded far below). */
const HISTORY_FILE_MAX_BYTES = 256 * 1024 * 1024;

const PLAIN_NAME = /^[A-Za-z0-9._-]+$/;

export function directoryHistoryFiles(dir: string, discarded: (message: string) => void = () => undefined): HistoryFiles {
  const path = (name: string): string => {
    if (!PLAIN_NAME.test(name) || name.startsWith('.')) throw new Error(`not a history file name: ${name}`);
    return join(dir, name);
  };
  return {
    read(name) {
      const read = readOwnFile(path(name), HISTORY_FILE_MAX_BYTES);
      if (read.ok) return Promise.resolve(read.bytes.toString('utf8'));
      if (!read.missing) discarded(`history file ${name} not read: ${read.reason}`);
      return Promise.resolve(undefined);
    },
    async write(name, text) {
      await mkdir(dir, { recursive: true, mode: 0o700 });
      writeOwnFile(path(name), text);
    },
    async remove(name) {
      await rm(path(name), { force: true });
    },
    async size(name) {
      try {
        return (await stat(path(name))).size;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw error;
      }
    },
    async list() {
      try {
        return (await readdir(dir)).filter((n) => PLAIN_NAME.test(n) && !n.endsWith('.tmp'));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
        throw error;
      }
    },
  };
}
