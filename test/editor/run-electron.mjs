// The same extension-host suites (out/editor-suite/index.js) under @vscode/test-electron, for machines
// that can download VS Code (or that have one: APIWB_VSCODE_EXECUTABLE=/path/to/code). The extension
// under test is the built VSIX, unpacked, exactly as with the code-server runner.
//
// Usage: node test/editor/run-electron.mjs [--grep=TEXT] [--dry-run]
// On Linux without a display, run it under `xvfb-run -a`. Where VS Code cannot be downloaded
// (these build machines reach only the npm registry), use `npm run test:editor` (code-server).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { downloadAndUnzipVSCode, runTests } from '@vscode/test-electron';
import { createProfile } from './lib/codeServer.mjs';
import { parseResultLines, printResults } from './lib/results.mjs';
import { checkSuiteListing, ensureSuiteBundle } from './lib/suiteBundle.mjs';
import { startSandbox } from './lib/sandboxProcess.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const vsix = join(root, 'dist/api-workbench.vsix');
const suiteSources = join(root, 'test/editor/suite');
const suiteEntry = join(root, 'out/editor-suite/index.js');
const logs = join(root, 'test-output/editor-electron');
const grep = process.argv.find((a) => a.startsWith('--grep='))?.slice('--grep='.length);
const dryRun = process.argv.includes('--dry-run');

async function main() {
  if (!existsSync(vsix)) throw new Error(`${relative(root, vsix)} is missing: run node scripts/package.mjs first`);
  checkSuiteListing(suiteSources);
  ensureSuiteBundle(root, suiteSources, suiteEntry);
  await rm(logs, { recursive: true, force: true });
  await mkdir(logs, { recursive: true });

  if (!dryRun && process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) {
    console.warn('electron: warning: no DISPLAY; VS Code needs one (xvfb-run -a npm run test:electron)');
  }
  // First the editor (download or given path): without it nothing else is worth starting.
  const vscodeExecutablePath = dryRun ? undefined : await vscodeExecutable();
  const profile = await createProfile({ workspaceSource: join(root, 'samples/workspace') });
  let sandbox;
  try {
    sandbox = await startSuiteSandbox(profile.workspace);
    // The unpacked VSIX is the extension under development: the tests run what ships.
    const unpacked = join(profile.root, 'vsix');
    execFileSync('unzip', ['-q', vsix, 'extension/*', '-d', unpacked]);
    const extensionPath = join(unpacked, 'extension');
    const resultsFile = join(logs, 'editor-results.ndjson');
    const options = {
      extensionDevelopmentPath: extensionPath,
      extensionTestsPath: suiteEntry,
      extensionTestsEnv: {
        APIWB_EDITOR_RESULTS: resultsFile,
        APIWB_EXPECTED_EXTENSION_PATH: extensionPath,
        ...(grep ? { APIWB_EDITOR_GREP: grep } : {}),
        ...(sandbox ? { APIWB_TEST_SANDBOX: JSON.stringify(sandbox.descriptor) } : {}),
      },
      launchArgs: [
        profile.workspace,
        '--disable-extensions', // every other extension; the one under development still loads
        `--user-data-dir=${profile.userData}`,
        `--extensions-dir=${profile.extensions}`,
        '--disable-workspace-trust',
        '--skip-welcome',
        '--skip-release-notes',
      ],
    };
    if (dryRun) {
      console.log(JSON.stringify({ ...options, vscode: process.env.APIWB_VSCODE_EXECUTABLE ?? `download ${process.env.APIWB_VSCODE_VERSION ?? 'stable'}` }, null, 2));
      return 0;
    }
    let exitCode;
    try {
      exitCode = await runTests({ ...options, vscodeExecutablePath });
    } catch (error) {
      // runTests rejects when the suite's run() rejects (a failed test) as well as when VS Code fails to start.
      console.error(`electron: ${error?.message ?? error}`);
      exitCode = 1;
    }
    const results = existsSync(resultsFile) ? parseResultLines(readFileSync(resultsFile, 'utf8')) : [];
    const { failed, skipped } = printResults('editor', results);
    console.log(`electron: results in ${relative(root, resultsFile)}`);
    if (results.length === 0) {
      console.error('electron: no test ran');
      return 1;
    }
    return exitCode === 0 && failed === 0 && skipped === 0 ? 0 : 1;
  } finally {
    await sandbox?.stop();
    await profile.remove();
  }
}

/** As in run.mjs: the sandbox, when this build has one, with its addresses in the workspace env file. */
async function startSuiteSandbox(workspace) {
  if (dryRun || !existsSync(join(root, 'src/sandbox'))) return undefined;
  try {
    return await startSandbox({ cli: join(root, 'dist/cli.js'), args: ['--write-env-file', join(workspace, 'http-client.env.json')] });
  } catch (error) {
    console.warn(`electron: warning: no sandbox for the tests: ${error?.message ?? error}`);
    return undefined;
  }
}

/** A local VS Code when given, else a downloaded one; offline, a clear message instead of a stack trace. */
async function vscodeExecutable() {
  const given = process.env.APIWB_VSCODE_EXECUTABLE;
  if (given) {
    if (!existsSync(given)) throw new Error(`APIWB_VSCODE_EXECUTABLE=${given} does not exist`);
    return given;
  }
  const version = process.env.APIWB_VSCODE_VERSION ?? 'stable';
  try {
    return await downloadAndUnzipVSCode({ version, timeout: 30_000 });
  } catch (error) {
    throw new Error(
      `could not download VS Code ${version} (${error?.message ?? error}).\n` +
      'This machine cannot reach the VS Code download servers. Run the same suites inside code-server with\n' +
      '  npm run test:editor\n' +
      'or point APIWB_VSCODE_EXECUTABLE at an installed VS Code (the `code` binary of a local install).',
    );
  }
}

try {
  process.exitCode = await main();
} catch (error) {
  console.error(`electron: ${error?.message ?? error}`);
  process.exitCode = 1;
}
