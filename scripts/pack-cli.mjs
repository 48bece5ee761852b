// Packs the installable CLI: bundles src/cli/main.ts (minified, every dependency inlined, the version
// stamped in) to cli/dist/apiwb.cjs, copies the licence next to it, runs `npm pack` in cli/ and checks the
// tarball holds only the bundle, package.json, README and LICENSE. Prints the tarball's path.
// Usage: node scripts/pack-cli.mjs [--out DIR]   (default DIR: dist/)
import * as esbuild from 'esbuild';
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const outIndex = process.argv.indexOf('--out');
const out = resolve(outIndex === -1 ? join(root, 'dist') : process.argv[outIndex + 1] ?? '');
const product = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const cli = JSON.parse(readFileSync(join(root, 'cli', 'package.json'), 'utf8'));
if (cli.version !== product.version) {
  console.error(`pack-cli: cli/package.json is version ${cli.version}, the product ${product.version}: make them equal`);
  process.exit(1);
}

await esbuild.build({
  entryPoints: [join(root, 'src', 'cli', 'main.ts')],
  outfile: join(root, 'cli', 'dist', 'apiwb.cjs'),
  bundle: true, platform: 'node', target: 'node20', format: 'cjs', mainFields: ['module', 'main'],
  minify: true, legalComments: 'none', logLevel: 'warning',
  banner: { js: '#!/usr/bin/env node' },
  define: { __APIWB_VERSION__: JSON.stringify(cli.version) },
});
copyFileSync(join(root, 'LICENSE'), join(root, 'cli', 'LICENSE'));
mkdirSync(out, { recursive: true });
const [packed] = JSON.parse(execFileSync('npm', ['pack', '--json', '--pack-destination', out], { cwd: join(root, 'cli'), encoding: 'utf8' }));
const files = packed.files.map((f) => f.path).sort();
const expected = ['LICENSE', 'README.md', 'dist/apiwb.cjs', 'package.json'];
if (JSON.stringify(files) !== JSON.stringify(expected)) {
  console.error(`pack-cli: the tarball holds ${files.join(', ')}; expected only ${expected.join(', ')}`);
  process.exit(1);
}
console.log(join(out, packed.filename));
