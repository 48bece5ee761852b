// One body shape, one verdict, whatever its size: a row (or a field) nested 600 levels deep, past the
// product's MAX_JSON_DEPTH (512). On aa14ca2 held (up to 256 KiB) the request failed, 0 rows; streamed it
// passed with every row written. Now both refuse in the same words, the rows before the deep one kept
// (revC's case). A server of the test's own on 127.0.0.1 port 0; `apiwb run` in process.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runInProcess } from './inProcess';
import { fileRows, padded, printedRows } from './outFileRows';
import { startLocalServer, type LocalServer } from './localServer';

const DEEP = `${'['.repeat(600)}${']'.repeat(600)}`;
const SHAPES: Record<string, (n: number) => string> = {
  'deep-row-top-array': (n) => `[{"a":${DEEP}},${padded(0, n)}]`,
  'deep-row-wrapped': (n) => `{"Data":[{"a":${DEEP}},${padded(0, n)}]}`,
  'deep-field-beside-rows': (n) => `{"meta":${DEEP},"Data":[${padded(0, n)}]}`,
};

void describe('a body nested past the depth limit: one verdict held and streamed', () => {
  let server: LocalServer;
  before(async () => {
    server = await startLocalServer('apiwb-deep-verdict-', (req, res) => {
      const [shape, n] = (req.url ?? '').slice(1).split('/');
      res.writeHead(200, { 'content-type': 'application/json' }).end(SHAPES[shape!]!(Number(n)));
    });
  });
  after(() => server.close());

  for (const shape of Object.keys(SHAPES)) {
    void it(`${shape}: the same verdict and rows at 10 rows (held) as at 3000 rows (streamed)`, async () => {
      const outcome = async (n: number): Promise<{ code: number; all: boolean }> => {
        assert.doesNotThrow(() => JSON.parse(SHAPES[shape]!(n)));
        const file = join(server.dir, `${shape}-${n}.http`);
        writeFileSync(file, `GET {{base}}/${shape}/${n}\n`);
        const out = join(server.dir, `${shape}-${n}.ndjson`);
        const r = await runInProcess([file, '--env', 'local', '--env-file', server.envFile, '--out', out]);
        const rows = fileRows(out, 'ndjson').length;
        assert.equal(printedRows(r.stdout), rows, r.stdout);
        const all = shape === 'deep-field-beside-rows' ? n : n + 1;
        assert.ok(rows === 0 || rows === all, `${rows} rows of ${all}\n${r.stdout}`);
        return { code: r.code, all: rows === all };
      };
      const held = await outcome(10);
      const streamed = await outcome(3_000);
      assert.deepEqual(streamed, held, 'streamed (3000 rows) as held (10 rows): exit code, and whether the rows were written');
    });
  }

  void it('deep-row-wrapped, 10 rows (held): the same verdict with items=Data as without a style', async () => {
    const outcome = async (style: string, tag: string): Promise<number> => {
      const file = join(server.dir, `deep-style-${tag}.http`);
      writeFileSync(file, `${style}GET {{base}}/deep-row-wrapped/10\n`);
      const r = await runInProcess([file, '--env', 'local', '--env-file', server.envFile]);
      return r.code;
    };
    assert.equal(await outcome('# @paging generic items=Data\n', 'items'), await outcome('', 'none'), 'exit code with items=Data, then without a style');
  });
});
