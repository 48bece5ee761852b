// A `{{ }}` script block in a region without a request is an httpYac GLOBAL script: httpYac runs it
// before every request of the file. `apiwb run` runs no script and says so; without --name it says the
// block once, under the first request. With `--name second`, the request that runs is one the global
// script applies to, yet on aa14ca2 nothing is said: the block is dropped without a word (revD, 307f5c3).
// The rule: a file's own constructs are said once per file run, with the first of its requests the run
// takes (runPlan.ts: saysFile), whichever that is, and also when that one is set aside unsent.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startLocalServer, type LocalServer } from './localServer';
import { runInProcess } from './inProcess';

const FILE = `{{
  exports.tenant = "t1";
}}

###
# @name first
GET {{base}}/first

###
# @name second
GET {{base}}/second
`;

void describe('a global script is said for every request it applies to (apiwb run --name)', () => {
  let server: LocalServer;
  before(async () => {
    server = await startLocalServer('apiwb-revD-global-', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  after(async () => { await server.close(); });

  void it('--name second says the global script block at line 1 is not run', async () => {
    const file = join(server.dir, 'global.http');
    writeFileSync(file, FILE);
    const r = await runInProcess([file, '--env', 'local', '--env-file', server.envFile, '--name', 'second']);
    assert.match(`${r.stdout}${r.stderr}`, /global\.http:1\b.*(script|not run)/, `the global script block (global.http:1) is not mentioned:\n${r.stdout}${r.stderr}`);
  });

  void it('without --name the block is said once, not once per request', async () => {
    const file = join(server.dir, 'global-all.http');
    writeFileSync(file, FILE);
    const r = await runInProcess([file, '--env', 'local', '--env-file', server.envFile]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.equal(`${r.stdout}${r.stderr}`.match(/global-all\.http:1\b.*not run: script block/g)?.length, 1, r.stdout + r.stderr);
  });

  void it('the first request of the file set aside unsent (# @disabled) still leaves the block said', async () => {
    const file = join(server.dir, 'global-disabled.http');
    writeFileSync(file, FILE.replace('# @name first\n', '# @name first\n# @disabled\n'));
    const r = await runInProcess([file, '--env', 'local', '--env-file', server.envFile]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /global-disabled\.http:1\b.*not run: script block/, r.stdout + r.stderr);
  });

  void it('--name picking a request that is not run (gRPC) still says the block, and the JUnit report lists it', async () => {
    const file = join(server.dir, 'global-grpc.http');
    writeFileSync(file, FILE.replace('GET {{base}}/second', 'GRPC {{base}}/svc.Cache/Purge'));
    const report = join(server.dir, 'global-grpc.xml');
    const r = await runInProcess([file, '--env', 'local', '--env-file', server.envFile, '--name', 'second', '--reporter', 'junit', '--report', report]);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(r.stdout, /global-grpc\.http:1\b.*not run: script block/, r.stdout + r.stderr);
    assert.match(readFileSync(report, 'utf8'), /global-grpc\.http:1: not run: script block/);
  });
});
