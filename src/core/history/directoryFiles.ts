// The Node adapter of HistoryFiles: a directory created on first write. Names are checked to be plain
// file names (the index names the body files, and the index is read from disk: it must not reach out).
import { mkdir, readFile, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { HistoryFiles } from './store';

const PLAIN_NAME = /^[A-Za-z0-9._-]+$/;

export function directoryHistoryFiles(dir: string): HistoryFiles {
  const path = (name: string): string => {
    if (!PLAIN_NAME.test(name) || name.startsWith('.')) throw new Error(`not a history file name: ${name}`);
    return join(dir, name);
  };
  return {
    async read(name) {
      try {
        return await readFile(path(name), 'utf8');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw error;
      }
    },
    async write(name, text) {
      await mkdir(dir, { recursive: true });
      const temporary = `${path(name)}.${process.pid}.tmp`;
      await writeFile(temporary, text, 'utf8');
      await rename(temporary, path(name));
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
