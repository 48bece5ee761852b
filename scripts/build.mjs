// Bundles every entry point with esbuild. `--watch` rebuilds on change. Test bundles go to out/.
import * as esbuild from 'esbuild';
import { existsSync, readFileSync } from 'node:fs';
import { cliBuildOptions } from './cliBundles.mjs';

const watch = process.argv.includes('--watch');
const production = process.argv.includes('--production');
const common = { bundle: true, sourcemap: !production, minify: production, logLevel: 'warning', legalComments: 'none' };
// jsonc-parser's "main" is a UMD build whose dynamic requires esbuild cannot follow: prefer ESM builds.
const node = { ...common, platform: 'node', target: 'node20', format: 'cjs', mainFields: ['module', 'main'] };

const builds = [
  // The extension is two bundles: a thin activate() and the workbench it loads on first need.
  { ...node, entryPoints: ['src/extension/extension.ts'], outfile: 'dist/extension.js', external: ['vscode', './workbench.js'] },
  { ...node, entryPoints: ['src/extension/workbench.ts'], outfile: 'dist/workbench.js', external: ['vscode'] },
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
