// `--format json` stopped (SIGINT, SIGTERM) while the body arrives: the file at --out is a JSON array that
// parses, of whole rows (jsonArraySink.ts ends it after the rows kept; fileSink.ts's stop path): a single
// response's rows written so far, each as the service sent it; a walk's (--all-pages) pages kept (the page
// still arriving is not kept: none here, so `[]`). The file that was there is said and kept aside.
// The CLI runs as a child (src/cli/main.ts through tsx); the server is the test's own on 127.0.0.1, port 0.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ROOT } from './cliProcess';
import { oracle, padded } from './outFileRows';
import { startLocalServer, type LocalServer } from './localServer';

const ALL = `[${padded(0, 20_000)}]`;
const FIRST = ALL.slice(0, 1_600_000);

void describe('--format json stopped while the body arrives', () => {
  let server: LocalServer;
  before(async () => {
    // About 1.6 MB of the array, then nothing more until the client goes.
    server = await startLocalServer('apiwb-out-json-stop-', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write(FIRST);
    });
  });
  after(() => server.close());

  const cases = [
    { signal: 'SIGINT', extra: [] },
    { signal: 'SIGTERM', extra: [] },
    { signal: 'SIGINT', extra: ['--all-pages'] },
  ] as const;
  for (const { signal, extra } of cases) {
    void it(`${signal} ${extra.join(' ')}: the file at --out is a JSON array of whole rows`, async () => {
      const name = `${signal}${extra.join('').replace(/\W/g, '')}`;
      const file = join(server.dir, `${name}.http`);
      writeFileSync(file, 'GET {{base}}/stop\n');
      const out = join(server.dir, `${name}.json`);
      const yesterday = '[{"yesterday":1}]\n';
      writeFileSync(out, yesterday);
      const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'run', file, '--env', 'local', '--env-file', server.envFile, '--out', out, '--format', 'json', '--timeout', '20000', ...extra], { cwd: ROOT, env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => { stderr += d.toString(); });
      const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('exit', (code, sig) => resolve({ code, signal: sig })));
      // Until the run has written rows at --out (the new file replaced yesterday's), or at most about 15 s.
      let wrote = false;
      for (let tries = 0; tries < 1_500 && !wrote; tries++) {
        await new Promise((resolve) => setTimeout(resolve, 10));
        wrote = existsSync(out) && statSync(out).size > yesterday.length && readFileSync(out, 'utf8') !== yesterday;
      }
      assert.ok(wrote, 'rows reached --out before the stop');
      child.kill(signal);
      const hard = setTimeout(() => child.kill('SIGKILL'), 20_000);
      const end = await exited;
      clearTimeout(hard);
      assert.deepEqual(end, { code: null, signal }, `ended by the signal (a SIGKILL is a hang); stderr: ${stderr}`);
      const text = readFileSync(out, 'utf8');
      let parsed: unknown;
      assert.doesNotThrow(() => { parsed = JSON.parse(text); }, `the file at --out is JSON; it ends ${JSON.stringify(text.slice(-30))}; stderr: ${stderr.slice(0, 300)}`);
      assert.ok(Array.isArray(parsed));
      const rows = parsed as unknown[];
      if (extra.length === 0) {
        // Whole rows only, the body's first ones, in order (oracle: JSON.parse of the whole body).
        assert.ok(rows.length > 0, 'the rows received are kept');
        assert.deepEqual(rows, oracle(ALL, '').slice(0, rows.length));
        assert.match(stderr, /stopped: .* holds the rows written before the stop/);
      } else assert.deepEqual(rows, [], 'a walk keeps only the pages it accepted: none yet');
      assert.equal((stderr.match(/is kept at/g) ?? []).length, 1, `the old file is said once: ${stderr}`);
    });
  }
});
