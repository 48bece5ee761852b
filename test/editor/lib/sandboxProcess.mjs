// The sandbox as a child process: `node dist/cli.js sandbox --json` prints one JSON line (the
// SandboxDescriptor of src/sandbox/descriptor.ts) once every service listens on 127.0.0.1.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { withTimeout } from './codeServer.mjs';

export class SandboxUnavailable extends Error {}

/**
 * @param {{ cli: string, args?: string[], readyTimeoutMs?: number }} options
 * @returns {Promise<{ descriptor: any, pid: number, stop: () => Promise<void> }>}
 */
export async function startSandbox({ cli, args = [], readyTimeoutMs = 60_000 }) {
  if (!existsSync(cli)) throw new SandboxUnavailable(`${cli} is missing (build first)`);
  const child = spawn(process.execPath, [cli, 'sandbox', '--json', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal)));
  let stderr = '';
  child.stderr.on('data', (chunk) => { stderr = (stderr + chunk).slice(-4000); });
  const firstLine = new Promise((resolve) => {
    let out = '';
    child.stdout.on('data', function onData(chunk) {
      out += chunk;
      const newline = out.indexOf('\n');
      if (newline >= 0) {
        child.stdout.off('data', onData);
        child.stdout.resume(); // keep draining; nothing else is expected
        resolve(out.slice(0, newline));
      }
    });
  });
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    }
  };
  try {
    const line = await withTimeout(
      Promise.race([firstLine, exited.then((code) => {
        if (/unknown command 'sandbox'/.test(stderr)) throw new SandboxUnavailable("this build's CLI has no `sandbox` subcommand yet");
        // The first error line says why; the whole stderr would bury the runner's output.
        const reason = stderr.split('\n').find((line) => /error/i.test(line)) ?? stderr.trim().split('\n')[0] ?? '';
        throw new Error(`the sandbox exited (${code}) before it was ready: ${reason.trim()}`);
      })]),
      readyTimeoutMs, 'the sandbox did not print its descriptor');
    return { descriptor: JSON.parse(line), pid: child.pid, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
