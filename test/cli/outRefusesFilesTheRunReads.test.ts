// Adversarial review (invariant: --out never overwrites an input of the run). README: "No output overwrites
// an input: an --out or --report that is (or links to) a .http file, env file, … or `< file` body of the
// run … is refused (exit 2)"; src/core/files/outputs.ts: "Every file a run reads … is registered as an
// input". Two files the run reads are not registered, and `--out` replaces them with rows (exit 0):
//   - the `.env` file `{{$dotenv NAME}}` read a secret from (README: "`.env.<environment>` or `.env`
//     beside the .http file"): the user's secrets are gone;
//   - the PEM file given to `--cacert` in the same command.
// The registration is in src/cli/runCommand.ts (runFiles.input), the rule in src/core/files/outputs.ts.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInProcess } from './inProcess';
import { startLocalServer, type LocalServer } from './localServer';

void describe('--out naming a file the run reads, not on the listed kinds', () => {
  let server: LocalServer;
  const received: string[] = [];

  before(async () => {
    server = await startLocalServer('apiwb-rev-out-', (req, res) => {
      received.push(`${req.method ?? ''} ${req.url ?? ''}`);
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ items: [{ id: 1 }, { id: 2 }] }));
    });
    writeFileSync(join(server.dir, 'dotenv.http'), '# @name withDotenv\nGET {{base}}/items\nX-Thing: {{$dotenv API_SECRET}}\n');
    writeFileSync(join(server.dir, 'plain.http'), '# @name plain\nGET {{base}}/items\n');
  });

  after(async () => { await server.close(); });

  void it('refuses --out .env when {{$dotenv}} reads it, and leaves it as it was', async () => {
    const dotenv = join(server.dir, '.env');
    const before = 'API_SECRET=dotenv-secret-value-1234567\n';
    writeFileSync(dotenv, before);
    const result = await runInProcess([join(server.dir, 'dotenv.http'), '--env', 'local', '--env-file', server.envFile, '--out', dotenv]);
    assert.equal(readFileSync(dotenv, 'utf8'), before, `the .env file was replaced (exit ${result.code}): ${result.stdout}${result.stderr}`);
    assert.equal(result.code, 2, result.stdout + result.stderr);
  });

  void it('refuses --out naming the --cacert file, and leaves it as it was', async () => {
    const ca = join(server.dir, 'ca.pem');
    const key = join(server.dir, 'ca.key');
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', ca, '-days', '1', '-subj', '/CN=rev-ca'], { stdio: 'ignore' });
    const before = readFileSync(ca, 'utf8');
    const result = await runInProcess([join(server.dir, 'plain.http'), '--env', 'local', '--env-file', server.envFile, '--cacert', ca, '--out', ca]);
    assert.equal(readFileSync(ca, 'utf8'), before, `the CA file was replaced (exit ${result.code}): ${result.stdout}${result.stderr}`);
    assert.equal(result.code, 2, result.stdout + result.stderr);
  });
});
