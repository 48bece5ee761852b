// Runs install-editor.sh (idempotent: a no-op once the cache holds the pinned versions) and returns
// the Node 24 binary and code-server entry it installed.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const script = fileURLToPath(new URL('../install-editor.sh', import.meta.url));
export const CHROMIUM = '/usr/bin/chromium';

/** @returns {Promise<{ node: string, codeServer: string }>} */
export async function installEditor({ browser = true } = {}) {
  // The tests drive Debian's chromium; `npm start` needs no browser of ours.
  if (browser && !existsSync(CHROMIUM)) {
    spawnSync('bash', [fileURLToPath(new URL('../../../scripts/ensure-debian-packages.sh', import.meta.url)), 'chromium'], { stdio: 'inherit' });
  }
  if (browser && !existsSync(CHROMIUM)) {
    throw new Error(`${CHROMIUM} is missing: install Debian's chromium (apt-get install -y chromium), or run .ci/run`);
  }
  const stdout = await new Promise((resolve, reject) => {
    // stderr goes to the terminal: the first install takes minutes and should show its progress.
    const child = spawn('bash', [script], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk) => { out += chunk; });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`install-editor.sh failed (exit ${code})`))));
  });
  const value = (key) => stdout.match(new RegExp(`^${key}=(.+)$`, 'm'))?.[1];
  const node = value('NODE24');
  const codeServer = value('CODE_SERVER');
  if (!node || !codeServer || !existsSync(node) || !existsSync(codeServer)) {
    throw new Error(`install-editor.sh did not report an installed Node 24 and code-server:\n${stdout}`);
  }
  return { node, codeServer };
}
