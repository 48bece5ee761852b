// Builds the bundles (minified) and the VSIX, then checks it: under 2 MB, and nothing but
// dist bundles, media, syntaxes and docs inside (no src/, test/, node_modules/, source maps).
import { execFileSync } from 'node:child_process';
import { statSync, mkdirSync } from 'node:fs';

const vsix = 'dist/api-workbench.vsix';
mkdirSync('dist', { recursive: true });
execFileSync(process.execPath, ['scripts/build.mjs', '--production'], { stdio: 'inherit' });
execFileSync('npx', ['vsce', 'package', '--no-dependencies', '--skip-license', '--allow-missing-repository', '--out', vsix], { stdio: 'inherit' });

execFileSync('bash', ['scripts/ensure-debian-packages.sh', 'unzip'], { stdio: 'inherit' });
const size = statSync(vsix).size;
const listing = execFileSync('unzip', ['-Z1', vsix], { encoding: 'utf8' }).split('\n').filter(Boolean);
const allowed = /^(extension\.vsixmanifest|\[Content_Types\]\.xml|extension\/(package\.json|readme\.md|changelog\.md|LICENSE(\.txt)?|ARCHITECTURE\.md|dist\/(extension|workbench|languageClient|codegen|server|webview)\.(js|css)|media\/.+|syntaxes\/.+|docs\/contracts\/[a-z-]+\.md))$/i;
const unexpected = listing.filter((f) => !allowed.test(f));
const limit = 2 * 1024 * 1024;
console.log(`package: ${vsix} ${(size / 1024).toFixed(0)} KiB, ${listing.length} files`);
if (size >= limit) { console.error(`package: VSIX is ${size} bytes, over the 2 MB limit`); process.exit(1); }
// The contract reference ships: citation links in hovers, tooltips and diagnostics open it.
const reference = ['engagement', 'fundraising', 'booking'].map((name) => `extension/docs/contracts/${name}.md`);
const missing = reference.filter((f) => !listing.includes(f));
if (missing.length > 0) { console.error(`package: the VSIX lacks the contract reference:\n  ${missing.join('\n  ')}`); process.exit(1); }
if (unexpected.length > 0) { console.error(`package: unexpected files in the VSIX:\n  ${unexpected.join('\n  ')}`); process.exit(1); }
