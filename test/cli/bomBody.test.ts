// A JSON body that starts with a UTF-8 byte order mark (as some .NET servers send it) is either
// read as JSON (RFC 8259 §8.1 lets a parser ignore the mark: the client drops exactly one) or refused in
// words; never a pass with 0 rows and an --out that holds none. One mark is read: its rows, exit 0. JSON.parse refuses the text with the mark and reads it without:
// 3 000 rows. A top-level array and rows one level down, small (held) and large (streamed), with and
// without --out. A server of the test's own on 127.0.0.1 port 0; `apiwb run` in process.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runInProcess } from './inProcess';
import { fileRows, padded, printedRows } from './outFileRows';
import { startLocalServer, type LocalServer } from './localServer';

const BOM = '\uFEFF';
const BODIES: Record<string, { text: string; rows: number }> = {
  'array-large': { text: `${BOM}[${padded(0, 3_000)}]`, rows: 3_000 },
  'wrapped-large': { text: `${BOM}{"Data":[${padded(0, 3_000)}]}`, rows: 3_000 },
  'array-small': { text: `${BOM}[${padded(0, 10)}]`, rows: 10 },
  'wrapped-small': { text: `${BOM}{"Data":[${padded(0, 10)}]}`, rows: 10 },
};
/** Not JSON even without one mark: refused (exit 1), never a pass with 0 rows. */
const TWO_MARKS = `${BOM}${BOM}{"Data":[${padded(0, 3_000)}]}`;
/** A business failure (Response false) behind the mark: without it, the request fails (exit 1). */
const BUSINESS = `${BOM}{"Response":false,"Error":"Invalid CtcID","Data":[${padded(0, 10)}]}`;

void describe('a body that starts with a byte order mark', () => {
  let server: LocalServer;
  before(async () => {
    server = await startLocalServer('apiwb-revc-bom-', (req, res) => {
      const name = (req.url ?? '').slice(1);
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
      if (name === 'split') {
        // The mark's bytes in two writes (chunked): its first byte, then the rest of the body.
        const bytes = Buffer.from(BODIES['wrapped-large']!.text);
        return void res.write(bytes.subarray(0, 1), () => setImmediate(() => res.end(bytes.subarray(1))));
      }
      res.end(name === 'business' ? BUSINESS : name === 'two-marks' ? TWO_MARKS : BODIES[name]!.text);
    });
  });
  after(() => server.close());

  for (const [name, b] of Object.entries(BODIES)) {
    void it(`${name}: its rows are read (${b.rows}), or the request fails; never a pass with 0 rows`, async () => {
      assert.throws(() => JSON.parse(b.text));
      const file = join(server.dir, `${name}.http`);
      writeFileSync(file, `GET {{base}}/${name}\n`);
      const out = join(server.dir, `${name}.ndjson`);
      const withOut = await runInProcess([file, '--env', 'local', '--env-file', server.envFile, '--out', out]);
      const rows = fileRows(out, 'ndjson').length;
      assert.equal(printedRows(withOut.stdout), rows, withOut.stdout);
      assert.ok(withOut.code === 1 || rows === b.rows, `--out: exit ${withOut.code} with ${rows} of ${b.rows} rows\n${withOut.stdout}`);
      // One leading mark is read: the rows JSON.parse gives without it.
      assert.deepEqual([withOut.code, rows], [0, b.rows], withOut.stdout);
      const without = await runInProcess([file, '--env', 'local', '--env-file', server.envFile]);
      assert.ok(without.code === 1 || printedRows(without.stdout) === b.rows, `without --out: exit ${without.code}\n${without.stdout}`);
      assert.deepEqual([without.code, printedRows(without.stdout)], [0, b.rows], without.stdout);
    });
  }

  void it('a mark whose bytes arrive in two parts is read as one', async () => {
    const file = join(server.dir, 'split.http');
    writeFileSync(file, 'GET {{base}}/split\n');
    const out = join(server.dir, 'split.ndjson');
    const r = await runInProcess([file, '--env', 'local', '--env-file', server.envFile, '--out', out]);
    assert.deepEqual([r.code, fileRows(out, 'ndjson').length, printedRows(r.stdout)], [0, 3_000, 3_000], r.stdout);
  });

  void it('two marks: only one is dropped, the body is not JSON and the request fails, with and without --out', async () => {
    assert.throws(() => JSON.parse(TWO_MARKS.slice(1)));
    const file = join(server.dir, 'two-marks.http');
    writeFileSync(file, 'GET {{base}}/two-marks\n');
    const out = join(server.dir, 'two-marks.ndjson');
    const withOut = await runInProcess([file, '--env', 'local', '--env-file', server.envFile, '--out', out]);
    assert.deepEqual([withOut.code, printedRows(withOut.stdout), fileRows(out, 'ndjson').length], [1, 0, 0], withOut.stdout);
    const without = await runInProcess([file, '--env', 'local', '--env-file', server.envFile]);
    assert.equal(without.code, 1, without.stdout);
  });

  void it('a business failure behind the mark fails the request, as without the mark', async () => {
    const file = join(server.dir, 'business.http');
    writeFileSync(file, 'GET {{base}}/business\n');
    const r = await runInProcess([file, '--env', 'local', '--env-file', server.envFile]);
    assert.equal(r.code, 1, `Response false passed:\n${r.stdout}`);
  });
});
