// Attack (review of the --out aside, fileSink.ts + outputSink.ts): `--format json` over an old file, the
// rows filling the file exactly to the process's file size limit, so the closing `]` is the write that
// fails (EFBIG, as on a full disk). The JSON sink's close throws before AppendOnlyFile.close runs: what
// becomes of the old file moved aside? It must be back, or named, never left hidden and unsaid.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ROOT } from './cliProcess';
import { startLocalServer, type LocalServer } from './localServer';

interface Run { code: number; stdout: string; stderr: string }
const OLD = 'old rows: keep me\n';
const LIMIT = 1024; // `ulimit -f 1` in bash: one 1024-byte block
const asidesOf = (out: string): string[] => readdirSync(dirname(out)).filter((n) => n.startsWith(`.${basename(out)}.apiwb-before-`));

function runLimited(args: readonly string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile('bash', ['-c', 'ulimit -f 1; exec "$0" --import tsx src/cli/main.ts run "$@"', process.execPath, ...args], { cwd: ROOT, env: { ...process.env, NO_COLOR: '1' }, timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr });
    });
  });
}

void describe('--format json: the closing bracket fails to be written', () => {
  let server: LocalServer;
  // `[\n` + the row = exactly LIMIT bytes.
  const row = { id: 1, p: 'x'.repeat(LIMIT - 2 - JSON.stringify({ id: 1, p: '' }).length) };
  before(async () => {
    server = await startLocalServer('apiwb-json-trailer-', (req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify([row]));
    });
  });
  after(() => server.close());

  void it('the old file is back or said; no hidden copy left unsaid', async () => {
    const out = join(server.dir, 'rows.json');
    const file = join(server.dir, 'one.http');
    writeFileSync(file, 'GET {{base}}/rows\n');
    writeFileSync(out, OLD);
    const r = await runLimited([file, '--env', 'local', '--env-file', server.envFile, '--out', out, '--format', 'json']);
    const now = existsSync(out) ? readFileSync(out, 'utf8') : '(none)';
    const hidden = asidesOf(out);
    const said = hidden.every((n) => (r.stdout + r.stderr).includes(n));
    const state = { code: r.code, outBytes: existsSync(out) ? statSync(out).size : -1, outIsOld: now === OLD, hidden: hidden.length, hiddenSaid: said };
    assert.ok(hidden.length === 0 || said, `${JSON.stringify(state)}\nprinted: ${JSON.stringify((r.stdout + r.stderr).slice(-600))}`);
    assert.notEqual(r.code, 0, JSON.stringify(state));
  });
});
