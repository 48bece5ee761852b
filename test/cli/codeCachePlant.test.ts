// The CLI's code cache is untrusted input (issue 29 item 6). V8 accepts cached code compiled from any text
// of the same LENGTH as the source, so an entry planted in the cache folder would run as apiwb. Here a
// bundle and an impostor of exactly its length: the impostor's code, planted under the bundle's entry
// (framed as the old format framed it, or signed with the user's key but over the impostor's digest),
// never runs; neither does an entry that is a link or others may write, nor anything in a cache folder
// that is a link or writable by others: the bundle runs uncached and its own answer comes out.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';

const body = (who: string): string => [
  "'use strict';",
  ...Array.from({ length: 40 }, (_, i) => `function f${i}(x) { return x * ${i} + ${i}; }`),
  // The answer is a top-level constant: top-level code is always in the cached data (V8 may compile a
  // nested function again from the source text, so a constant inside one could read the genuine text).
  `const WHO = ${JSON.stringify(who)};`,
  `module.exports = { who: () => WHO, sum: (x) => ${Array.from({ length: 40 }, (_, i) => `f${i}(x)`).join(' + ')} };`,
].join('\n');

interface Loaded { readonly state: string; readonly entry: string | null; readonly who: string }

/** Loads in a child process (V8 keeps what a process compiled): state, entry and the bundle's answer. */
function loadInChild(bundle: string, cache: string, keyFile: string, save = false): Loaded {
  const module = join(import.meta.dirname, '..', '..', 'src', 'core', 'files', 'codeCache.ts');
  const script = `const [bundle, cache, key, save] = process.argv.slice(-4);
    const b = require(${JSON.stringify(module)}).loadBundle(bundle, cache, key);
    if (save === 'save') b.save();
    process.stdout.write(JSON.stringify({ state: b.state, entry: b.entry ?? null, who: b.exports.who() }));`;
  return JSON.parse(execFileSync(process.execPath, ['--import', 'tsx', '-e', script, bundle, cache, keyFile, save ? 'save' : 'load'], { encoding: 'utf8' })) as Loaded;
}

void describe('a planted code-cache entry never runs', () => {
  let dir = '';
  let genuine = '';
  let impostor = '';
  let keyFile = '';
  /** The impostor's own entry, signed with the user's key over the impostor's digest. */
  let impostorEntry = '';

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'apiwb-cache-plant-'));
    genuine = join(dir, 'apiwb.runCommand.cjs');
    impostor = join(dir, 'impostor', 'apiwb.runCommand.cjs');
    mkdirSync(join(dir, 'impostor'));
    writeFileSync(genuine, body('genuine'));
    writeFileSync(impostor, body('PLANTED'));
    assert.equal(readFileSync(genuine).length, readFileSync(impostor).length, 'the same length: V8 alone would take one for the other');
    keyFile = join(dir, 'config', 'code-cache.key');
    const made = loadInChild(impostor, join(dir, 'impostor-cache', 'code'), keyFile, true);
    assert.equal(made.who, 'PLANTED');
    impostorEntry = made.entry!;
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  /** A fresh cache folder and the genuine bundle's entry path in it. */
  const freshCache = (name: string): { cache: string; entry: string } => {
    const cache = join(dir, name, 'code');
    mkdirSync(cache, { recursive: true, mode: 0o700 });
    chmodSync(join(dir, name), 0o700);
    const { entry } = loadInChild(genuine, cache, keyFile);
    rmSync(entry!, { force: true });
    return { cache, entry: entry! };
  };

  void it('the impostor\'s code framed with a plain hash of its bytes (the old format): rejected, the bundle runs as itself', () => {
    const { cache, entry } = freshCache('old-frame');
    const data = readFileSync(impostorEntry).subarray(32);
    writeFileSync(entry, Buffer.concat([createHash('sha256').update(data).digest(), data]), { mode: 0o600 });
    const loaded = loadInChild(genuine, cache, keyFile);
    assert.deepEqual([loaded.state, loaded.who], ['rejected', 'genuine']);
  });

  void it('the impostor\'s entry signed with the user\'s key, copied under the bundle\'s name: rejected (the signature covers the bundle\'s own digest)', () => {
    const { cache, entry } = freshCache('signed-elsewhere');
    copyFileSync(impostorEntry, entry);
    chmodSync(entry, 0o600);
    const loaded = loadInChild(genuine, cache, keyFile, true);
    assert.deepEqual([loaded.state, loaded.who], ['rejected', 'genuine']);
    assert.deepEqual([loadInChild(genuine, cache, keyFile).state, loadInChild(genuine, cache, keyFile).who], ['warm', 'genuine'], 'replaced by its own code, then used');
  });

  void it('the bundle\'s own good entry, but as a link or writable by others: not read', () => {
    const { cache, entry } = freshCache('own-entry');
    assert.equal(loadInChild(genuine, cache, keyFile, true).state, 'cold');
    assert.equal(loadInChild(genuine, cache, keyFile).state, 'warm');
    chmodSync(entry, 0o666);
    assert.deepEqual([loadInChild(genuine, cache, keyFile).state, loadInChild(genuine, cache, keyFile).who], ['rejected', 'genuine']);
    const elsewhere = join(dir, 'elsewhere.v8cache');
    chmodSync(entry, 0o600);
    copyFileSync(entry, elsewhere);
    rmSync(entry);
    symlinkSync(elsewhere, entry);
    assert.deepEqual([loadInChild(genuine, cache, keyFile).state, loadInChild(genuine, cache, keyFile).who], ['rejected', 'genuine']);
  });

  void it('a cache folder that is a link, or that others may write: uncached, nothing written there', () => {
    const real = join(dir, 'shared', 'code');
    mkdirSync(real, { recursive: true });
    chmodSync(join(dir, 'shared'), 0o700);
    const linked = join(dir, 'linked');
    mkdirSync(linked, { mode: 0o700 });
    symlinkSync(real, join(linked, 'code'));
    const viaLink = loadInChild(genuine, join(linked, 'code'), keyFile, true);
    assert.deepEqual([viaLink.state, viaLink.who], ['untrusted', 'genuine']);
    assert.deepEqual(readdirSync(real), [], 'nothing written through the link');
    chmodSync(real, 0o777);
    const open = loadInChild(genuine, real, keyFile, true);
    assert.deepEqual([open.state, open.who], ['untrusted', 'genuine']);
    assert.deepEqual(readdirSync(real), []);
  });

  void it('a signing key that others may write is not used: uncached', () => {
    const { cache } = freshCache('loose-key');
    const loose = join(dir, 'loose', 'code-cache.key');
    mkdirSync(join(dir, 'loose'), { mode: 0o700 });
    writeFileSync(loose, Buffer.alloc(32, 7), { mode: 0o666 });
    chmodSync(loose, 0o666);
    const loaded = loadInChild(genuine, cache, loose, true);
    assert.deepEqual([loaded.state, loaded.who], ['untrusted', 'genuine']);
    assert.equal(existsSync(join(cache, 'x')), false);
  });
});
