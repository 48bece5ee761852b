// Adversarial review (invariant: no output overwrites an input or a file the run did not create). README:
// "No output overwrites an input: an --out or --report that is (or links to) a .http file, env file … a
// link or a folder, is refused (exit 2)"; `apiwb compare --baseline DIR` "records one side". Recording
// writes `DIR/<n>.ndjson` with copyFileSync (src/core/compare/baseline.ts, writeBaseline) without
// claiming it (src/core/files/outputs.ts): a link at `DIR/0.ndjson` pointing at the .http file being run
// is written through — the .http file now holds the recorded rows — with exit 0.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { compareCommand } from '../../src/cli/compare/compareCommand';
import { commandInProcess } from './inProcess';
import { startLocalServer, type LocalServer } from './localServer';

const REQUESTS = '# @name one\nGET {{base}}/items\n';

void describe('compare --baseline never writes through a link', () => {
  let server: LocalServer;

  before(async () => {
    server = await startLocalServer('apiwb-rev-baseline-', (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"items":[{"id":1},{"id":2}]}');
    });
  });

  after(async () => { await server.close(); });

  void it('leaves the .http file a link in DIR points at as it was', async () => {
    const httpFile = join(server.dir, 'one.http');
    writeFileSync(httpFile, REQUESTS);
    const dir = join(server.dir, 'baseline-link');
    mkdirSync(dir);
    symlinkSync('../one.http', join(dir, '0.ndjson'));
    const result = await commandInProcess(compareCommand, [httpFile, '--env', 'local', '--env-file', server.envFile, '--baseline', dir]);
    assert.equal(readFileSync(httpFile, 'utf8'), REQUESTS, `the .http file was written through the link (exit ${result.code}): ${result.stdout}${result.stderr}`);
    assert.equal(result.code, 2, result.stdout + result.stderr);
  });

  void it('a refused baseline leaves no folder behind', async () => {
    const httpFile = join(server.dir, 'one.http');
    writeFileSync(httpFile, REQUESTS);
    const parent = join(server.dir, 'refused');
    mkdirSync(join(parent, '0.ndjson'), { recursive: true });
    // DIR made fresh, its rows file (through `..`) a folder: refused.
    const result = await commandInProcess(compareCommand, [httpFile, '--env', 'local', '--env-file', server.envFile, '--baseline', `${parent}/fresh/..`]);
    assert.equal(result.code, 2, result.stdout + result.stderr);
    assert.ok(!existsSync(join(parent, 'fresh')), `the refused --baseline left a folder behind: ${result.stderr}`);
  });

});
