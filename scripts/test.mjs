// `npm test`: every check and every suite, in order, stopping at the first failing step.
// Steps: typecheck, lint, contributions check, build + VSIX (with its size and content check),
// unit/server/sandbox tests (node --test), then the extension-host and UI suites inside code-server.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';

function findTests(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return findTests(path);
    return entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

// Suites that run in plain node; test/editor and test/ui run inside the real editor instead.
const nodeSuites = ['test/unit', 'test/server', 'test/sandbox', 'test/cli', 'test/paging']
  .flatMap((dir) => { try { return findTests(dir); } catch { return []; } })
  .sort();

const steps = [
  ['typecheck', npx, ['tsc', '-p', '.', '--noEmit']],
  ['typecheck webview', npx, ['tsc', '-p', 'src/webview', '--noEmit']],
  ['lint', npx, ['eslint', '.']],
  ['contributions', npx, ['tsx', 'scripts/check-contributions.ts']],
  ['package', process.execPath, ['scripts/package.mjs']],
  ['node suites', process.execPath, ['--import', 'tsx', '--test', '--test-reporter=spec', '--test-concurrency=2', ...nodeSuites]],
  ['editor suites', process.execPath, ['test/editor/run.mjs']],
];

const only = process.env.APIWB_TEST_STEPS?.split(',');
for (const [name, cmd, args] of steps) {
  if (only && !only.includes(name)) continue;
  console.log(`\n=== ${name} ===`);
  const started = Date.now();
  const result = spawnSync(cmd, args, { stdio: 'inherit' });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (result.status !== 0) {
    console.error(`\n=== ${name}: FAILED (exit ${result.status ?? result.signal}) after ${seconds}s ===`);
    process.exit(1);
  }
  console.log(`=== ${name}: ok (${seconds}s) ===`);
}
