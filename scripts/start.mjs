// `npm start`: builds the bundles and the VSIX, starts the sandbox (the embedded default), writes its
// addresses into the sample workspace's http-client.env.json, and opens a real editor on that
// workspace with the extension installed: code-server on 127.0.0.1 (PORT, or a free port), or the
// desktop `code` when APIWB_USE_DESKTOP=1 and it is on PATH. Ctrl-C stops everything it started.
// `npm start -- --no-build` skips the build when dist/api-workbench.vsix exists.
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { installEditor } from '../test/editor/lib/editorInstall.mjs';
import { createProfile, installVsix, startCodeServer } from '../test/editor/lib/codeServer.mjs';
import { SandboxUnavailable, startSandbox } from '../test/editor/lib/sandboxProcess.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const workspace = join(root, 'samples/workspace');
const vsix = join(root, 'dist/api-workbench.vsix');
// The workspace's env file takes the sandbox's "sandbox" environment (it is git-ignored: the addresses
// change every run). The sandbox writes it itself (`apiwb sandbox --write-env-file`), as README's CLI
// section has the user do: the editor and the CLI read one file.
const workspaceEnvFile = join(workspace, 'http-client.env.json');
const cacheRoot = join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'api-workbench');

const running = [];
let stopping;
function stopAll() {
  stopping ??= Promise.all(running.reverse().map((stop) => stop().catch(() => {})));
  return stopping;
}
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    console.log('\nstart: stopping the editor and the sandbox');
    void stopAll().finally(() => process.exit(0));
  });
}

async function main() {
  if (process.argv.includes('--no-build') && existsSync(vsix)) {
    console.log(`start: --no-build: using ${relative(root, vsix)} and dist/ as they are`);
  } else {
    console.log('start: building the bundles and the VSIX (node scripts/package.mjs runs scripts/build.mjs --production)');
    execFileSync(process.execPath, ['scripts/package.mjs'], { cwd: root, stdio: 'inherit' });
  }

  const sandbox = await startSandboxIfPresent();
  copySampleCollection();
  const desktop = process.env.APIWB_USE_DESKTOP === '1' && hasCommand('code');
  if (process.env.APIWB_USE_DESKTOP === '1' && !desktop) console.log('start: APIWB_USE_DESKTOP=1 but no `code` on PATH; using code-server');

  let url;
  if (desktop) {
    execFileSync('code', ['--install-extension', vsix, '--force'], { stdio: 'inherit' });
    execFileSync('code', [workspace], { stdio: 'inherit' });
    url = `desktop VS Code on ${relative(root, workspace)}`;
  } else {
    const { node, codeServer } = await installEditor({ browser: false });
    // A persistent profile: settings, sign-in state and the secret storage's key half survive restarts.
    const profile = await createProfile({ root: join(cacheRoot, 'start-profile'), workspace });
    await installVsix({ node, codeServer, profile, vsix, extensionId: 'api-workbench.api-workbench' });
    const port = Number(process.env.PORT ?? 0);
    const server = await startCodeServer({ node, codeServer, profile, port, logFile: join(profile.root, 'code-server.log') });
    running.push(server.stop);
    url = `${server.baseUrl}/?folder=${encodeURIComponent(workspace)}`;
    console.log(`start: code-server log: ${join(profile.root, 'code-server.log')}`);
  }

  console.log('\n  API Workbench is running.');
  console.log(`  Open: ${url}`);
  if (sandbox) printCredentialsHint(sandbox.descriptor);
  console.log('\n  Ctrl-C stops the editor and the sandbox.\n');
  if (desktop && !sandbox) return;
  await new Promise(() => {}); // until a signal
}

async function startSandboxIfPresent() {
  if (!existsSync(join(root, 'src/sandbox'))) {
    console.log('start: no sandbox in this build (src/sandbox is missing); the editor starts without one');
    return undefined;
  }
  try {
    const sandbox = await startSandbox({ cli: join(root, 'dist/cli.js'), args: ['--write-env-file', workspaceEnvFile] });
    running.push(sandbox.stop);
    console.log(`start: wrote the "sandbox" environment (addresses, no secret) into ${relative(root, workspaceEnvFile)}`);
    // The sandbox's next release beside it, for Compare Environments… and `apiwb compare`.
    const next = await startSandbox({ cli: join(root, 'dist/cli.js'), args: ['--release', 'next', '--write-env-file', workspaceEnvFile] });
    running.push(next.stop);
    console.log(`start: wrote the "sandbox-next" environment (the sandbox's next release) into ${relative(root, workspaceEnvFile)}`);
    return sandbox;
  } catch (error) {
    if (error instanceof SandboxUnavailable) console.log(`start: no sandbox: ${error.message}; the editor starts without one`);
    else console.error(`start: WARNING: the sandbox failed to start; the editor starts without one.\n${error?.message ?? error}`);
    return undefined;
  }
}

/** The sample collection, so the editor's Requests view shows one request per service and paging style. */
function copySampleCollection() {
  const target = join(workspace, 'collections', 'samples');
  cpSync(join(root, 'samples/collections'), target, { recursive: true, filter: (path) => !path.endsWith('http-client.env.json') });
  console.log(`start: copied the sample collection into ${relative(root, target)} (ignored by git at the repository root only, so Quick Open finds it)`);
}

// The sandbox's published demo accounts (fixtures of a local simulator, in its source): shown in this
// terminal so the user can sign in; never written to a file.
function printCredentialsHint(d) {
  const e = d.credentials.engagement;
  const f = d.credentials.fundraising;
  console.log('\n  Sandbox (local simulator, environment "sandbox" of http-client.env.json):');
  console.log(`    customer-engagement  ${d.engagement.baseUrl}  sign in as ${e.username} / ${e.password}`);
  console.log(`    fundraising          ${d.fundraising.baseUrl}  Basic ${f.fullAccess.permissionName} / ${f.fullAccess.serviceKey}, X-API-Key ${f.tenantCode}`);
  console.log(`    booking              ${d.booking.baseUrl}  (no authentication)`);
  console.log('    Enter these in the editor\'s sign-in prompts: they are kept in its secret storage, not in files.');
}

function hasCommand(name) {
  return spawnSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' }).status === 0;
}

try {
  await main();
} catch (error) {
  console.error(`start: ${error?.stack ?? error}`);
  await stopAll();
  process.exit(1);
}
