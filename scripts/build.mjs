// Bundles every entry point with esbuild. `--watch` rebuilds on change. Test bundles go to out/.
import * as esbuild from 'esbuild';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { cliBuildOptions } from './cliBundles.mjs';
import { extensionBundles } from './extensionBundles.mjs';

const watch = process.argv.includes('--watch');
const production = process.argv.includes('--production');
const common = { bundle: true, sourcemap: !production, minify: production, logLevel: 'warning', legalComments: 'none' };
// jsonc-parser's "main" is a UMD build whose dynamic requires esbuild cannot follow: prefer ESM builds.
const node = { ...common, platform: 'node', target: 'node20', format: 'cjs', mainFields: ['module', 'main'] };

// The Services view's first rows, generated from the catalog (activation shows them before the catalog loads).
execFileSync(process.execPath, ['--import', 'tsx', 'scripts/generate-service-rows.ts'], { stdio: 'inherit' });

const builds = [
  ...extensionBundles({ ...node, outdir: 'dist' }),
  { ...node, entryPoints: ['src/server/main.ts'], outfile: 'dist/server.js' },
  // The CLI: a dispatcher (dist/cli.js) and one bundle per subcommand beside it (dist/cli.runCommand.js, …).
  ...cliBuildOptions({ outfile: 'dist/cli.js', minify: production, sourcemap: !production, version: JSON.parse(readFileSync('package.json', 'utf8')).version }),
  { ...common, platform: 'browser', target: 'es2022', format: 'iife', entryPoints: ['src/webview/main.ts'], outfile: 'dist/webview.js' },
];
// Extension-host test suites (mocha inside the real editor): bundled with mocha, `vscode` external.
if (existsSync('test/editor/suite/index.ts')) {
  builds.push({ ...node, entryPoints: ['test/editor/suite/index.ts'], outfile: 'out/editor-suite/index.js', external: ['vscode'], sourcemap: true });
}

if (watch) {
  for (const b of builds) await (await esbuild.context(b)).watch();
  console.log('build: watching');
} else {
  await Promise.all(builds.map((b) => esbuild.build(b)));
  console.log(`build: ${builds.length} bundles`);
}
