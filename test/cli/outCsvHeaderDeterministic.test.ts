// CSV --out of a streamed response: the header is the union of the keys of the body's first rows
// (csvSink.ts: HEADER_ROWS rows, held back until then), so it depends on the body alone: the same body
// paced two ways on the wire, or served plain and gzip, gives one file. A key first seen after those rows
// goes into `_extra`, a key named `__proto__` too (a field of _extra, never its prototype).
// Oracle: JSON.parse of the whole body. A server of the test's own on 127.0.0.1, port 0; `apiwb run` in process.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import { runInProcess } from './inProcess';
import { oracle, printedRows } from './outFileRows';
import { startLocalServer, type LocalServer } from './localServer';

const PAD = 'x'.repeat(80);
const plain = (i: number): string => `{"id":${i},"pad":"${PAD}"}`;
/** The first row whose NDJSON line takes the rows' bytes to 1 MiB (EARLY_BATCH_BYTES): no first batch of the stream ends before it. */
const CROSSING = ((): number => {
  let bytes = 0;
  for (let i = 0; ; i++) {
    bytes += plain(i).length + 1;
    if (bytes >= 1 << 20) return i;
  }
})();
/** The row right after it brings a key no row before it has. */
const LATE = CROSSING + 1;
const texts = Array.from({ length: 20_000 }, (_, i) => (i === LATE ? `{"id":${i},"pad":"${PAD}","late":1}` : plain(i)));
const PACED = `[${texts.join(',')}]`;
/** Where row `i` and the comma after it end in PACED. */
const endOf = (i: number): number => 1 + texts.slice(0, i + 1).reduce((n, t) => n + t.length + 1, 0);
/** About 2 MB of rows, a key first seen about 5 KB past the first 1 MiB of rows (no pacing: served whole, plain or gzip). */
const NEAR = `[${Array.from({ length: 20_000 }, (_, i) => (i === CROSSING + 50 ? `{"id":${i},"pad":"${PAD}","late":1}` : plain(i))).join(',')}]`;
/** About 2 MB of rows; the last one has a field named __proto__ (JSON.parse makes it an own field). */
const PROTO = `[${Array.from({ length: 19_999 }, (_, i) => plain(i)).join(',')},{"id":19999,"pad":"${PAD}","__proto__":{"x":1}}]`;

void describe('CSV --out of a streamed response: a header of the body alone, keys first seen later', () => {
  let server: LocalServer;
  before(async () => {
    server = await startLocalServer('apiwb-out-csv-header-', (req, res) => {
      const [, what, first, out] = (req.url ?? '').split('/');
      res.writeHead(200, { 'content-type': 'application/json', ...(what === 'near-gzip' ? { 'content-encoding': 'gzip' } : {}) });
      if (what === 'proto') return void res.end(PROTO);
      if (what === 'near') return void res.end(NEAR);
      if (what === 'near-gzip') return void res.end(gzipSync(NEAR));
      // PACED, its bytes up to the end of row `first` at once, the rest once the first batch is in the file.
      const cut = endOf(Number(first));
      const path = decodeURIComponent(out!);
      res.write(PACED.slice(0, cut));
      let tries = 0;
      const rest = (): void => {
        if (existsSync(path) && statSync(path).size > 0) return void res.end(PACED.slice(cut));
        // A CLI that writes the file only at the end (main 74bb245 read CSV whole): the rest after about 2 s.
        if (++tries > 400) return void res.end(PACED.slice(cut));
        setTimeout(rest, 5);
      };
      rest();
    });
  });
  after(() => server.close());

  const run = async (name: string, path: string): Promise<{ code: number; stdout: string; text: string }> => {
    const file = join(server.dir, `${name}.http`);
    const out = join(server.dir, `${name}.csv`);
    writeFileSync(file, `GET {{base}}/${path.replace('OUT', encodeURIComponent(out))}\n`);
    const r = await runInProcess([file, '--env', 'local', '--env-file', server.envFile, '--out', out, '--format', 'csv']);
    return { code: r.code, stdout: r.stdout + r.stderr, text: readFileSync(out, 'utf8') };
  };

  void it('the same body paced two ways gives the same CSV file (header and cells)', async () => {
    // First batch handed after row CROSSING (pacing a) or after row LATE (pacing b): the only difference.
    const a = await run('paced-a', `paced/${CROSSING}/OUT`);
    const b = await run('paced-b', `paced/${LATE}/OUT`);
    assert.equal(a.code, 0, a.stdout);
    assert.equal(b.code, 0, b.stdout);
    assert.equal(printedRows(a.stdout), 20_000);
    assert.equal(printedRows(b.stdout), 20_000);
    const [headerA, headerB] = [a.text.split('\r\n')[0], b.text.split('\r\n')[0]];
    assert.equal(headerA, headerB, `one body, one header (pacing a: ${headerA}; pacing b: ${headerB})`);
    assert.equal(a.text, b.text, 'one body, one file');
  });

  void it('the same body served plain and gzip (no pacing of the test\'s own) gives the same CSV header', async () => {
    // Seen on this branch in every run tried: gzip's 16 KiB pieces end the first batch past the late row,
    // the plain body's pieces before it. Whatever the pieces, one body must give one header.
    const plainRun = await run('near-plain', 'near');
    const gzipRun = await run('near-gzip', 'near-gzip');
    assert.equal(plainRun.code, 0, plainRun.stdout);
    assert.equal(gzipRun.code, 0, gzipRun.stdout);
    assert.equal(printedRows(plainRun.stdout), 20_000);
    assert.equal(printedRows(gzipRun.stdout), 20_000);
    assert.equal(plainRun.text.split('\r\n')[0], gzipRun.text.split('\r\n')[0], 'one body, one header, whatever its content-encoding');
    assert.equal(plainRun.text, gzipRun.text, 'one body, one file');
  });

  void it('a field named __proto__ first seen past the first batch keeps its value in the file (in _extra or a column)', async () => {
    const r = await run('proto', 'proto');
    assert.equal(r.code, 0, r.stdout);
    const rows = oracle(PROTO, '');
    assert.equal(printedRows(r.stdout), rows.length);
    assert.deepEqual(Object.entries(rows.at(-1) as object).at(-1), ['__proto__', { x: 1 }], 'the oracle: an own field __proto__');
    const lines = r.text.split('\r\n');
    const header = lines[0]!.split(',');
    const last = lines[lines.length - 2]!;
    // The row's __proto__ value must be written somewhere: as its own column, or inside _extra's JSON.
    const inColumn = header.includes('__proto__');
    assert.ok(inColumn || last.includes('""__proto__"":{""x"":1}'), `the last row's __proto__ value is in the file; header ${lines[0]}, last row ${last.slice(-40)}`);
  });
});
