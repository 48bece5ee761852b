// Subcommand bundles load through V8's code cache (as v8-compile-cache does; node 20 has no
// module.enableCompileCache). A bundle is compiled from its source as require() would compile it, with
// the cached data of an earlier run when there is one; after a run without usable cached data, the code
// compiled by then (the functions that ran, not only the top level) is written for the next run.
//
// The cache is only ever a shortcut. A missing, unreadable, corrupt or rejected entry, or a cache folder
// that cannot be written, loads the bundle normally and says nothing. An entry is named by the bundle's
// content hash, node's and V8's versions, the architecture and the V8 flags, so another build or node never
// reads it; its bytes carry their own hash (V8 does not verify its payload in release builds), so a torn
// or damaged file is never handed to V8. It holds compiled code only: no value the run handled.
import { isAscii } from 'node:buffer';
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire, Module } from 'node:module';
import { homedir } from 'node:os';
import { basename, dirname, join, posix, win32 } from 'node:path';
import { Script } from 'node:vm';

/** 'warm': cached code used; 'cold': none stored yet; 'rejected': an entry was there but unusable; 'off': no cache folder. */
export type CodeCacheState = 'warm' | 'cold' | 'rejected' | 'off';

export interface LoadedBundle {
  readonly exports: unknown;
  readonly state: CodeCacheState;
  /** The entry this bundle reads and writes; undefined when the cache is off. */
  readonly entry: string | undefined;
  /** Writes the code compiled so far as the bundle's entry; false when it could not (never throws). */
  save(): boolean;
}

const HASH_BYTES = 32;
const sha256 = (data: string | Buffer): Buffer => createHash('sha256').update(data).digest();

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

/** The entry's file name: the bundle's name, then a hash of its bytes and of what V8's code depends on. */
export function entryName(file: string, source: Buffer, env: Readonly<Record<string, string | undefined>> = process.env): string {
  const runtime = [process.version, process.versions.v8, process.arch, process.execArgv.join(' '), env.NODE_OPTIONS ?? ''].join('\n');
  const key = createHash('sha256').update(sha256(source)).update(runtime).digest('hex').slice(0, 40);
  return `${basename(file)}.${key}.v8cache`;
}

/** The cached data of an entry whose bytes match their hash; undefined otherwise. */
function readEntry(path: string): { data: Buffer | undefined; found: boolean } {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch {
    return { data: undefined, found: false };
  }
  const data = bytes.subarray(HASH_BYTES);
  return { data: bytes.length > HASH_BYTES && sha256(data).equals(bytes.subarray(0, HASH_BYTES)) ? data : undefined, found: true };
}

/**
 * Loads a CommonJS bundle as require() would (its own module, exports, require relative to it), using
 * and keeping its code cache in `dir`. The caller decides when `save()` runs (after the work: the code
 * then includes every function that ran).
 */
export function loadBundle(file: string, dir: string | undefined): LoadedBundle {
  const bytes = readFileSync(file);
  const entry = dir === undefined ? undefined : join(dir, entryName(file, bytes));
  const stored = entry === undefined ? { data: undefined, found: false } : readEntry(entry);
  const script = new Script(Module.wrap(sourceText(bytes)), { filename: file, ...(stored.data ? { cachedData: stored.data } : {}) });
  const state: CodeCacheState = entry === undefined ? 'off'
    : stored.data && script.cachedDataRejected !== true ? 'warm'
      : stored.found ? 'rejected' : 'cold';
  const module = new Module(file);
  module.filename = file;
  const compiled = script.runInThisContext() as (exports: unknown, require: NodeJS.Require, module: Module, filename: string, dirname: string) => void;
  compiled.call(module.exports, module.exports, createRequire(file), module, file, dirname(file));
  module.loaded = true;
  return {
    exports: module.exports,
    state,
    entry,
    save: () => (entry === undefined ? false : writeEntry(entry, script)),
  };
}

/**
 * A bundle's text as require() reads it (UTF-8). An all-ASCII file (the CLI bundles are built so) is the
 * same string read as Latin-1, which skips UTF-8 decoding and gives V8 a one-byte string.
 */
export function sourceText(bytes: Buffer): string {
  return isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
}

function writeEntry(entry: string, script: Script): boolean {
  const temporary = `${entry}.${process.pid}.tmp`;
  try {
    const data = script.createCachedData();
    mkdirSync(dirname(entry), { recursive: true });
    writeFileSync(temporary, Buffer.concat([sha256(data), data]), { mode: 0o600 });
    renameSync(temporary, entry);
    removeOldEntries(entry);
    return true;
  } catch {
    try {
      rmSync(temporary, { force: true });
    } catch {
      // an unwritable folder: nothing was left there either
    }
    return false;
  }
}

/** Entries kept per bundle name: two builds used in turn (a global and a project's apiwb) both stay warm. */
const ENTRIES_KEPT = 3;

/** A temporary file this old was left by a process killed while it wrote (a write takes milliseconds). */
const STALE_TEMPORARY_MS = 10 * 60_000;

/**
 * Entries of the same bundle name for other builds or nodes, beyond the newest few, and temporary files
 * of writes that never finished: each would otherwise stay for good.
 */
function removeOldEntries(entry: string): void {
  const dir = dirname(entry);
  const prefix = `${basename(entry).split('.').slice(0, -2).join('.')}.`;
  const files = readdirSync(dir)
    .filter((name) => name !== basename(entry) && name.startsWith(prefix))
    .map((name) => ({ name, path: join(dir, name), written: statSync(join(dir, name), { throwIfNoEntry: false })?.mtimeMs ?? 0 }));
  const others = files.filter((file) => file.name.endsWith('.v8cache')).sort((a, b) => b.written - a.written);
  for (const old of others.slice(ENTRIES_KEPT - 1)) rmSync(old.path, { force: true });
  const now = Date.now();
  for (const file of files) if (file.name.endsWith('.tmp') && now - file.written > STALE_TEMPORARY_MS) rmSync(file.path, { force: true });
}

/**
 * The dispatcher's way to load a subcommand bundle beside it: cached code when there is some, and at
 * exit, when there was none, the code of this run for the next.
 * @public the dispatcher's bundle calls it from the require() scripts/cliBundles.mjs writes into it
 */
export function loadSubcommandBundle(file: string): unknown {
  const loaded = loadBundle(file, codeCacheDir());
  if (loaded.state === 'cold' || loaded.state === 'rejected') process.once('exit', () => void loaded.save());
  return loaded.exports;
}
