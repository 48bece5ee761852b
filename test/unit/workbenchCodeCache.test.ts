// The extension's workbench bundle loads through V8's code cache in the global storage: the shipped
// bundles (built as scripts/extensionBundles.mjs builds them), activated in a fresh process with the
// activation bench's stub `vscode` (bench/activation/child.cjs). A first session writes the cache entry
// a few seconds after the workbench loaded (and one for the language client's bundle); a later one answers every view from it; a damaged entry, or
// no storage at all, is a normal load.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as esbuild from 'esbuild';
import { extensionBundles } from '../../scripts/extensionBundles.mjs';

const root = join(import.meta.dirname, '../..');

interface Answer { readonly views: number; readonly rows: number; readonly allViewsMs: number }

void describe('the workbench bundle through the code cache', () => {
  void it('a first session writes the entry, a later one loads from it, a damaged one or no storage loads normally', { timeout: 120_000 }, () => {
    const work = mkdtempSync(join(tmpdir(), 'apiwb-workbench-cache-'));
    try {
      const out = join(work, 'dist');
      for (const bundle of extensionBundles({ bundle: true, platform: 'node', format: 'cjs', target: 'node20', minify: true, external: ['vscode'], mainFields: ['module', 'main'], logLevel: 'warning', outdir: out })) esbuild.buildSync(bundle);
      const storage = join(work, 'storage');
      const run = (env: Record<string, string>): Answer => JSON.parse(execFileSync(process.execPath, [join(root, 'bench/activation/child.cjs'), join(out, 'extension.js')], {
        cwd: root, encoding: 'utf8', env: { ...process.env, ...env },
      })) as Answer;
      const entries = (): string[] => readdirSync(join(storage, 'code-cache')).filter((name) => name.endsWith('.v8cache'));

      const first = run({ APIWB_BENCH_STORAGE: storage, APIWB_BENCH_PRIME: '1' });
      assert.equal(first.views, 4);
      // One entry per bundle loaded through the cache: the workbench, and the language client it loads after.
      assert.deepEqual(entries().map((name) => name.split('.js.')[0]).sort(), ['languageClient', 'workbench'], 'the first session wrote one entry per bundle');
      const workbenchEntry = entries().find((name) => name.startsWith('workbench.js.'))!;

      const later = run({ APIWB_BENCH_STORAGE: storage });
      assert.equal(later.views, 4);
      assert.equal(later.rows, 3);

      writeFileSync(join(storage, 'code-cache', workbenchEntry), Buffer.alloc(4096, 7));
      const damaged = run({ APIWB_BENCH_STORAGE: storage });
      assert.equal(damaged.rows, 3, 'a damaged entry is a normal load');
      assert.equal(run({}).rows, 3, 'no storage: a normal load');
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });
});
