// A bundle loaded through V8's code cache (as v8-compile-cache does; node 20 has no
// module.enableCompileCache): the CLI's subcommand bundles (src/cli/codeCache.ts says where their cache
// lives) and the extension's workbench bundle (src/extension/workbenchBundle.ts) load by this one rule. A bundle is compiled from its source as require() would compile it, with
// the cached data of an earlier run when there is one; after a run without usable cached data, the code
// compiled by then (the functions that ran, not only the top level) is written for the next run.
//
// The cache is only ever a shortcut. A missing, unreadable, corrupt or rejected entry, or a cache folder
// that cannot be written, loads the bundle normally and says nothing. An entry is named by the bundle's
// content hash, node's and V8's versions, the architecture and the V8 flags, so another build or node never
// reads it; its bytes carry their own hash (V8 does not verify its payload in release builds), so a torn
// or damaged file is never handed to V8. It holds compiled code only: no value the run handled.
//
// The cache is also read back by the product itself, so it is untrusted input (src/core/files/ownFile.ts): V8
// checks only that cached code was compiled from a text of the same LENGTH, so an entry planted in a shared
// or restored cache folder would run as apiwb. An entry is therefore used only from a folder (and parent)
// of this user's, not a link, no one else may write, read without following a link, this user's and
// writable by no one else; and its bytes are signed with a key of this user's kept OUTSIDE the cache
// folder (the config folder; ./userKey.ts), over the bundle's own content digest, the runtime and the code: an entry
// compiled from another text, or written with another key, is never handed to V8. Otherwise the bundle
// runs uncached.
import { isAscii } from 'node:buffer';
import { createHash } from 'node:crypto';
import { lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createRequire, Module } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { Script } from 'node:vm';
import { ownershipRefusal, readOwnFile, writeOwnFile } from './ownFile';
import { signFor, userKey, verifiedFor } from './userKey';

/**
 * 'warm': cached code used; 'cold': none stored yet; 'rejected': an entry was there but unusable (damaged,
 * not signed with this user's key, refused by V8); 'untrusted': the folder or its key is not this user's
 * alone (a link, another owner, writable by others): the bundle runs uncached and nothing is written;
 * 'off': no cache folder.
 */
export type CodeCacheState = 'warm' | 'cold' | 'rejected' | 'untrusted' | 'off';

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
/** An entry's signature: this user's key (./userKey.ts) over the bundle's content digest, the runtime and the code. */
const signature = (key: Buffer, sourceDigest: Buffer, data: Buffer): Buffer => signFor(key, 'apiwb code cache v1', sourceDigest, runtimeText(), data);

function runtimeText(env: Readonly<Record<string, string | undefined>> = process.env): string {
  return [process.version, process.versions.v8, process.arch, process.execArgv.join(' '), env.NODE_OPTIONS ?? ''].join('\n');
}

/** The cache folder may be used: it and its parent are this user's folders (not links) that no one else may write; or it is not there yet. */
function folderTrusted(dir: string): boolean {
  for (const folder of [dirname(dir), dir]) {
    let stat;
    try {
      stat = lstatSync(folder);
    } catch {
      return true; // made at the first save, by this user, 0700
    }
    if (ownershipRefusal(stat, 'folder')) return false;
  }
  return true;
}

/** The entry's file name: the bundle's name, then a hash of its bytes and of what V8's code depends on. */
export function entryName(file: string, source: Buffer, env: Readonly<Record<string, string | undefined>> = process.env): string {
  const key = createHash('sha256').update(sha256(source)).update(runtimeText(env)).digest('hex').slice(0, 40);
  return `${basename(file)}.${key}.v8cache`;
}

/** Larger than any entry apiwb writes (its bundles' code is a few MB at most). */
const ENTRY_MAX_BYTES = 256 * 1024 * 1024;

/** The cached data of an entry that is this user's own and signed with its key over this bundle's digest; undefined otherwise. */
function readEntry(path: string, key: Buffer, sourceDigest: Buffer): { data: Buffer | undefined; found: boolean } {
  const read = readOwnFile(path, ENTRY_MAX_BYTES);
  if (!read.ok) return { data: undefined, found: !read.missing };
  const bytes = read.bytes;
  const data = bytes.subarray(HASH_BYTES);
  return { data: bytes.length > HASH_BYTES && verifiedFor(key, 'apiwb code cache v1', bytes.subarray(0, HASH_BYTES), sourceDigest, runtimeText(), data) ? data : undefined, found: true };
}

/**
 * Loads a CommonJS bundle as require() would (its own module, exports, require relative to it), using
 * and keeping its code cache in `dir`. The caller decides when `save()` runs (after the work: the code
 * then includes every function that ran).
 */
export function loadBundle(file: string, dir: string | undefined, keyFile: string | undefined = dir === undefined ? undefined : join(dirname(dir), 'code-cache.key')): LoadedBundle {
  const bytes = readFileSync(file);
  const sourceDigest = sha256(bytes);
  const made = dir === undefined || keyFile === undefined || !folderTrusted(dir) ? undefined : userKey(keyFile);
  const key = made?.ok ? made.key : undefined;
  const entry = dir === undefined || key === undefined ? undefined : join(dir, entryName(file, bytes));
  const stored = entry === undefined || key === undefined ? { data: undefined, found: false } : readEntry(entry, key, sourceDigest);
  const script = new Script(Module.wrap(sourceText(bytes)), { filename: file, ...(stored.data ? { cachedData: stored.data } : {}) });
  const state: CodeCacheState = dir === undefined ? 'off'
    : entry === undefined ? 'untrusted'
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
    save: () => (entry === undefined || key === undefined ? false : writeEntry(entry, script, key, sourceDigest)),
  };
}

/**
 * A bundle's text as require() reads it (UTF-8). An all-ASCII file (the CLI bundles are built so) is the
 * same string read as Latin-1, which skips UTF-8 decoding and gives V8 a one-byte string.
 */
export function sourceText(bytes: Buffer): string {
  return isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
}

function writeEntry(entry: string, script: Script, key: Buffer, sourceDigest: Buffer): boolean {
  try {
    const data = script.createCachedData();
    mkdirSync(dirname(entry), { recursive: true, mode: 0o700 });
    // Made since the load: it must still be this user's alone.
    if (!folderTrusted(dirname(entry))) return false;
    // An exclusive temporary file, never through a link, renamed over the entry (ownFile.ts).
    writeOwnFile(entry, Buffer.concat([signature(key, sourceDigest, data), data]));
    removeOldEntries(entry);
    return true;
  } catch {
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
    .filter((name) => name !== basename(entry) && (name.startsWith(prefix) || (name.startsWith(`.${prefix}`) && name.endsWith('.tmp'))))
    .map((name) => ({ name, path: join(dir, name), written: statSync(join(dir, name), { throwIfNoEntry: false })?.mtimeMs ?? 0 }));
  const others = files.filter((file) => file.name.endsWith('.v8cache')).sort((a, b) => b.written - a.written);
  for (const old of others.slice(ENTRIES_KEPT - 1)) rmSync(old.path, { force: true });
  const now = Date.now();
  for (const file of files) if (file.name.endsWith('.tmp') && now - file.written > STALE_TEMPORARY_MS) rmSync(file.path, { force: true });
}
