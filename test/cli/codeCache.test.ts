// The subcommand bundles' code cache (src/cli/codeCache.ts): used when it is good, written when it is
// missing, and never more than a shortcut: a corrupt, rejected or unwritable cache loads the bundle as if
// there were none; another build never reads it; it holds no secret of a run.
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { codeCacheDir } from '../../src/cli/codeCache';
import { entryName, loadBundle, sourceText } from '../../src/core/files/codeCache';
import { runCli } from './cliProcess';
import { buildCli, COLLECTION, openSandboxWorkspace, type SandboxWorkspace } from './sandboxEnv';

/** A bundle with enough functions for V8 to cache, and one that reports how it was loaded. */
const BUNDLE = [
  "'use strict';",
  'const { basename } = require("node:path");',
  ...Array.from({ length: 40 }, (_, i) => `function f${i}(x) { return x * ${i} + ${i}; }`),
  `module.exports = { sum: (x) => ${Array.from({ length: 40 }, (_, i) => `f${i}(x)`).join(' + ')}, file: basename(__filename), self: module.exports === exports };`,
].join('\n');

interface ChildLoad { readonly state: string; readonly entry: string; readonly sum: number }

/**
 * Loads a bundle in a process of its own (then saves its entry when asked): V8 keeps what a process
 * compiled in memory, so a second load in one process would not read the entry at all; and the entry's
 * name depends on the process's flags, the same for every child.
 */
function loadInChild(bundle: string, cache: string, save = false): ChildLoad {
  const module = join(import.meta.dirname, '..', '..', 'src', 'core', 'files', 'codeCache.ts');
  // One script for every child (it is part of node's arguments, which name the entry); the rest is argv.
  const script = `const [bundle, cache, save] = process.argv.slice(-3);
    const b = require(${JSON.stringify(module)}).loadBundle(bundle, cache);
    if (save === 'save' && !b.save()) throw new Error('not saved');
    process.stdout.write(JSON.stringify({ state: b.state, entry: b.entry, sum: b.exports.sum(3) }));`;
  return JSON.parse(execFileSync(process.execPath, ['--import', 'tsx', '-e', script, bundle, cache, save ? 'save' : 'load'], { encoding: 'utf8' })) as ChildLoad;
}

const expectedSum = (x: number): number => Array.from({ length: 40 }, (_, i) => x * i + i).reduce((a, b) => a + b, 0);

void describe('code cache of the subcommand bundles', () => {
  let dir: string;
  let bundle: string;
  let cache: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'apiwb-code-cache-'));
    bundle = join(dir, 'apiwb.testCommand.cjs');
    writeFileSync(bundle, BUNDLE);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));
  const fresh = (name: string): string => {
    cache = join(dir, name);
    rmSync(cache, { recursive: true, force: true });
    return cache;
  };
  const assertLoaded = (exports: unknown): void => {
    const module = exports as { sum(x: number): number; file: string; self: boolean };
    assert.equal(module.sum(3), expectedSum(3));
    assert.equal(module.file, 'apiwb.testCommand.cjs', '__filename is the bundle, as require() gives it');
    assert.ok(module.self);
  };

  void it('missing: loads normally (cold), save() writes the entry, the next load uses it (warm)', () => {
    fresh('missing');
    const cold = loadBundle(bundle, cache);
    assert.equal(cold.state, 'cold');
    assertLoaded(cold.exports);
    assert.ok(cold.save());
    assert.ok(cold.entry && existsSync(cold.entry));
    fresh('missing');
    const first = loadInChild(bundle, cache, true);
    assert.deepEqual([first.state, first.sum], ['cold', expectedSum(3)]);
    assert.ok(existsSync(first.entry));
    assert.deepEqual(loadInChild(bundle, cache), { ...first, state: 'warm' });
  });

  void it('corrupt (bytes not matching their hash, a truncated file): never handed to V8, loads cold, rewritten', () => {
    fresh('corrupt');
    const { entry } = loadInChild(bundle, cache, true);
    const good = readFileSync(entry);
    for (const bad of [Buffer.from('not a code cache'), good.subarray(0, good.length - 7), Buffer.concat([good.subarray(0, 40), Buffer.from([good[40]! ^ 0xff]), good.subarray(41)])]) {
      writeFileSync(entry, bad);
      assert.deepEqual(loadInChild(bundle, cache), { state: 'rejected', entry, sum: expectedSum(3) });
    }
    writeFileSync(entry, '');
    assert.equal(loadInChild(bundle, cache, true).state, 'rejected');
    assert.equal(loadInChild(bundle, cache).state, 'warm', 'rewritten after it was found corrupt');
  });

  void it('rejected by V8 (well-formed bytes compiled from another source): loads cold, and is replaced', () => {
    fresh('rejected');
    const other = join(dir, 'other.cjs');
    writeFileSync(other, `${BUNDLE}\n// another build\nmodule.exports.extra = 1;`);
    const foreign = loadInChild(other, join(dir, 'foreign'), true);
    // The other script's well-framed entry where this bundle's entry is looked up.
    const { entry } = loadInChild(bundle, cache);
    mkdirSync(cache, { recursive: true });
    writeFileSync(entry, readFileSync(foreign.entry));
    assert.deepEqual(loadInChild(bundle, cache, true), { state: 'rejected', entry, sum: expectedSum(3) });
    assert.ok(!readFileSync(entry).equals(readFileSync(foreign.entry)), 'replaced by this bundle\'s code');
    assert.equal(loadInChild(bundle, cache).state, 'warm');
  });

  void it('unwritable: the folder cannot be made (a file is in the way) or written (read-only): loads, save() says false, nothing thrown', () => {
    fresh('blocked');
    writeFileSync(cache, 'a file where the folder would be');
    const blocked = loadBundle(bundle, join(cache, 'code'));
    assert.equal(blocked.state, 'untrusted', 'a file where the folder would be is not a folder of this user\'s: uncached');
    assertLoaded(blocked.exports);
    assert.equal(blocked.save(), false);
    if (process.getuid?.() !== 0) {
      // root writes through a read-only mode; everyone else is refused
      fresh('readonly');
      mkdirSync(cache);
      chmodSync(cache, 0o500);
      const readonly = loadBundle(bundle, cache);
      assert.equal(readonly.save(), false);
      assert.deepEqual(readdirSync(cache), [], 'no temporary file left behind');
      chmodSync(cache, 0o700);
    }
  });

  void it('no cache folder (NODE_DISABLE_COMPILE_CACHE, no LOCALAPPDATA): loads normally, nothing written', () => {
    const off = loadBundle(bundle, undefined);
    assert.equal(off.state, 'off');
    assertLoaded(off.exports);
    assert.equal(off.save(), false);
    assert.equal(codeCacheDir({ NODE_DISABLE_COMPILE_CACHE: '1', XDG_CACHE_HOME: '/x' }, 'linux'), undefined);
    assert.equal(codeCacheDir({}, 'win32'), undefined);
  });

  void it('lives in the per-user cache folder of each platform', () => {
    const home = (): string => '/home/u';
    assert.equal(codeCacheDir({ XDG_CACHE_HOME: '/xdg' }, 'linux', home), join('/xdg', 'apiwb', 'code'));
    assert.equal(codeCacheDir({}, 'linux', home), join('/home/u', '.cache', 'apiwb', 'code'));
    assert.equal(codeCacheDir({ XDG_CACHE_HOME: '' }, 'linux', home), join('/home/u', '.cache', 'apiwb', 'code'));
    assert.equal(codeCacheDir({}, 'darwin', home), join('/home/u', 'Library', 'Caches', 'apiwb', 'code'));
    assert.equal(codeCacheDir({ XDG_CACHE_HOME: '/xdg' }, 'darwin', home), join('/xdg', 'apiwb', 'code'));
    assert.equal(codeCacheDir({ LOCALAPPDATA: 'C:\\Users\\u\\AppData\\Local' }, 'win32', home), join('C:\\Users\\u\\AppData\\Local', 'apiwb', 'Cache', 'code'));
    assert.equal(codeCacheDir({}, 'linux', () => { throw new Error('no home'); }), undefined);
  });

  void it('a relative XDG_CACHE_HOME, LOCALAPPDATA or home is not a cache folder (it would be the working folder\'s, where a project could plant code)', () => {
    const home = (): string => '/home/u';
    assert.equal(codeCacheDir({ XDG_CACHE_HOME: 'cache' }, 'linux', home), join('/home/u', '.cache', 'apiwb', 'code'), 'the XDG spec: a relative path is ignored');
    assert.equal(codeCacheDir({ XDG_CACHE_HOME: '.' }, 'darwin', home), join('/home/u', 'Library', 'Caches', 'apiwb', 'code'));
    assert.equal(codeCacheDir({ XDG_CACHE_HOME: 'C:\\cache' }, 'linux', home), join('/home/u', '.cache', 'apiwb', 'code'));
    assert.equal(codeCacheDir({ LOCALAPPDATA: 'AppData\\Local' }, 'win32', home), undefined);
    assert.equal(codeCacheDir({ XDG_CACHE_HOME: 'C:cache', LOCALAPPDATA: 'C:\\L' }, 'win32', home), join('C:\\L', 'apiwb', 'Cache', 'code'), 'relative to a drive\'s working folder');
    assert.equal(codeCacheDir({ XDG_CACHE_HOME: 'D:\\xdg', LOCALAPPDATA: 'C:\\L' }, 'win32', home), join('D:\\xdg', 'apiwb', 'code'));
    assert.equal(codeCacheDir({}, 'linux', () => 'relative-home'), undefined);
    assert.equal(codeCacheDir({}, 'linux', () => ''), undefined);
  });

  void it('another build of the bundle (other bytes, same length) or other node flags: another entry; the three newest builds are kept', () => {
    fresh('builds');
    const first = loadBundle(bundle, cache);
    assert.ok(first.save());
    const rebuilt = join(dir, 'rebuilt', 'apiwb.testCommand.cjs');
    mkdirSync(join(dir, 'rebuilt'), { recursive: true });
    writeFileSync(rebuilt, BUNDLE.replace('x * 1 + 1', 'x * 1 - 1').replace('x * 2 + 2', 'x * 2 + 4'));
    assert.equal(readFileSync(rebuilt).length, readFileSync(bundle).length);
    const name = entryName(rebuilt, readFileSync(rebuilt));
    assert.notEqual(name, entryName(bundle, readFileSync(bundle)));
    assert.notEqual(entryName(bundle, readFileSync(bundle), { NODE_OPTIONS: '--max-old-space-size=100' }), entryName(bundle, readFileSync(bundle)));
    const second = loadBundle(rebuilt, cache);
    assert.equal(second.state, 'cold', 'the first build\'s code is never used for the second');
    assert.equal((second.exports as { sum(x: number): number }).sum(3), expectedSum(3) - 2 + 2);
    assert.ok(second.save());
    assert.deepEqual(readdirSync(cache).sort(), [basename(first.entry!), name].sort(), 'both builds stay warm');
    // Two more builds: the oldest entry goes.
    for (const n of [3, 4]) {
      const build = join(dir, `build${n}`, 'apiwb.testCommand.cjs');
      mkdirSync(dirname(build), { recursive: true });
      writeFileSync(build, `${BUNDLE}\n// build ${n}`);
      assert.ok(loadBundle(build, cache).save());
    }
    assert.equal(readdirSync(cache).length, 3);
    assert.ok(!readdirSync(cache).includes(basename(first.entry!)), 'the oldest build\'s entry is removed');
  });

  void it('a temporary file left by a write that never finished is removed once stale; one being written now is left alone', () => {
    fresh('temporaries');
    const loaded = loadBundle(bundle, cache);
    assert.ok(loaded.save());
    const stale = `${loaded.entry!}.99991.tmp`;
    const current = `${loaded.entry!}.99992.tmp`;
    writeFileSync(stale, 'half written');
    writeFileSync(current, 'being written');
    const anHourAgo = new Date(Date.now() - 3_600_000);
    utimesSync(stale, anHourAgo, anHourAgo);
    // Another build's save looks after the folder.
    const other = join(dir, 'other', 'apiwb.testCommand.cjs');
    mkdirSync(dirname(other), { recursive: true });
    writeFileSync(other, `${BUNDLE}\n// other`);
    assert.ok(loadBundle(other, cache).save());
    assert.ok(!existsSync(stale), 'the stale temporary file is removed');
    assert.ok(existsSync(current), 'a temporary file another process may be writing stays');
  });
});

void describe('a bundle\'s source text', () => {
  void it('is the file read as UTF-8: an ASCII file read as Latin-1 gives the same string, any other byte is decoded as UTF-8', () => {
    const samples = ['', 'module.exports = "plain";', 'a = "\\u00a7 escaped";\n\t// ~\x7f', '§ 4.2 — ok', 'caf\u00e9', '\u{1f600} emoji', 'x'.repeat(100_000) + 'é'];
    for (const text of samples) assert.equal(sourceText(Buffer.from(text, 'utf8')), text);
    // Bytes that are not ASCII and not Latin-1 text: decoded as require() would (UTF-8, a bad byte as U+FFFD).
    const bytes = Buffer.from([0x61, 0xe9, 0x62, 0xc3, 0xa9]);
    assert.equal(sourceText(bytes), bytes.toString('utf8'));
    assert.notEqual(sourceText(bytes), bytes.toString('latin1'));
  });

  void it('the CLI bundles are built all ASCII (so they are read without UTF-8 decoding)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'apiwb-ascii-'));
    try {
      const dispatcher = await buildCli(dir);
      const bundles = readdirSync(dirname(dispatcher)).filter((name) => name.endsWith('.cjs'));
      assert.ok(bundles.length > 1, bundles.join(', '));
      for (const name of bundles) {
        const bytes = readFileSync(join(dir, name));
        const at = bytes.findIndex((byte) => byte > 0x7f);
        assert.equal(at, -1, `${name} has a non-ASCII byte near: ${bytes.subarray(Math.max(0, at - 40), at + 40).toString('utf8')}`);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

void describe('code cache of apiwb run', () => {
  let ws: SandboxWorkspace;
  let cli: string;
  before(async () => {
    ws = await openSandboxWorkspace();
    cli = await buildCli(ws.dir);
  });
  after(async () => { await ws.close(); });

  void it('loads every built-in module it uses before it sets its V8 flags (node\'s cached code of a module loaded after is unusable)', async () => {
    // Wraps v8.setFlagsFromString to note how many modules were loaded by then; prints the public ones loaded after.
    const hook = join(ws.dir, 'flagsHook.cjs');
    writeFileSync(hook, [
      "const v8 = require('node:v8'); const set = v8.setFlagsFromString; let at;",
      'v8.setFlagsFromString = (flags) => { at ??= process.moduleLoadList.length; return set(flags); };',
      "process.on('exit', () => process.stderr.write(`flags at ${at}; loaded after: ${process.moduleLoadList.slice(at ?? 0).filter((m) => /^NativeModule (?!internal\\/)/.test(m)).join(', ')}\\n`));",
    ].join('\n'));
    const args = ['run', join(COLLECTION, 'engagement.http'), join(COLLECTION, 'fundraising.http'), '--env', 'sandbox', '--env-file', ws.envFile, '--all-pages'];
    const run = await runCli(cli, args, { ...ws.secrets, XDG_CACHE_HOME: join(ws.dir, 'xdg-flags'), NODE_OPTIONS: `--require=${hook}` });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /flags at \d+; loaded after: \n/, 'a built-in module loaded after the flags: add it to REQUEST_SENDER_BUILTINS (src/cli/v8Flags.ts)');
  });

  void it('a run writes the cache once, the next run uses it; no secret of the run is in it', async () => {
    const xdg = join(ws.dir, 'xdg');
    const args = ['run', join(COLLECTION, 'engagement.http'), join(COLLECTION, 'fundraising.http'), '--env', 'sandbox', '--env-file', ws.envFile];
    const first = await runCli(cli, args, { ...ws.secrets, XDG_CACHE_HOME: xdg });
    assert.equal(first.code, 0, first.stderr);
    const code = join(xdg, 'apiwb', 'code');
    const entries = readdirSync(code);
    assert.equal(entries.length, 1, entries.join(', '));
    const entry = entries[0]!;
    assert.ok(entry.startsWith('apiwb-cli.runCommand.cjs.'), entry);
    const bytes = readFileSync(join(code, entry));
    const written = statSync(join(code, entry)).ino;
    const second = await runCli(cli, args, { ...ws.secrets, XDG_CACHE_HOME: xdg });
    assert.equal(second.code, 0, second.stderr);
    assert.equal(second.stdout.replace(/\d+ ms/g, ''), first.stdout.replace(/\d+ ms/g, ''));
    // A rewrite is a rename of a new file: another inode.
    assert.equal(statSync(join(code, entry)).ino, written, 'a warm run does not rewrite the entry');
    const text = bytes.toString('latin1');
    const utf16 = bytes.toString('utf16le');
    for (const secret of [...ws.secretValues, ...Object.values(ws.secrets)]) {
      assert.ok(!text.includes(secret) && !utf16.includes(secret), 'a secret of the run is in the code cache');
    }
  });
});
