// Rule: a compare baseline read back is checked against its files, never trusted beyond what produced
// it: a manifest that contradicts its rows files is refused (exit 2). `apiwb compare --baseline DIR`
// records a request's rows in `0.ndjson` and `hasRows: true` in the manifest; edited to `hasRows: false`
// (the count and the rows file left as they were), it was taken at its word: no record was compared and
// a live side whose records all changed "agreed" (exit 0). The same run against the unedited baseline
// says "differ". A small server on 127.0.0.1.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { compareCommand } from '../../src/cli/compare/compareCommand';
import { commandInProcess } from './inProcess';
import { startLocalServer, type LocalServer } from './localServer';

let version = 1;

void describe('a baseline manifest saying a request had no rows', () => {
  let local: LocalServer;
  let args: string[] = [];
  let manifest = '';
  before(async () => {
    local = await startLocalServer('apiwb-baseline-contradicts-', (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify([{ id: 1, amount: 10 * version }, { id: 2, amount: 20 * version }]));
    });
    const file = join(local.dir, 'list.http');
    writeFileSync(file, '# @name list\nGET {{base}}/list\n');
    const dir = join(local.dir, 'baseline');
    manifest = join(dir, 'manifest.json');
    args = [file, '--env', 'local', '--env-file', local.envFile, '--baseline', dir, '--key', 'id'];
    const recorded = await commandInProcess(compareCommand, args);
    assert.equal(recorded.code, 0, recorded.stdout + recorded.stderr);
    assert.match(readFileSync(manifest, 'utf8'), /"hasRows": true/);
    version = 2;
  });
  after(() => local.close());

  void it('hasRows edited to false: refused (exit 2), never agree (unedited: differ)', async () => {
    const unedited = await commandInProcess(compareCommand, args);
    assert.equal(unedited.code, 1, unedited.stdout + unedited.stderr);
    writeFileSync(manifest, readFileSync(manifest, 'utf8').replace('"hasRows": true', '"hasRows": false'));
    const r = await commandInProcess(compareCommand, args);
    assert.doesNotMatch(r.stdout, / agree/, r.stdout);
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.match(r.stderr, /says list had no rows, but 0\.ndjson is there/, r.stderr);
  });
});
