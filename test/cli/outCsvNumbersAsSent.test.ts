// CSV --out writes every number as the service wrote it (csvSink.ts, parseKeepingNumbers): a 64-bit id
// such as 12345678901234567890 is not rounded, 1E400 is not Infinity, -0, 1.50 and 1e5 keep their text —
// in a cell, inside a nested value's JSON text and in `_extra`, on every path a row takes: the header's
// rows (held, parsed), rows past the header written from their bytes (flat) or parsed (nested, escaped
// strings, keys out of order, a key past the header), and rows the Redactor changes (a secret-named field).
// Oracle: the body's own number texts, placed by the test as it writes the body. A server of the test's
// own on 127.0.0.1, port 0; `apiwb run` in process.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runInProcess } from './inProcess';
import { startLocalServer, type LocalServer } from './localServer';

const NUMBERS = ['12345678901234567890', '1E400', '-0', '1.50', '1e5', '0.1'];
const PAD = 'x'.repeat(80);

/** Row i's JSON text and its CSV line (columns id, n, s, nested, password, _extra). */
function row(i: number): { json: string; csv: string } {
  const n = NUMBERS[i % NUMBERS.length]!;
  // A key first seen past the header's rows (1 000) goes to _extra.
  const late = i >= 1_500 && i % 11 === 0;
  const secret = i % 7 === 0;
  const tail = `${secret ? ',"password":"hunter2"' : ''}${late ? `,"late":[${n}]` : ''}`;
  const kinds = [
    { json: `{"id":${i},"n":${n},"s":"${PAD}","nested":null${tail}}`, s: PAD, nested: '' }, // flat
    { json: `{"id":${i},"n":${n},"s":"a \\"q\\" ${PAD}"${tail}}`, s: `"a ""q"" ${PAD}"`, nested: '' }, // an escape
    { json: `{"n":${n},"id":${i},"s":"${PAD}"${tail}}`, s: PAD, nested: '' }, // keys out of order
    { json: `{"id":${i},"n":${n},"s":"${PAD}","nested":{"m":[${n},{"k":${n}}]}${tail}}`, s: PAD, nested: `"{""m"":[${n},{""k"":${n}}]}"` }, // nested
  ];
  const kind = kinds[i % kinds.length]!;
  return { json: kind.json, csv: `${i},${n},${kind.s},${kind.nested},${secret ? '***' : ''},${late ? `"{""late"":[${n}]}"` : ''}\r\n` };
}

const bodyOf = (count: number): string => `[${Array.from({ length: count }, (_, i) => row(i).json).join(',')}]`;
const fileOf = (count: number): string => `id,n,s,nested,password,_extra\r\n${Array.from({ length: count }, (_, i) => row(i).csv).join('')}`;
/** Fewer rows than the header's (every row held and parsed) and about 3 MB of them (streamed in batches past the header). */
const SMALL = 300, BIG = 24_000;
/** A small object whose rows are a field (the rows rule finds them), its other fields read by assertions. */
const OBJECT = '{"Data":[{"id":1,"n":1E400},{"id":2,"n":-0,"m":{"k":[1.50]}}],"total":12345678901234567890,"count":2}';

void describe('CSV --out: numbers as the service wrote them', () => {
  let server: LocalServer;
  before(async () => {
    server = await startLocalServer('apiwb-out-csv-numbers-', (req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      if (req.url === '/object') return void res.end(OBJECT);
      res.end(bodyOf(req.url === '/big' ? BIG : SMALL));
    });
  });
  after(() => server.close());

  void it('a small object body: its rows\' numbers as it holds them, its other fields still read by assertions', async () => {
    const file = join(server.dir, 'object.http');
    writeFileSync(file, 'GET {{base}}/object\n\n?? body $.Data[1].id == 2\n?? body $.count == 2\n');
    const out = join(server.dir, 'object.csv');
    const r = await runInProcess([file, '--env', 'local', '--env-file', server.envFile, '--out', out]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /2\/2 assertions/);
    assert.equal(readFileSync(out, 'utf8'), 'id,n,m,_extra\r\n1,1E400,,\r\n2,-0,"{""k"":[1.50]}",\r\n');
  });

  for (const [name, count] of [['small', SMALL], ['big', BIG]] as const) {
    void it(`writes each cell's number as the body holds it (${name}: ${count} rows)`, async () => {
      const file = join(server.dir, `${name}.http`);
      writeFileSync(file, `GET {{base}}/${name}\n`);
      const out = join(server.dir, `${name}.csv`);
      const r = await runInProcess([file, '--env', 'local', '--env-file', server.envFile, '--out', out]);
      assert.equal(r.code, 0, r.stdout + r.stderr);
      const got = readFileSync(out, 'utf8');
      assert.ok(!got.includes('Infinity') && !got.includes('12345678901234567000') && !got.includes('hunter2'));
      const want = fileOf(count);
      const gotLines = got.split('\r\n'), wantLines = want.split('\r\n');
      const first = wantLines.findIndex((line, i) => line !== gotLines[i]);
      assert.equal(first, -1, `line ${first}: ${gotLines[first]} (want ${wantLines[first]})`);
      assert.equal(got, want);
    });
  }

  // NDJSON and JSON keep the body's text too, on rows the Redactor changed (a password) as on the others.
  for (const format of ['ndjson', 'json'] as const) {
    for (const [name, count] of [['small', SMALL], ['big', BIG]] as const) {
      void it(`--format ${format}: each row as the body holds it, the password masked (${name})`, async () => {
        const file = join(server.dir, `${name}-${format}.http`);
        writeFileSync(file, `GET {{base}}/${name}\n`);
        const out = join(server.dir, `${name}.${format}`);
        const r = await runInProcess([file, '--env', 'local', '--env-file', server.envFile, '--out', out, '--format', format]);
        assert.equal(r.code, 0, r.stdout + r.stderr);
        const got = readFileSync(out, 'utf8');
        const lines = Array.from({ length: count }, (_, i) => row(i).json.replace('"password":"hunter2"', '"password":"***"'));
        const want = format === 'ndjson' ? `${lines.join('\n')}\n` : `[\n${lines.join(',\n')}\n]\n`;
        const gotLines = got.split('\n'), wantLines = want.split('\n');
        const first = wantLines.findIndex((line, i) => line !== gotLines[i]);
        assert.equal(first, -1, `line ${first}: ${gotLines[first]} (want ${wantLines[first]})`);
        assert.equal(got, want);
      });
    }
  }
});
