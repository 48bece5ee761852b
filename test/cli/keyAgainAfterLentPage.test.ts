// `{"A":[15 000 rows],"B":[100 rows],"A":[120 rows]}`: JSON.parse keeps the last A, and the rows rule
// picks it (120 > 100). The first A (past 1 MiB) is lent the sink's tentative page while it arrives; the
// rule picks another array, so that page is cut off and the picked rows are written instead. On aa14ca2 the
// NDJSON and CSV files are left EMPTY while the line says "✓ 120 rows" and exit 0: every row lost, and the
// line no longer counts the rows in the file. (JSON format and other sizes: B of 1 or 1 000 rows: fine.)
// A server of the test's own on 127.0.0.1 port 0; `apiwb run` in process.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runInProcess } from './inProcess';
import { assertFileHolds, fileRows, oracle, padded, printedRows } from './outFileRows';
import { startLocalServer, type LocalServer } from './localServer';

const BODIES: Record<string, string> = {
  'again-120': `{"A":[${padded(0, 15_000)}],"B":[${padded(50_000, 100)}],"A":[${padded(100_000, 120)}]}`,
  'again-1000': `{"A":[${padded(0, 15_000)}],"B":[${padded(50_000, 100)}],"A":[${padded(100_000, 1_000)}]}`,
  // The first A given again as no array: the rule picks B (100 rows).
  'again-null': `{"A":[${padded(0, 15_000)}],"B":[${padded(50_000, 100)}],"A":null}`,
  'again-empty': `{"A":[${padded(0, 15_000)}],"B":[${padded(50_000, 100)}],"A":[]}`,
  // Two levels down: the outer object given again.
  'outer-again': `{"o":{"A":[${padded(0, 15_000)}]},"B":[${padded(50_000, 100)}],"o":{"A":[${padded(100_000, 120)}]}}`,
  // The key given again two levels down, inside one object.
  'inner-again': `{"o":{"A":[${padded(0, 15_000)}],"B":[${padded(50_000, 100)}],"A":[${padded(100_000, 120)}]}}`,
  // The last A past 1 MiB too: it takes a page of the sink of its own while the first one's is still being cut off.
  'again-large': `{"A":[${padded(0, 15_000)}],"B":[${padded(50_000, 100)}],"A":[${padded(100_000, 20_000)}]}`,
};

void describe('the rows key given again after a large first array', () => {
  let server: LocalServer;
  before(async () => {
    server = await startLocalServer('apiwb-revc-again-', (req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' }).end(BODIES[(req.url ?? '').slice(1)]);
    });
  });
  after(() => server.close());

  for (const [name, body] of Object.entries(BODIES)) {
    for (const format of ['ndjson', 'csv'] as const) {
      void it(`${name} (${format}): the file holds JSON.parse's rows (B or the last A), and the line counts them`, async () => {
        const expected = oracle(body, '');
        assert.ok([50_000, 100_000].includes((expected[0] as { id: number }).id), 'the rule picks B or the last A, never the first A');
        const file = join(server.dir, `${name}-${format}.http`);
        writeFileSync(file, `GET {{base}}/${name}\n`);
        const out = join(server.dir, `${name}.${format}`);
        const r = await runInProcess([file, '--env', 'local', '--env-file', server.envFile, '--out', out, '--format', format]);
        assert.equal(printedRows(r.stdout), fileRows(out, format).length, `the line counts the rows in the file\n${r.stdout}`);
        if (r.code === 0) assertFileHolds(out, format, expected, 'exit 0: the rows JSON.parse and the rule give');
      });
    }
  }

  void it('again-120, a walk (# @paging generic, --all-pages): the file holds the last A\'s rows, and the line counts them', async () => {
    const file = join(server.dir, 'walk.http');
    writeFileSync(file, '# @paging generic\nGET {{base}}/again-120\n');
    const out = join(server.dir, 'walk.ndjson');
    const r = await runInProcess([file, '--env', 'local', '--env-file', server.envFile, '--out', out, '--all-pages']);
    assert.equal(printedRows(r.stdout), fileRows(out, 'ndjson').length, `the line counts the rows in the file\n${r.stdout}`);
    if (r.code === 0) assertFileHolds(out, 'ndjson', oracle(BODIES['again-120']!, ''), 'exit 0: the last A\'s rows');
  });
});
