// The CLI's bundles, defined once for dist/ (scripts/build.mjs), the installable package
// (scripts/pack-cli.mjs) and the tests and benches (test/cli/sandboxEnv.ts).
//
// `apiwb` is a small dispatcher (src/cli/main.ts) plus one bundle per subcommand module, beside it:
// src/cli/subcommands.ts loads each subcommand with `import('./xCommand')`, and here that import becomes a
// load of the sibling bundle `<stem>.xCommand<ext>` through V8's code cache (src/cli/codeCache.ts, by the
// rule of src/core/files/codeCache.ts). So
// `apiwb --help` compiles only the dispatcher, and `apiwb run` only the dispatcher and the run bundle (one
// bundle of ~3 MB took most of start-up), from cached code after its first run.
// The list of subcommand modules is read from subcommands.ts itself: there is no second list to keep.
import * as esbuild from 'esbuild';
import { readFileSync } from 'node:fs';
import { basename, dirname, extname, join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const cliSource = join(root, 'src', 'cli');
const subcommandsFile = join(cliSource, 'subcommands.ts');

/** The modules src/cli/subcommands.ts imports on use (`import('./runCommand')` → `runCommand`). */
export function subcommandModules() {
  const text = readFileSync(subcommandsFile, 'utf8');
  const names = [...text.matchAll(/import\(\s*'\.\/(\w+)'\s*\)/g)].map((m) => m[1]);
  if (names.length === 0) throw new Error(`cliBundles: no import('./…') found in ${subcommandsFile}`);
  return names;
}

/** The file a subcommand module is bundled to, beside the dispatcher `outfile`. */
export function subcommandFile(outfile, module) {
  const ext = extname(outfile);
  return join(dirname(outfile), `${basename(outfile, ext)}.${module}${ext}`);
}

/**
 * esbuild options for every CLI bundle: the dispatcher at `outfile`, each subcommand beside it.
 * `module` first in mainFields: jsonc-parser's UMD entry cannot be bundled.
 */
export function cliBuildOptions({ outfile, minify = false, sourcemap = false, version, logLevel = 'warning' }) {
  const modules = subcommandModules();
  const common = {
    bundle: true, platform: 'node', target: 'node20', format: 'cjs', mainFields: ['module', 'main'],
    // Whitespace and comments out even when not minified: a smaller file to read, hash and compile, and
    // (with charset ascii) an all-ASCII one, which codeCache.ts decodes without UTF-8 decoding.
    minify, minifyWhitespace: true, charset: 'ascii', sourcemap, legalComments: 'none', logLevel,
    ...(version === undefined ? {} : { define: { __APIWB_VERSION__: JSON.stringify(version) } }),
  };
  const siblings = {
    name: 'apiwb-subcommand-bundles',
    setup(build) {
      build.onResolve({ filter: /^\.\/\w+$/ }, (args) => {
        const module = args.path.slice(2);
        if (args.importer !== subcommandsFile || !modules.includes(module)) return undefined;
        return { path: basename(subcommandFile(outfile, module)), namespace: 'apiwb-subcommand' };
      });
      // The subcommand's module, in the dispatcher: its bundle beside the dispatcher, loaded on first use.
      build.onLoad({ filter: /.*/, namespace: 'apiwb-subcommand' }, (args) => ({
        contents: `module.exports = require('./codeCache').loadSubcommandBundle(require('node:path').join(__dirname, ${JSON.stringify(args.path)}));`,
        resolveDir: cliSource, loader: 'js',
      }));
    },
  };
  return [
    // `supported`: the dispatcher require()s a subcommand bundle. Left an import(), node would load the
    // CommonJS bundle through its ESM loader, which lexes all of it for export names first (~0.4 s for run).
    { ...common, entryPoints: [join(cliSource, 'main.ts')], outfile, banner: { js: '#!/usr/bin/env node' }, plugins: [siblings], supported: { 'dynamic-import': false } },
    // Compiled by codeCache.ts as a vm.Script, which has no loader for import(): none may be left in.
    ...modules.map((module) => ({ ...common, entryPoints: [join(cliSource, `${module}.ts`)], outfile: subcommandFile(outfile, module), supported: { 'dynamic-import': false } })),
  ];
}

/** Builds the dispatcher and its subcommand bundles; returns every file written (the dispatcher first). */
export async function buildCliBundles(options) {
  const builds = cliBuildOptions(options);
  await Promise.all(builds.map((b) => esbuild.build(b)));
  return builds.map((b) => b.outfile);
}
