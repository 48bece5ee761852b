// A 404 or 500 whose body holds rows is not a page of rows: none counted, whatever its size. On aa14ca2
// a small one (10 rows, its text kept to show) printed "10 rows" and its --json report said rows: 10,
// while past 256 KiB (3000 rows) neither said any: one shape, one answer (revC's case). A server of the
// test's own on 127.0.0.1 port 0; `apiwb run` in process.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runInProcess } from './inProcess';
import { padded } from './outFileRows';
import { startLocalServer, type LocalServer } from './localServer';

const SHAPES: Record<string, (n: number) => string> = {
  array: (n) => `[${padded(0, n)}]`,
  wrapped: (n) => `{"Data":[${padded(0, n)}]}`,
};

void describe('an error response counts no rows, at any size', () => {
  let server: LocalServer;
  before(async () => {
    server = await startLocalServer('apiwb-errrows-status-', (req, res) => {
      const [status, shape, n] = (req.url ?? '').slice(1).split('/');
      res.writeHead(Number(status), { 'content-type': 'application/json' }).end(SHAPES[shape!]!(Number(n)));
    });
  });
  after(() => server.close());

  for (const status of [404, 500]) {
    for (const shape of Object.keys(SHAPES)) {
      void it(`${status} ${shape}: counted alike at 10 rows (held) and 3000 rows (streamed): all its rows or none`, async () => {
        const counted = async (n: number): Promise<boolean> => {
          const file = join(server.dir, `${status}-${shape}-${n}.http`);
          writeFileSync(file, `GET {{base}}/${status}/${shape}/${n}\n`);
          const report = join(server.dir, `${status}-${shape}-${n}.json`);
          const r = await runInProcess([file, '--env', 'local', '--env-file', server.envFile, '--reporter', 'json', '--report', report]);
          assert.equal(r.code, 1, r.stdout);
          const rows = (JSON.parse(readFileSync(report, 'utf8')) as { requests: { rows?: number }[] }).requests[0]!.rows ?? 0;
          assert.ok(rows === 0 || rows === n, `${rows} of ${n} rows counted\n${r.stdout}`);
          return rows === n;
        };
        assert.equal(await counted(3_000), await counted(10), 'streamed counted as held');
      });
    }
  }
});
