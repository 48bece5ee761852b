// `apiwb run` stopped by Ctrl-C or a kill while its output goes to a pipe: the lines of the requests that
// had finished are written before it ends (they are gathered for a few ms to a pipe, see lineWriter).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildCli } from './sandboxEnv';

void describe('apiwb run interrupted', () => {
  let dir: string;
  let cli: string;
  let server: Server;
  /** Called when the request that never gets an answer arrives: the ones before it have finished by then. */
  let onHang = (): void => undefined;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'apiwb-interrupt-'));
    cli = await buildCli(dir);
    server = createServer((req, res) => {
      if (req.url === '/hang') { onHang(); return; } // never answered
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const port = (server.address() as AddressInfo).port;
    writeFileSync(join(dir, 'http-client.env.json'), JSON.stringify({ local: { base: `http://127.0.0.1:${port}` } }));
    // Three quick answers in a row: the first line is written at once, the next two are gathered (to a pipe).
    const fast = ['first', 'second', 'third'].map((name) => `# @name ${name}\nGET {{base}}/fast\n`);
    writeFileSync(join(dir, 'four.http'), [...fast, '# @name fourth\nGET {{base}}/hang\n'].join('\n###\n'));
  });
  after(() => {
    server.closeAllConnections();
    server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    void it(`${signal}: every finished request's line is on the pipe, and the process ends by the signal`, async () => {
      const hanging = new Promise<void>((resolve) => { onHang = resolve; });
      const child = spawn(process.execPath, [cli, 'run', 'four.http', '--env', 'local', '--timeout', '60000'], { cwd: dir, env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => { stdout += chunk; });
      const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
      await hanging;
      child.kill(signal);
      const [code, gotSignal] = await exited;
      assert.equal(gotSignal, signal, `ended by ${signal}, not exit ${code}`);
      for (const name of ['first', 'second', 'third']) assert.match(stdout, new RegExp(`^✓ ${name} .*200`, 'm'), `the line of '${name}' was lost: ${JSON.stringify(stdout)}`);
      assert.doesNotMatch(stdout, /fourth/);
    });
  }
});
