// Invariant (a) and spill.ts's own word: a body not held goes to a 0600 file of the OS temp folder,
// "removed once examined, and at the latest when the process exits". A run ended by SIGINT or SIGTERM
// removes it; one ended by SIGHUP (the terminal closed, an ssh session dropped: the usual end of a long
// `apiwb run` left in a terminal) leaves the body, which may hold secrets, in the temp folder for good.
// The rule now: the signals that end a run are one list (src/core/endingSignals.ts), and spill.ts, like
// every other cleanup, listens for each of them; the signal then still ends the process as it would have.
// A child process of the test's own opens a spill, writes to it, says its path, then is sent the signal.
// (SIGQUIT is on the list too; not sent here, where it may leave a core file in the working folder.)
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';

const ROOT = join(__dirname, '..', '..');
const CHILD = `
const { openSpill } = require(${JSON.stringify(join(ROOT, 'src/core/json/spill.ts'))});
openSpill().then(async (spill) => {
  await spill.write(Buffer.from('{"token":"a body that may hold secrets"}'));
  process.stdout.write(spill.path + '\\n');
  setInterval(() => undefined, 1000);
});
`;

async function spillLeftAfter(signal: NodeJS.Signals): Promise<{ path: string; endedBy: NodeJS.Signals | null }> {
  const child = spawn(process.execPath, ['--import', 'tsx', '-e', CHILD], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  const path = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      if (out.includes('\n')) resolve(out.trim());
    });
    child.on('exit', () => reject(new Error(`the child ended first: ${out}`)));
  });
  assert.ok(existsSync(path), 'the spill file was not made');
  const ended = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, by) => resolve(by)));
  child.kill(signal);
  return { path, endedBy: await ended };
}

void describe('a spill file when the process is ended by a signal', () => {
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    void it(`${signal}: the body's file and folder are removed, and the signal still ends the process`, async () => {
      const { path, endedBy } = await spillLeftAfter(signal);
      const left = existsSync(path);
      rmSync(dirname(path), { recursive: true, force: true });
      assert.ok(!left, `${path} was left behind after ${signal}`);
      assert.equal(endedBy, signal, 'the process was not ended by the signal sent');
    });
  }
});
