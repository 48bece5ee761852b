// The real-editor tests: installs (once, cached outside the clone) Node 24 and code-server, installs
// the built VSIX into a throw-away profile, starts code-server on 127.0.0.1, then runs
//   a. the extension-host suites (mocha, real `vscode` API; test/editor/suite, bundled to out/editor-suite)
//   b. the UI suites (Playwright driving /usr/bin/chromium; test/ui/*.ui.mjs)
// and prints every test. Exits non-zero on any failure or when no test ran. Stops only what it started.
//
// Usage: node test/editor/run.mjs [--only=editor|ui] [--grep=TEXT]
// Needs dist/api-workbench.vsix (node scripts/package.mjs). Logs: test-output/editor/, PNGs: test-output/screenshots/.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { installEditor } from './lib/editorInstall.mjs';
import { copyWorkspace, createProfile, installVsix, startCodeServer } from './lib/codeServer.mjs';
import { launchChromium } from './lib/browser.mjs';
import { runExtensionHostSuites } from './lib/extensionHostPhase.mjs';
import { loadUiTests, runUiSuites } from './lib/uiPhase.mjs';
import { parseResultLines, printResults } from './lib/results.mjs';
import { checkSuiteListing, ensureSuiteBundle, newestMtime } from './lib/suiteBundle.mjs';
import { startSandbox } from './lib/sandboxProcess.mjs';
import { sandboxSecretNeedles, secretScanResult, snapshotFiles } from './lib/secretScan.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const EXTENSION_ID = 'api-workbench.api-workbench';
const paths = {
  vsix: join(root, 'dist/api-workbench.vsix'),
  suiteSources: join(root, 'test/editor/suite'),
  suiteEntry: join(root, 'out/editor-suite/index.js'),
  uiTests: join(root, 'test/ui'),
  workspace: join(root, 'samples/workspace'),
  logs: join(root, 'test-output/editor'),
  screenshots: join(root, 'test-output/screenshots'),
};

const arg = (name) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const only = arg('only');
const grep = arg('grep');
const phases = { editor: only !== 'ui', ui: only !== 'editor' };

// Everything started here, ended in reverse by cleanup() on success, failure and Ctrl-C alike.
const started = { profile: undefined, sandbox: undefined, server: undefined, browser: undefined };
let cleaning;
function cleanup() {
  cleaning ??= (async () => {
    await started.browser?.close().catch(() => {});
    await started.server?.stop();
    await started.sandbox?.stop();
    await started.profile?.remove().catch(() => {});
  })();
  return cleaning;
}
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    console.error(`\neditor tests: ${signal}, stopping what was started`);
    void cleanup().finally(() => process.exit(130));
  });
}

const seconds = (since) => `${((Date.now() - since) / 1000).toFixed(1)}s`;

async function main() {
  const t0 = Date.now();
  if (!existsSync(paths.vsix)) throw new Error(`${relative(root, paths.vsix)} is missing: run node scripts/package.mjs first`);
  warnIfStale(paths.vsix, join(root, 'src'));
  checkSuiteListing(paths.suiteSources);
  if (phases.editor) ensureSuiteBundle(root, paths.suiteSources, paths.suiteEntry);
  const uiTests = phases.ui ? await loadUiTests(paths.uiTests, grep) : [];
  const extras = phases.ui ? { catalog: loadCatalog() } : {};

  await rm(paths.logs, { recursive: true, force: true });
  await rm(paths.screenshots, { recursive: true, force: true });
  await mkdir(paths.logs, { recursive: true });

  const { node, codeServer } = await installEditor();
  console.log(`editor: install ready (${seconds(t0)})`);

  started.profile = await createProfile({ workspaceSource: paths.workspace });
  const extensionPath = await installVsix({ node, codeServer, profile: started.profile, vsix: paths.vsix, extensionId: EXTENSION_ID });
  // What the installer wrote, so the secret scan can tell the package's own files from what the product wrote.
  const installed = await snapshotFiles(started.profile.extensions);
  const installedFile = join(paths.logs, 'installed-files.json');
  writeFileSync(installedFile, JSON.stringify(installed));
  // The UI suites get a workspace of their own, so they start as a user's first session does: no editors,
  // recently opened files or view state left by the extension-host suites (code-server keeps those per folder).
  uiWorkspace = await copyWorkspace(paths.workspace, join(started.profile.root, 'ui-workspace'));
  const sandbox = await startTestSandbox([started.profile.workspace, uiWorkspace]);
  const resultsFile = join(paths.logs, 'editor-results.ndjson');
  // The extension host inherits code-server's environment: that is how the suite learns where to write.
  started.server = await startCodeServer({
    node, codeServer, profile: started.profile, smokeTestDriver: true, logFile: join(paths.logs, 'code-server.log'),
    env: {
      APIWB_EDITOR_RESULTS: resultsFile,
      // The development path below IS the installed VSIX's folder: one copy, and it is what ships.
      APIWB_EXPECTED_EXTENSION_PATH: extensionPath,
      ...(grep ? { APIWB_EDITOR_GREP: grep } : {}),
      // For suites that sign in: the descriptor (with the sandbox's demo credentials) lives in the
      // environment only, never in a file.
      ...(sandbox ? { APIWB_TEST_SANDBOX: JSON.stringify(sandbox.descriptor) } : {}),
      // Where the product may write, for the suite's in-process scan for the tokens it obtained.
      APIWB_TEST_SCAN_DIRS: JSON.stringify(productDirs(started.profile)),
      APIWB_TEST_INSTALLED_FILES: installedFile,
    },
  });
  console.log(`editor: code-server ${started.server.baseUrl} (pid group ${started.server.pid}), VSIX installed at ${extensionPath} (${seconds(t0)})`);
  started.browser = await launchChromium();

  let failed = 0;
  let ran = 0;
  if (phases.editor) {
    const t1 = Date.now();
    let exitCode;
    let results = [];
    try {
      ({ exitCode, results } = await runExtensionHostSuites({
        browser: started.browser, server: started.server, workspace: started.profile.workspace,
        extensionPath, suiteEntry: paths.suiteEntry, resultsFile, logFile: join(paths.logs, 'extension-host.log'),
        // Every suite together, the 52 MB response of largeResponse.test.ts included, on 2 shared cores.
        timeoutMs: 240_000,
      }));
    } catch (error) {
      // E.g. the suite never reported back: count it as a failure and still run the UI suites.
      console.log(`editor: ${error?.message ?? error}`);
      exitCode = 1;
      if (existsSync(resultsFile)) results = parseResultLines(readFileSync(resultsFile, 'utf8'));
    }
    const counts = printResults('editor', results);
    console.log(`editor: extension-host suites exited with ${exitCode} after ${seconds(t1)}`);
    ran += results.length;
    // A pending (skipped) mocha test did not run: that is a failure here, as in scripts/test.mjs.
    failed += counts.failed + counts.skipped;
    if (exitCode !== 0 && counts.failed === 0) {
      failed += 1;
      console.log(`editor: the suite failed outside any test: see ${relative(root, join(paths.logs, 'extension-host.log'))}`);
    }
  }
  if (phases.ui) {
    const t2 = Date.now();
    const results = await runUiSuites({
      browser: started.browser, server: started.server, workspace: uiWorkspace, tests: uiTests,
      screenshotsDir: paths.screenshots, logFile: join(paths.logs, 'ui.log'),
      extras: { ...extras, sandbox: sandbox?.descriptor, requireSandbox: () => requireSandbox(sandbox) },
    });
    const counts = printResults('ui', results);
    console.log(`ui: ${results.length} test(s) in ${seconds(t2)}`);
    ran += results.length;
    failed += counts.failed + counts.skipped;
  }

  if (sandbox && ran > 0) {
    // Issue 4: after everything ran, no file the product (or this harness) wrote holds a sandbox secret.
    const result = await secretScanResult({ dirs: [...productDirs(started.profile), paths.logs], needles: sandboxSecretNeedles(sandbox.descriptor), installed });
    failed += printResults('secrets', [result]).failed;
  }

  console.log(`\nlogs: ${relative(root, paths.logs)}/  screenshots: ${relative(root, paths.screenshots)}/  total ${seconds(t0)}`);
  if (ran === 0) throw new Error('no test ran');
  return failed === 0 ? 0 : 1;
}

/**
 * Starts the sandbox (when this build has one) and writes its addresses into the test workspace's
 * http-client.env.json, as `npm start` does. A sandbox that fails to start fails only the tests that
 * need it (ctx.requireSandbox() / testSandbox()), with the reason printed here.
 */
async function startTestSandbox(workspaces) {
  if (!existsSync(join(root, 'src/sandbox'))) return undefined;
  try {
    // The sandbox writes its environment into the first workspace's env file itself (--write-env-file).
    const envFile = join(workspaces[0], 'http-client.env.json');
    started.sandbox = await startSandbox({ cli: join(root, 'dist/cli.js'), args: ['--write-env-file', envFile] });
    for (const other of workspaces.slice(1)) copyFileSync(envFile, join(other, 'http-client.env.json'));
  } catch (error) {
    sandboxProblem = error?.message ?? String(error);
    console.warn(`editor: warning: no sandbox for the tests: ${sandboxProblem}`);
    return undefined;
  }
  const { descriptor } = started.sandbox;
  console.log(`editor: sandbox on ${descriptor.engagement.baseUrl}, ${descriptor.fundraising.baseUrl}, ${descriptor.booking.baseUrl}`);
  return started.sandbox;
}

/** Every folder the product may write to: both workspaces (apiwb-results/ too), user data (logs, storage), extensions. */
function productDirs(profile) {
  return [profile.workspace, uiWorkspace, profile.userData, profile.extensions].filter(Boolean);
}

let uiWorkspace;
let sandboxProblem = 'this build has no sandbox (src/sandbox)';
function requireSandbox(sandbox) {
  if (!sandbox) throw new Error(`this test needs the sandbox, which did not start: ${sandboxProblem}`);
  return sandbox.descriptor;
}

function warnIfStale(file, sources) {
  if (newestMtime(sources) > statSync(file).mtimeMs) {
    console.warn(`editor: warning: ${relative(root, file)} is older than src/: the tests run the old build (node scripts/package.mjs)`);
  }
}

/**
 * The catalog, from its TypeScript source through tsx in a child node: the UI tests' expected tree
 * content as plain data ({ services: [{ id, title, families: [{ name, operations: [name] }] }] }).
 */
function loadCatalog() {
  const script = `import('./src/core/catalog/index.ts').then((m) => {
    const services = (m.createCatalog ?? m.default.createCatalog)().services.map((s) => ({ id: s.id, title: s.title,
      families: s.families.map((f) => ({ name: f.name, operations: f.operations.map((o) => o.name) })) }));
    process.stdout.write(JSON.stringify({ services }));
  })`;
  const result = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: root, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`loading the catalog for the UI tests failed:\n${result.stderr}`);
  const catalog = JSON.parse(result.stdout);
  catalog.service = (id) => catalog.services.find((s) => s.id === id) ?? (() => { throw new Error(`no service ${id}`); })();
  return catalog;
}

let code = 1;
try {
  code = await main();
} catch (error) {
  // Programming errors get their stack; the runner's own refusals (missing VSIX, unlisted suite, ...) read better without.
  const bug = error instanceof TypeError || error instanceof ReferenceError || error instanceof SyntaxError;
  console.error(`\neditor tests: ${bug ? error.stack : (error?.message ?? error)}`);
  code = 1;
} finally {
  await cleanup();
}
process.exit(code);
