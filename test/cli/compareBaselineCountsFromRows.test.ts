// Adversarial review (invariants: nothing read back is obeyed beyond what produced it; nothing says
// "agree/complete" with rows missing). src/core/compare/baseline.ts: "What is read back is untrusted:
// the manifest is validated, its requests must be the run's own". A baseline recorded with 2 rows whose
// manifest is then edited to count 7 rows is taken: `apiwb compare --baseline DIR` prints "A: … 7 rows",
// "B: … 2 rows" and "agree", exit 0 — the count comes from the manifest, never from the rows file.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { compareCommand } from '../../src/cli/compare/compareCommand';
import { commandInProcess } from './inProcess';
import { startLocalServer, type LocalServer } from './localServer';

void describe('a baseline manifest\'s row count is not taken on its word', () => {
  let server: LocalServer;

  before(async () => {
    server = await startLocalServer('apiwb-rev-baseline-count-', (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"items":[{"code":"a"},{"code":"b"}]}');
    });
    writeFileSync(join(server.dir, 'one.http'), '# @name one\nGET {{base}}/items\n');
  });

  after(async () => { await server.close(); });

  void it('does not say the sides agree when the baseline counts rows its file does not hold', async () => {
    const dir = join(server.dir, 'baseline');
    const args = [join(server.dir, 'one.http'), '--env', 'local', '--env-file', server.envFile, '--baseline', dir];
    const recorded = await commandInProcess(compareCommand, args);
    assert.equal(recorded.code, 0, recorded.stdout + recorded.stderr);
    const manifestPath = join(dir, 'manifest.json');
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { requests: { summary: { rows?: number } }[] };
    assert.equal(manifest.requests[0]!.summary.rows, 2);
    manifest.requests[0]!.summary.rows = 7;
    writeFileSync(manifestPath, JSON.stringify(manifest));
    const compared = await commandInProcess(compareCommand, args);
    assert.notEqual(compared.code, 0, `a baseline counting 7 rows for a file of 2 agrees:\n${compared.stdout}${compared.stderr}`);
  });
});
