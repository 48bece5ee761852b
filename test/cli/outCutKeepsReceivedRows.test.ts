// Attack: a body that stalls mid-stream until `--timeout` ends it, and a body with a
// business error beside its rows; `?? status` failing after rows were streamed. The line must count the
// rows the file holds; a body cut short keeps exactly the rows fully received (the change's claim).
// Server of the test's own on 127.0.0.1 port 0; `apiwb run` in process.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { constants, gunzipSync, gzipSync } from 'node:zlib';
import { runInProcess } from './inProcess';
import { assertFileHolds, fileRows, padded, printedRows, wholeRowsIn } from './outFileRows';

/** The rows JSON.parse gives of a whole body: the array, or the one array one level down (Data, value). */
const rowsOf = (text: string): unknown[] => {
  const body = JSON.parse(text) as unknown[] | Record<string, unknown[]>;
  return Array.isArray(body) ? body : Object.values(body)[0]!;
};
import { startLocalServer, type LocalServer } from './localServer';

const ARRAY = `[${padded(0, 20_000)}]`;
const WRAPPED = `{"Data":[${padded(0, 20_000)}]}`;
const VALUE = `{"value":[${padded(0, 20_000)}]}`;
const STALLS: Record<string, { text: string; at: number }> = {
  'array-600KB': { text: ARRAY, at: 600_000 },
  'wrapped-600KB': { text: WRAPPED, at: 600_000 },
  'wrapped-1.5MB': { text: WRAPPED, at: 1_500_000 },
  'value-1.5MB': { text: VALUE, at: 1_500_000 },
};
const WHOLE: Record<string, string> = {
  business: `{"errors":[{"code":1,"message":"Missing mandatory fields"}],"Data":[${padded(0, 5_000)}]}`,
  array: ARRAY,
};
/** The gzip of a 20 000-row array, cut at half its compressed bytes (then the socket dropped). */
const GZ_CUT = gzipSync(ARRAY).subarray(0, Math.floor(gzipSync(ARRAY).length / 2));


void describe('stalls, business errors and failed checks with --out', () => {
  let server: LocalServer;
  const open: ServerResponse[] = [];
  before(async () => {
    server = await startLocalServer('apiwb-out-stall-', (req, res) => {
      const name = decodeURIComponent((req.url ?? '').slice(1));
      if (name === 'gz-cut') {
        res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
        return void res.write(GZ_CUT, () => res.socket?.destroy());
      }
      const stall = STALLS[name];
      res.writeHead(200, { 'content-type': 'application/json' });
      if (!stall) return void res.end(WHOLE[name]);
      open.push(res);
      res.write(stall.text.slice(0, stall.at));
    });
  });
  after(async () => {
    for (const res of open) res.socket?.destroy();
    await server.close();
  });

  const run = async (name: string, lines = '', format: 'ndjson' | 'csv' | 'json' = 'ndjson'): Promise<{ code: number; stdout: string; stderr: string; rows: unknown[]; out: string }> => {
    const file = join(server.dir, `${name}.http`);
    writeFileSync(file, `${lines}GET {{base}}/${encodeURIComponent(name)}\n`);
    const out = join(server.dir, `${name}.${format}`);
    const r = await runInProcess([file, '--env', 'local', '--env-file', server.envFile, '--out', out, '--timeout', '1500', '--format', format]);
    return { ...r, rows: fileRows(out, format), out };
  };

  for (const [name, format] of Object.keys(STALLS).flatMap((n) => (['ndjson', 'csv', 'json'] as const).map((f) => [n, f] as const))) {
    void it(`${name} (${format}), then silence until --timeout: exit 1, the rows fully received kept and counted, as JSON.parse gives them`, async () => {
      const stall = STALLS[name]!;
      const r = await run(name, name.startsWith('value') ? '# @paging generic next=next_link items=value\n' : '', format);
      assert.equal(r.code, 1, r.stdout + r.stderr);
      assert.equal(printedRows(r.stdout), r.rows.length, r.stdout);
      const whole = wholeRowsIn(stall.text.slice(0, stall.at));
      assert.equal(r.rows.length, whole, r.stdout);
      assertFileHolds(r.out, format, rowsOf(stall.text).slice(0, whole), 'the rows fully received, as JSON.parse of the whole body gives them');
    });
  }

  void it('a gzip body cut at half its compressed bytes: exit 1, the rows fully received (as decompressed) kept and counted', async () => {
    const r = await run('gz-cut');
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.equal(printedRows(r.stdout), r.rows.length, r.stdout);
    const received = gunzipSync(GZ_CUT, { finishFlush: constants.Z_SYNC_FLUSH }).toString('utf8');
    assert.equal(r.rows.length, wholeRowsIn(received), r.stdout);
  });

  void it('a business error beside rows: the line counts the rows the file holds', async () => {
    const r = await run('business');
    assert.equal(printedRows(r.stdout), r.rows.length, r.stdout + r.stderr);
  });

  void it('?? status == 201 failing after 20 000 rows were streamed: exit 1, the line counts the rows the file holds', async () => {
    const r = await run('array', '?? status == 201\n');
    assert.equal(r.code, 1, r.stdout);
    assert.equal(printedRows(r.stdout), r.rows.length, r.stdout + r.stderr);
  });
});
