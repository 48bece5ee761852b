// A throw-away code-server: a fresh profile (user data, extensions, workspace copy), an offline VSIX
// install, and a server on 127.0.0.1 in its own process group that stop() ends (that group only).
import { spawn, execFile } from 'node:child_process';
import { createWriteStream, existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

// Keeps the offline workbench quiet: no update checks, no welcome page, no trust prompt, no AI.
export const QUIET_SETTINGS = {
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'update.mode': 'none',
  'workbench.startupEditor': 'none',
  'telemetry.telemetryLevel': 'off',
  'security.workspace.trust.enabled': false,
  'chat.disableAIFeatures': true,
  // The sample workspace sits inside this repository: no prompt to open the parent repository.
  'git.openRepositoryInParentFolders': 'never',
  'workbench.tips.enabled': false,
  // The chat side bar would take a third of every screenshot.
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
};

// No extension gallery: the workbench would otherwise reach out to open-vsx.org (loopback only here).
export const OFFLINE_ENV = { EXTENSIONS_GALLERY: '{}' };

/**
 * Creates the dirs a code-server needs. With `root` given (npm start) they persist there; otherwise
 * they live in a fresh temp folder that remove() deletes.
 */
export async function createProfile({ workspaceSource, root, workspace } = {}) {
  const base = root ?? (await mkdtemp(join(tmpdir(), 'apiwb-editor-')));
  const profile = {
    root: base,
    userData: join(base, 'user-data'),
    extensions: join(base, 'extensions'),
    workspace: workspace ?? join(base, 'workspace'),
    config: join(base, 'config.yaml'),
    remove: () => (root ? Promise.resolve() : rm(base, { recursive: true, force: true })),
  };
  await mkdir(join(profile.userData, 'User'), { recursive: true });
  await mkdir(profile.extensions, { recursive: true });
  const settings = join(profile.userData, 'User', 'settings.json');
  // A persistent profile keeps the user's own settings from the previous run.
  if (!root || !existsSync(settings)) await writeFile(settings, `${JSON.stringify(QUIET_SETTINGS, null, 2)}\n`);
  // An explicit config keeps code-server away from the user's own ~/.config/code-server.
  await writeFile(profile.config, 'auth: none\n');
  if (!workspace) await copyWorkspace(workspaceSource, profile.workspace);
  return profile;
}

/**
 * A fresh copy of the sample workspace at `target` (an empty folder without a source), without the env
 * files a local `npm start` left behind: each run writes its own.
 */
export async function copyWorkspace(workspaceSource, target) {
  const localOnly = /http-client(\.private)?\.env\.json$/;
  if (workspaceSource) await cp(workspaceSource, target, { recursive: true, filter: (path) => !localOnly.test(path) });
  else await mkdir(target, { recursive: true });
  return target;
}

/** Installs the VSIX offline into the profile's extensions dir; returns the unpacked extension folder. */
export async function installVsix({ node, codeServer, profile, vsix, extensionId }) {
  await run(node, [codeServer, '--install-extension', vsix, '--force', '--extensions-dir', profile.extensions, '--user-data-dir', profile.userData]);
  const folder = (await readdir(profile.extensions)).find((name) => name.toLowerCase().startsWith(`${extensionId.toLowerCase()}-`));
  if (!folder) throw new Error(`code-server installed ${vsix} but no ${extensionId}-* folder appeared in ${profile.extensions}`);
  return join(profile.extensions, folder);
}

/**
 * Starts code-server on 127.0.0.1 (port 0 = the OS picks a free one; the real port is read from its
 * log) and resolves once GET /healthz answers 200.
 * @returns {Promise<{ baseUrl: string, port: number, pid: number, stop: () => Promise<void> }>}
 */
export async function startCodeServer({ node, codeServer, profile, port = 0, env = {}, logFile, smokeTestDriver = false, readyTimeoutMs = 60_000 }) {
  const args = [
    codeServer, '--auth', 'none', '--bind-addr', `127.0.0.1:${port}`, '--config', profile.config,
    '--user-data-dir', profile.userData, '--extensions-dir', profile.extensions,
    '--disable-telemetry', '--disable-update-check', '--disable-workspace-trust',
    // code-server rejects the bare flag; without it the workbench ignores the test `payload`.
    ...(smokeTestDriver ? ['--vscode-option', 'enable-smoke-test-driver'] : []),
    profile.workspace,
  ];
  const log = logFile ? createWriteStream(logFile, { flags: 'a' }) : undefined;
  // detached: its own process group, so stop() can end code-server and its extension hosts together.
  const child = spawn(node, args, { detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...OFFLINE_ENV, ...env } });
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal)));
  let tail = '';
  const listening = new Promise((resolve) => {
    const onData = (chunk) => {
      log?.write(chunk);
      tail = (tail + chunk).slice(-4000);
      const match = tail.match(/HTTP server listening on http:\/\/127\.0\.0\.1:(\d+)/);
      if (match) resolve(Number(match[1]));
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
  });

  let stopped;
  const stop = () => {
    stopped ??= (async () => {
      if (child.exitCode === null && child.signalCode === null) {
        signalGroup(child.pid, 'SIGTERM');
        const timer = setTimeout(() => signalGroup(child.pid, 'SIGKILL'), 5_000);
        await exited;
        clearTimeout(timer);
      }
      // Extension hosts may outlive the server process by a moment; the group is ours alone.
      signalGroup(child.pid, 'SIGKILL');
      log?.end();
    })();
    return stopped;
  };

  try {
    const actualPort = await withTimeout(
      Promise.race([listening, exited.then((code) => { throw new Error(`code-server exited (${code}) before listening:\n${tail}`); })]),
      readyTimeoutMs, 'code-server did not start listening');
    const baseUrl = `http://127.0.0.1:${actualPort}`;
    await withTimeout(waitForHealthz(baseUrl, exited), readyTimeoutMs, `${baseUrl}/healthz never answered 200`);
    return { baseUrl, port: actualPort, pid: child.pid, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

function signalGroup(pid, signal) {
  try { process.kill(-pid, signal); } catch { /* the group is already gone */ }
}

async function waitForHealthz(baseUrl, exited) {
  let gone = false;
  void exited.then(() => { gone = true; });
  for (;;) {
    if (gone) throw new Error('code-server exited while starting');
    try {
      const response = await fetch(`${baseUrl}/healthz`);
      if (response.status === 200) return;
    } catch { /* not accepting connections yet */ }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export function withTimeout(promise, ms, message) {
  let timer;
  const timeout = new Promise((_, reject) => { timer = setTimeout(() => reject(new Error(`${message} within ${ms / 1000}s`)), ms); });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
