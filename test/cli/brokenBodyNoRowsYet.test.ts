// With --out, a body JSON.parse refuses fails the request whether or not a row had arrived before the
// fault. `[` + rows, cut, fails (exit 1, the rows fully received kept); on aa14ca2 an array opened and never
// closed before its first row, one big object or string that ends early or has bytes after its end pass
// (✓, exit 0, "0 rows"): a one-big-object export cut in the middle reads as a good empty answer. The
// connection is not dropped: the server ends the body early, as a crashed handler or a proxy does.
// A server of the test's own on 127.0.0.1 port 0; `apiwb run` in process.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runInProcess } from './inProcess';
import { fileRows, padded, printedRows, wholeRowsIn } from './outFileRows';
import { startLocalServer, type LocalServer } from './localServer';

const BIG = 'y'.repeat(300_000);
const BODIES: Record<string, string> = {
  'array-open-no-row-yet': `[${' '.repeat(300_000)}`,
  'array-open-small': '[ {"id":',
  'object-ends-early': `{"meta":"${BIG}`,
  'object-then-garbage': `{"meta":"${BIG}"}x`,
  'string-ends-early': `"${BIG}`,
  'string-then-garbage': `"${BIG}"x`,
  'object-ends-early-small': '{"meta":"yyy',
};
/** A JSON type of its own (+json), rows one level down, the body ending after a comma: no --out either. */
const VND = `{"data":[${padded(0, 3_000)}],`;
/** For comparison: rows before the fault, the same kind of end (fails on aa14ca2 as it should). */
const WITH_ROWS = '[{"id":1},{"id":2},{"id":';

void describe('--out of a broken body before any row', () => {
  let server: LocalServer;
  before(async () => {
    server = await startLocalServer('apiwb-revc-norows-', (req, res) => {
      const name = (req.url ?? '').slice(1);
      if (name === 'plain') return void res.writeHead(200, { 'content-type': 'text/plain' }).end('OK [');
      if (name === 'vnd') return void res.writeHead(200, { 'content-type': 'application/vnd.api+json; charset=utf-8' }).end(VND);
      res.writeHead(200, { 'content-type': 'application/json' }).end(name === 'with-rows' ? WITH_ROWS : BODIES[name]);
    });
  });
  after(() => server.close());

  const run = async (name: string): Promise<{ code: number; rows: number; stdout: string }> => {
    const file = join(server.dir, `${name}.http`);
    writeFileSync(file, `GET {{base}}/${name}\n`);
    const out = join(server.dir, `${name}.ndjson`);
    const r = await runInProcess([file, '--env', 'local', '--env-file', server.envFile, '--out', out]);
    const rows = fileRows(out, 'ndjson').length;
    assert.equal(printedRows(r.stdout), rows, r.stdout);
    return { code: r.code, rows, stdout: r.stdout };
  };

  void it('rows before the fault: the request fails, the rows fully received kept', async () => {
    const r = await run('with-rows');
    assert.deepEqual([r.code, r.rows], [1, 2], r.stdout);
  });

  for (const [name, text] of Object.entries(BODIES)) {
    void it(`${name}: no row before the fault, the request fails all the same (exit 1, 0 rows)`, async () => {
      assert.throws(() => JSON.parse(text));
      const r = await run(name);
      assert.deepEqual([r.code, r.rows], [1, 0], `a body JSON.parse refuses passed:\n${r.stdout}`);
    });
  }

  void it('a +json type cut after a comma fails with and without --out, the rows fully received counted', async () => {
    const r = await run('vnd');
    assert.deepEqual([r.code, r.rows], [1, wholeRowsIn(VND)], r.stdout);
    const without = await runInProcess([join(server.dir, 'vnd.http'), '--env', 'local', '--env-file', server.envFile]);
    assert.deepEqual([without.code, printedRows(without.stdout)], [1, wholeRowsIn(VND)], without.stdout);
  });

  void it('a body that says it is not JSON (text/plain) is shown as it came, with and without --out', async () => {
    const r = await run('plain');
    assert.deepEqual([r.code, r.rows], [0, 0], r.stdout);
    const without = await runInProcess([join(server.dir, 'plain.http'), '--env', 'local', '--env-file', server.envFile]);
    assert.equal(without.code, 0, without.stdout);
  });
});
