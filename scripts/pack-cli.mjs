// Packs the installable CLI: bundles it into a clean cli/dist/ (scripts/cliBundles.mjs: the dispatcher
// apiwb.cjs and one bundle per subcommand beside it; minified, every dependency inlined, the version
// stamped in), copies the licence next to it, runs `npm pack` in cli/ and checks the tarball holds only
// those bundles, package.json, README and LICENSE. Prints the tarball's path.
// Usage: node scripts/pack-cli.mjs [--out DIR]   (default DIR: dist/)
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { buildCliBundles } from './cliBundles.mjs';

const root = resolve(import.meta.dirname, '..');
const outIndex = process.argv.indexOf('--out');
const out = resolve(outIndex === -1 ? join(root, 'dist') : process.argv[outIndex + 1] ?? '');
const product = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const cli = JSON.parse(readFileSync(join(root, 'cli', 'package.json'), 'utf8'));
if (cli.version !== product.version) {
  console.error(`pack-cli: cli/package.json is version ${cli.version}, the product ${product.version}: make them equal`);
  process.exit(1);
}

rmSync(join(root, 'cli', 'dist'), { recursive: true, force: true });
const bundles = (await buildCliBundles({ outfile: join(root, 'cli', 'dist', 'apiwb.cjs'), minify: true, version: cli.version }))
  .map((file) => relative(join(root, 'cli'), file).split(sep).join('/'));
copyFileSync(join(root, 'LICENSE'), join(root, 'cli', 'LICENSE'));
mkdirSync(out, { recursive: true });
const [packed] = JSON.parse(execFileSync('npm', ['pack', '--json', '--pack-destination', out], { cwd: join(root, 'cli'), encoding: 'utf8' }));
const files = packed.files.map((f) => f.path).sort();
const expected = ['LICENSE', 'README.md', ...bundles, 'package.json'].sort();
if (JSON.stringify(files) !== JSON.stringify(expected)) {
  console.error(`pack-cli: the tarball holds ${files.join(', ')}; expected only ${expected.join(', ')}`);
  process.exit(1);
}
console.log(join(out, packed.filename));
