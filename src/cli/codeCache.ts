// Where `apiwb` keeps the code cache of its subcommand bundles (the per-user cache folder; its entries are
// signed with this user's key, ./userKeyFile.ts), and the dispatcher's load of a subcommand bundle through it. How an
// entry is made, signed, trusted and used is the one rule of src/core/files/codeCache.ts.
import { homedir } from 'node:os';
import { join, posix, win32 } from 'node:path';
import { loadBundle } from '../core/files/codeCache';
import { userKeyFile } from './userKeyFile';

/**
 * Where apiwb keeps its code cache: XDG_CACHE_HOME when it is set to an absolute folder (on any platform),
 * else the platform's per-user cache folder; undefined when there is none (or it is not absolute) or
 * NODE_DISABLE_COMPILE_CACHE is set (node's own switch for its compile cache).
 */
export function codeCacheDir(env: Readonly<Record<string, string | undefined>> = process.env, platform: string = process.platform, home: () => string = homedir): string | undefined {
  if (env.NODE_DISABLE_COMPILE_CACHE) return undefined;
  // Only an absolute folder (the XDG spec ignores a relative one): a relative one would be the working
  // folder's, and code read from a project's files would run as apiwb's.
  const absolute = (path: string | undefined): path is string => !!path && (platform === 'win32' ? win32 : posix).isAbsolute(path);
  try {
    if (absolute(env.XDG_CACHE_HOME)) return join(env.XDG_CACHE_HOME, 'apiwb', 'code');
    if (platform === 'win32') return absolute(env.LOCALAPPDATA) ? join(env.LOCALAPPDATA, 'apiwb', 'Cache', 'code') : undefined;
    const userHome = home();
    if (!absolute(userHome)) return undefined;
    if (platform === 'darwin') return join(userHome, 'Library', 'Caches', 'apiwb', 'code');
    return join(userHome, '.cache', 'apiwb', 'code');
  } catch {
    return undefined; // no home folder
  }
}

/**
 * The dispatcher's way to load a subcommand bundle beside it: cached code when there is some, and at
 * exit, when there was none, the code of this run for the next.
 * @public the dispatcher's bundle calls it from the require() scripts/cliBundles.mjs writes into it
 */
export function loadSubcommandBundle(file: string): unknown {
  const loaded = loadBundle(file, codeCacheDir(), userKeyFile());
  if (loaded.state === 'cold' || loaded.state === 'rejected') process.once('exit', () => void loaded.save());
  return loaded.exports;
}
