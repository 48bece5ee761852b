// Attack: `apiwb run --out` whose file fails mid-write (the file size limit of the process,
// `ulimit -f`: a short write, then EFBIG). The line must count the rows the file holds (none, once the
// rows written before the fault are cut off again), and the file must not end with a torn row.
// The CLI runs as a child process (src/cli/main.ts through tsx) under the limit; the server is the test's
// own on 127.0.0.1 port 0.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ROOT } from './cliProcess';
import { startLocalServer, type LocalServer } from './localServer';
import { padded, printedRows } from './outFileRows';

const BODIES: Record<string, string> = {
  array: `[${padded(0, 20_000)}]`,
  wrapped: `{"Data":[${padded(0, 20_000)}]}`,
};

/** Runs `apiwb run ARGS` with the process's file size limit at `kb` KiB. */
function runLimited(kb: number, args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile('bash', ['-c', `ulimit -f ${kb}; exec "$0" --import tsx src/cli/main.ts run "$@"`, process.execPath, ...args], { cwd: ROOT, env: { ...process.env, NO_COLOR: '1' }, timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr });
    });
  });
}


void describe('--out whose file fails mid-write', () => {
  let server: LocalServer;
  before(async () => {
    server = await startLocalServer('apiwb-out-efbig-', (req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(BODIES[(req.url ?? '').slice(1)]);
    });
  });
  after(() => server.close());

  for (const [body, format] of [['array', 'ndjson'], ['wrapped', 'ndjson'], ['array', 'json'], ['array', 'csv'], ['wrapped', 'json'], ['wrapped', 'csv']] as const) {
    void it(`${body} (${format}), the file limit reached mid-write: exit 1, the line counts the whole rows in the file, no torn row`, async () => {
      const file = join(server.dir, `${body}-${format}.http`);
      writeFileSync(file, `GET {{base}}/${body}\n`);
      const out = join(server.dir, `${body}.${format}`);
      const r = await runLimited(500, [file, '--env', 'local', '--env-file', server.envFile, '--out', out, '--format', format]);
      assert.equal(r.code, 1, r.stdout + r.stderr);
      const text = existsSync(out) ? readFileSync(out, 'utf8') : '';
      const size = existsSync(out) ? statSync(out).size : 0;
      const lines = text.split(/\r?\n/);
      const torn = format === 'ndjson' ? lines.filter((l) => l !== '').filter((l) => { try { JSON.parse(l); return false; } catch { return true; } }).length : 0;
      const whole = format === 'ndjson' ? lines.filter((l) => l !== '').length - torn : format === 'csv' ? Math.max(0, lines.filter((l) => l !== '').length - 1) : (text.match(/"pad":"x{80}"\}/g) ?? []).length;
      const picture = `file: ${size} bytes, ${whole} row line(s), ${torn} torn; ends ${JSON.stringify(text.slice(-40))}\n${r.stdout}${r.stderr}`;
      assert.equal(printedRows(r.stdout), whole, `the line counts the rows in the file; ${picture}`);
      assert.equal(torn, 0, `no torn row; ${picture}`);
      if (format === 'json' && size > 0) assert.doesNotThrow(() => JSON.parse(text), `a JSON file that parses; ${picture}`);
    });
  }
});
