// A `{{ }}` script block in a region without a request is an httpYac GLOBAL script: httpYac runs it
// before every request of the file. `apiwb run` runs no script and says so; without --name it says the
// block once, under the first request. With `--name second`, the request that runs is one the global
// script applies to, yet on aa14ca2 nothing is said: the block is dropped without a word.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
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
});
