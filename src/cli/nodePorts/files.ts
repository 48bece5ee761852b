// File-system side of `apiwb run`: which .http files to run and which env file to read.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { ENV_FILE_NAME } from '../../core/env/loadEnvFile';

export class InputError extends Error {
  /** `where`: the file (as shown) and one-based line the fault is in, when it is in one (reports name it). */
  constructor(message: string, readonly where?: { readonly file: string; readonly line: number }) {
    super(message);
    this.name = 'InputError';
  }
}

const REQUEST_FILE = /\.(http|rest)$/i;

/** Files in the order given; a folder contributes its request files sorted by path, recursively. */
export function collectRequestFiles(paths: readonly string[]): string[] {
  const files: string[] = [];
  for (const path of paths) {
    if (!existsSync(path)) throw new InputError(`${path}: no such file or folder`);
    if (statSync(path).isDirectory()) {
      const found = walk(path).filter((file) => REQUEST_FILE.test(file)).sort();
      if (found.length === 0) throw new InputError(`${path}: no .http or .rest files in this folder`);
      files.push(...found);
    } else {
      files.push(path);
    }
  }
  return [...new Set(files.map((file) => resolve(file)))];
}

function walk(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name.startsWith('.') || entry.name === 'node_modules') return [];
    const path = join(folder, entry.name);
    return entry.isDirectory() ? walk(path) : [path];
  });
}

/** --env-file, else the nearest http-client.env.json from the first request file's folder upwards. */
export function findEnvFile(explicit: string | undefined, firstFile: string | undefined): string {
  if (explicit) {
    if (!existsSync(explicit)) throw new InputError(`${explicit}: no such env file`);
    return resolve(explicit);
  }
  let folder = firstFile ? dirname(resolve(firstFile)) : process.cwd();
  for (;;) {
    const candidate = join(folder, ENV_FILE_NAME);
    if (existsSync(candidate)) return candidate;
    const parent = dirname(folder);
    if (parent === folder) break;
    folder = parent;
  }
  throw new InputError(`no ${ENV_FILE_NAME} found next to ${firstFile ?? 'the current folder'} or above it: pass --env-file PATH`);
}
