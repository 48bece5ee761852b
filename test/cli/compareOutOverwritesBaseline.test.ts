// "Every file a run reads is an input --out cannot overwrite". A later `apiwb compare --baseline DIR`
// READS the recorded baseline (DIR/manifest.json and DIR/<n>.ndjson), and claimCompareFiles (src/cli/compare/compareCommand.ts) once registered only the .http
// files, env files, overlays and --cacert as inputs: an --out or --report naming a file of the baseline
// was claimed, and the comparison wrote its differences (or report) over the recording it compared with.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { compareCommand } from '../../src/cli/compare/compareCommand';
import { commandInProcess } from './inProcess';
import { startLocalServer, type LocalServer } from './localServer';

void describe('compare --baseline DIR: --out and --report never overwrite the baseline it reads', () => {
  let server: LocalServer;
  let httpFile: string;
  let recordings = 0;

  /** A baseline freshly recorded in its own folder. */
  async function record(): Promise<string> {
    const dir = join(server.dir, `baseline-${recordings++}`);
    const recorded = await commandInProcess(compareCommand, [httpFile, '--env', 'local', '--env-file', server.envFile, '--baseline', dir]);
    assert.equal(recorded.code, 0, recorded.stdout + recorded.stderr);
    return dir;
  }

  before(async () => {
    let call = 0;
    server = await startLocalServer('apiwb-baseline-out-', (_req, res) => {
      call++;
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ items: [{ id: 1 }, { id: 2, n: call }] }));
    });
    httpFile = join(server.dir, 'one.http');
    writeFileSync(httpFile, '# @name one\nGET {{base}}/items\n');
  });

  after(async () => { await server.close(); });

  for (const [flag, file] of [['--out', '0.ndjson'], ['--report', 'manifest.json'], ['--out', 'manifest.json']] as const) {
    void it(`${flag} DIR/${file} is refused (exit 2) and the baseline is left as recorded`, async () => {
      const dir = await record();
      const target = join(dir, file);
      const before = readFileSync(target, 'utf8');
      const result = await commandInProcess(compareCommand, [httpFile, '--env', 'local', '--env-file', server.envFile, '--baseline', dir, flag, target]);
      assert.equal(readFileSync(target, 'utf8'), before, `${file} of the baseline was overwritten (exit ${result.code}): ${result.stdout}${result.stderr}`);
      assert.equal(result.code, 2, result.stdout + result.stderr);
    });
  }
});
