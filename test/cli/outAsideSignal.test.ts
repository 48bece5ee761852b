// Attack (review of the --out aside's signal listeners, fileSink.ts): `apiwb run --out` over an old file,
// stopped mid-body by SIGINT or SIGTERM while runCommand's own handler (flushThenDie) is registered too.
// The process must end BY the signal (not an exit code, not a hang), the old file said and kept.
// The test's own server on 127.0.0.1 port 0; the CLI as a child (src/cli/main.ts through tsx).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ROOT } from './cliProcess';
import { asideAndRows, asidesOf } from './outAside';
import { startLocalServer, type LocalServer } from './localServer';
import { padded } from './outFileRows';

const OLD = 'old rows: keep me\n';

void describe('--out aside: a signal ends the process by that signal', () => {
  let server: LocalServer;
  let stalled: (() => void) | undefined;
  before(async () => {
    server = await startLocalServer('apiwb-out-aside-signal-', (req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write(`[${padded(0, 40_000)},`);
      stalled?.();
    });
  });
  after(() => server.close());

  const cases = [
    { signal: 'SIGINT', extra: [] },
    { signal: 'SIGTERM', extra: [] },
    { signal: 'SIGINT', extra: ['--all-pages'] },
  ] as const;
  for (const { signal, extra } of cases) {
    void it(`${signal} ${extra.join(' ')}: ended by ${signal}, the old file said and kept`, async () => {
      const name = `${signal}${extra.join('').replace(/\W/g, '')}`;
      const out = join(server.dir, `${name}.out`);
      const file = join(server.dir, `${name}.http`);
      writeFileSync(file, 'GET {{base}}/stall\n');
      writeFileSync(out, OLD);
      const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'run', file, '--env', 'local', '--env-file', server.envFile, '--out', out, ...extra], { cwd: ROOT, env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      child.stdout.on('data', (c: Buffer) => { output += c.toString(); });
      child.stderr.on('data', (c: Buffer) => { output += c.toString(); });
      const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('exit', (code, sig) => resolve({ code, signal: sig })));
      await new Promise<void>((resolve) => { stalled = resolve; });
      await asideAndRows(out);
      child.kill(signal);
      // A hang is a failure too: at most 20 s after the signal, then the child is killed hard.
      const hard = setTimeout(() => child.kill('SIGKILL'), 20_000);
      const end = await exited;
      clearTimeout(hard);
      const mine = asidesOf(out);
      assert.deepEqual(end, { code: null, signal }, `ended ${JSON.stringify(end)} (a SIGKILL is a hang); printed: ${JSON.stringify(output)}`);
      assert.equal(mine.length, 1, JSON.stringify(mine));
      assert.equal(readFileSync(join(server.dir, mine[0]!), 'utf8'), OLD);
      assert.equal((output.match(/is kept at/g) ?? []).length, 1, `said once: ${JSON.stringify(output)}`);
    });
  }
});
