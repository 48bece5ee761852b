// `npm test`: every check and every suite, in order, stopping at the first failing step.
// Steps: the Debian packages the suites need (chromium for the panel tests and the UI suites, ...),
// typecheck, lint, knip (nothing unused, nothing only tests use), contributions check, build + VSIX (with its size and content check),
// unit/server/sandbox tests (node --test), then the extension-host and UI suites inside code-server.
// A skipped test is an error: a suite that cannot run for a missing dependency must fail, never pass quietly.
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { countLine } from './testCounts.mjs';

const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';

function findTests(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return findTests(path);
    return entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

// Suites that run in plain node; test/editor and test/ui run inside the real editor instead.
const nodeSuites = ['test/unit', 'test/server', 'test/sandbox', 'test/cli', 'test/paging'].flatMap(findTests).sort();
// An empty list would make `node --test` discover files on its own: never run something other than these.
if (nodeSuites.length === 0) {
  console.error('no *.test.ts under test/unit, test/server, test/sandbox, test/cli or test/paging');
  process.exit(1);
}

const steps = [
  // Before any suite: node's panel tests (test/unit/panelBrowser.test.ts) drive chromium too; neovim is
  // the LSP client of test/server/neovimCompletion.test.ts.
  // libkrb5-dev only if code-server's install needs it (test/editor/install-editor.sh asks then).
  ['packages', 'bash', ['scripts/ensure-debian-packages.sh', 'chromium', 'unzip', 'openssl', 'tinyproxy', 'neovim']],
  ['typecheck', npx, ['tsc', '-p', '.', '--noEmit']],
  ['typecheck webview', npx, ['tsc', '-p', 'src/webview', '--noEmit']],
  ['lint', npx, ['eslint', '.']],
  // No unused file, export, type or dependency (knip.jsonc); and none that only the tests, checks and
  // benches use (--production: the product's entries alone).
  ['knip', npx, ['knip', '--no-progress']],
  ['knip production', npx, ['knip', '--production', '--no-progress']],
  ['contributions', npx, ['tsx', 'scripts/check-contributions.ts']],
  ['package', process.execPath, ['scripts/package.mjs']],
  ['node suites', process.execPath, ['--import', 'tsx', '--test', '--test-reporter=spec', '--test-concurrency=2', ...nodeSuites]],
  ['editor suites', process.execPath, ['test/editor/run.mjs']],
];

// Counts of every suite, read from the runners' own summary lines as they pass through (scripts/testCounts.mjs),
// so the run ends with one line for all of them.
const totals = { passed: 0, failed: 0, skipped: 0 };
const count = (line) => countLine(line, totals);
const summary = () => `all: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`;

// The outer npm hands its whole configuration down as npm_config_* variables; a machine-wide `nodedir`
// (set for native builds) then makes every nested npx warn "Unknown env config". No step needs it.
const stepEnv = Object.fromEntries(Object.entries(process.env).filter(([name]) => name !== 'npm_config_nodedir'));

function run(cmd, args) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { stdio: ['inherit', 'pipe', 'inherit'], env: stepEnv });
    child.on('error', (error) => {
      console.error(`could not run ${cmd}: ${error.message}`);
      resolve(127);
    });
    let pending = '';
    child.stdout.on('data', (chunk) => {
      process.stdout.write(chunk);
      const lines = (pending + chunk.toString('utf8')).split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) count(line);
    });
    child.on('close', (code, signal) => {
      if (pending) count(pending);
      resolve(code ?? signal);
    });
  });
}

const only = process.env.APIWB_TEST_STEPS?.split(',');
for (const [name, cmd, args] of steps) {
  if (only && !only.includes(name)) continue;
  console.log(`\n=== ${name} ===`);
  const started = Date.now();
  const status = await run(cmd, args);
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (status !== 0) {
    console.error(`\n=== ${name}: FAILED (exit ${status}) after ${seconds}s ===`);
    totals.failed = Math.max(totals.failed, 1);
    console.log(`\n${summary()}`);
    process.exit(1);
  }
  if (totals.skipped > 0) {
    // node --test exits 0 with skipped tests: here a skip means a suite did not run, which is a failure.
    console.error(`\n=== ${name}: FAILED: ${totals.skipped} test(s) skipped; every test must run (install what the skip names) ===`);
    console.log(`\n${summary()}`);
    process.exit(1);
  }
  console.log(`=== ${name}: ok (${seconds}s) ===`);
}
console.log(`\n${summary()}`);
const ranSuites = steps.some(([name]) => name.endsWith('suites') && (!only || only.includes(name)));
if (ranSuites && totals.passed === 0) {
  console.error('no test ran');
  process.exit(1);
}
