// File-system side of `apiwb run`: which .http files to run and which env file to read.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { ENV_FILE_NAME } from '../../core/env/loadEnvFile';

export class InputError extends Error {
  /** `where`: the file (as shown) and one-based line the fault is in, when it is in one (reports name it). */
  constructor(message: string, readonly where?: { readonly file: string; readonly line: number }) {
    super(message);
    this.name = 'InputError';
  }
}

/** A path as a run's messages show it: relative to the current folder when under it. */
export function shownPath(path: string): string {
  const rel = relative(process.cwd(), path);
  return rel.startsWith('..') ? path : rel;
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

/**
 * THE env file of a run of `files`: --env-file for all of them, else the nearest http-client.env.json
 * above each file, which must be the same one for every file. One run holds one environment (its
 * credentials, APIWB_SECRET_* values and network), so files whose nearest env files differ (two
 * folders each with its own, or a file with none above it) are refused, naming both env files, before
 * anything is sent: a request never goes out with another folder's environment of the same name.
 */
export function findEnvFile(explicit: string | undefined, files: readonly string[]): string {
  if (explicit) {
    if (!existsSync(explicit)) throw new InputError(`${explicit}: no such env file`);
    return resolve(explicit);
  }
  if (files.length === 0) return nearestEnvFile(process.cwd()) ?? noEnvFile('the current folder');
  const byFolder = new Map<string, string | undefined>();
  const nearestOf = (file: string): string | undefined => {
    const folder = dirname(resolve(file));
    if (!byFolder.has(folder)) byFolder.set(folder, nearestEnvFile(folder));
    return byFolder.get(folder);
  };
  const first = files[0]!;
  const envFile = nearestOf(first);
  for (const file of files) {
    const own = nearestOf(file);
    if (own === envFile) continue;
    const [withOne, other, otherFile] = envFile === undefined ? [file, own!, first] : [first, envFile, file];
    const otherSide = own === undefined || envFile === undefined ? `${shownPath(otherFile)} has none above it` : `${shownPath(file)} has ${shownPath(own)}`;
    throw new InputError(`the files of this run do not share one ${ENV_FILE_NAME}: ${shownPath(withOne)} has ${shownPath(other)}, but ${otherSide}; a run holds one environment, so run each folder on its own or give the one to use with --env-file PATH. Nothing was sent`);
  }
  return envFile ?? noEnvFile(first);
}

/** The nearest http-client.env.json in `folder` or above it. */
function nearestEnvFile(start: string): string | undefined {
  let folder = start;
  for (;;) {
    const candidate = join(folder, ENV_FILE_NAME);
    if (existsSync(candidate)) return candidate;
    const parent = dirname(folder);
    if (parent === folder) return undefined;
    folder = parent;
  }
}

function noEnvFile(where: string): never {
  throw new InputError(`no ${ENV_FILE_NAME} found next to ${where} or above it: pass --env-file PATH`);
}
