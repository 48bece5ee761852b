// Adversarial review (revf): `--format json` of a single response now streams its rows to the file as they
// arrive. A run stopped (Ctrl-C, SIGINT) while the body arrives leaves at --out a JSON array with no closing
// bracket: a file that is not JSON (the file that was there waits under a hidden name). Before this branch
// (main 74bb245) the single response was written at its end: a stop mid-body left the old file in place.
// NDJSON and CSV stopped mid-body are files of whole lines; a JSON array is only JSON once closed.
// The CLI runs as a child (src/cli/main.ts through tsx); the server is the test's own on 127.0.0.1, port 0.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ROOT } from './cliProcess';
import { padded } from './outFileRows';
import { startLocalServer, type LocalServer } from './localServer';

const FIRST = `[${padded(0, 20_000)}]`.slice(0, 1_600_000);

void describe('review revf: --format json stopped by SIGINT while the body arrives', () => {
  let server: LocalServer;
  before(async () => {
    // About 1.6 MB of the array, then nothing more until the client goes.
    server = await startLocalServer('apiwb-revf-jsonstop-', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write(FIRST);
    });
  });
  after(() => server.close());

  void it('the file at --out is JSON after the stop (the old one, or an array of the rows received)', async () => {
    const file = join(server.dir, 'stop.http');
    writeFileSync(file, 'GET {{base}}/stop\n');
    const out = join(server.dir, 'stop.json');
    const yesterday = '[{"yesterday":1}]\n';
    writeFileSync(out, yesterday);
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'run', file, '--env', 'local', '--env-file', server.envFile, '--out', out, '--format', 'json', '--timeout', '20000'], { cwd: ROOT, env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => { stderr += d.toString(); });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code, signal) => resolve(code ?? (signal ? -1 : null))));
    // Until the run has written rows at --out (the new file replaced yesterday's), or at most about 15 s.
    let wrote = false;
    for (let tries = 0; tries < 1_500 && !wrote; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      wrote = existsSync(out) && statSync(out).size > yesterday.length && readFileSync(out, 'utf8') !== yesterday;
    }
    child.kill('SIGINT');
    await exited;
    const text = readFileSync(out, 'utf8');
    let parsed: unknown;
    assert.doesNotThrow(() => { parsed = JSON.parse(text); }, `the file at --out is JSON (wrote before the stop: ${wrote}); it ends ${JSON.stringify(text.slice(-30))}; stderr: ${stderr.slice(0, 300)}`);
    assert.ok(Array.isArray(parsed));
  });
});
