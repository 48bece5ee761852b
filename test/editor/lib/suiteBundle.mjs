// The bundled extension-host suite entry (out/editor-suite/index.js), shared by the code-server and
// the @vscode/test-electron runners so both run exactly the same suites.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Every *.test.ts in the suite folder must be listed in suites.ts, or it would silently never run. */
export function checkSuiteListing(suiteSources) {
  const listing = readFileSync(join(suiteSources, 'suites.ts'), 'utf8');
  const missing = readdirSync(suiteSources)
    .filter((f) => f.endsWith('.test.ts'))
    .filter((f) => !listing.includes(`'./${f.replace(/\.ts$/, '')}'`));
  if (missing.length > 0) throw new Error(`add to test/editor/suite/suites.ts: ${missing.join(', ')}`);
}

/** (Re)builds the suite bundle (scripts/build.mjs) when it is missing or older than a suite source. */
export function ensureSuiteBundle(root, suiteSources, suiteEntry) {
  const bundled = existsSync(suiteEntry) ? statSync(suiteEntry).mtimeMs : 0;
  if (newestMtime(suiteSources) <= bundled) return;
  const result = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0 || !existsSync(suiteEntry)) throw new Error('building the editor suite bundle failed');
}

export function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) newest = Math.max(newest, statSync(join(entry.parentPath, entry.name)).mtimeMs);
  }
  return newest;
}
