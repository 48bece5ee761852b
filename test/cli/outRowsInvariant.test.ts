// `apiwb run --out` on a single response: the row count printed equals the rows in the file, whatever the
// body's shape or fault; rows the rows rule found but could not take as given are refused in words and
// exit 1, and what the request wrote while its body arrived is cut off the file again
// (src/cli/responseRows.ts). Oracle: JSON.parse of the whole body and the rows rule. Each body is served
// by a server of the test's own on 127.0.0.1 (port 0); `apiwb run` in process.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runInProcess } from './inProcess';
import { assertFileHolds, fileIds, fileRows, oracle, padded, printedRows } from './outFileRows';
import { startLocalServer, type LocalServer } from './localServer';

const alike = (n: number, depth: 1 | 2): string[] =>
  Array.from({ length: n }, (_, i) => (depth === 1 ? `"k${i}":[{"i":${i}}]` : `"k${i}":{"v":[{"i":${i}}]}`));
const WRAPPED = `{"Data":[${padded(0, 20_000)}]}`;

/** Whole bodies, each sent in one go. */
const BODIES: Record<string, string> = {
  // The first of 30 000 alike small arrays given again later as something else: JSON.parse keeps the last.
  'again-number': `{${alike(30_000, 1).join(',')},"k0":5}`,
  'again-object': `{${alike(30_000, 1).join(',')},"k0":{"x":1}}`,
  'again-null': `{${alike(30_000, 1).join(',')},"k0":null}`,
  'again-numbers': `{${alike(30_000, 1).join(',')},"k0":[1,2]}`,
  'again-depth2': `{${alike(30_000, 2).join(',')},"k0":5}`,
  'again-pretty': JSON.stringify(JSON.parse(`{${alike(30_000, 1).join(',')}}`), null, 1).replace(/\n}$/, ',\n "k0": 5\n}'),
  // A rows field given twice: about 1.4 MB of the first array before the second.
  twice: `{"value":[${padded(0, 15_000)}],"value":[${padded(100_000, 5)}]}`,
  // An outer key given twice: JSON.parse keeps the last object, whose array is the small one.
  'outer-twice': `{"o":{"v":[${padded(0, 5_000)}]},"o":{"w":[${padded(9_000, 3)}]}}`,
  wrapped: WRAPPED,
  'top-array': `[${padded(0, 20_000)}]`,
  // A key first seen on the last row, past the first batch (about 1 MiB) of a streamed body.
  'late-key': `[${padded(0, 19_999)},{"id":19999,"pad":"${'x'.repeat(80)}","late":1}]`,
  // Rows three levels down (items=result.data.page), siblings at every level.
  deep: `{"status":"ok","result":{"meta":{"count":null,"tags":["a","b"]},"data":{"kind":"page","page":[${padded(0, 20_000)}],"more":false}}}`,
  // About 2 MB of numbers: rows that are not objects (CSV: one "value" column).
  numbers: `[${Array.from({ length: 300_000 }, (_, i) => (i % 7 === 0 ? -i : i * 3.5)).join(',')}]`,
  // One big object, no rows: a map of 20 000 row objects.
  'big-object': `{${Array.from({ length: 20_000 }, (_, i) => `"r${i}":{"id":${i},"pad":"${'x'.repeat(80)}"}`).join(',')}}`,
  // Cells a spreadsheet would run as formulas, past the first batch of rows too.
  formulas: `[${Array.from({ length: 20_000 }, (_, i) => `{"id":${i},"f":"=SUM(A${i})","n":"-${i}.5","q":"a,\\"b\\"\\n"}`).join(',')}]`,
};
/** Directives of bodies read by a style. */
const STYLES: Record<string, { style: string; items: string }> = {
  deep: { style: '# @paging generic items=result.data.page\n', items: 'result.data.page' },
};
/** Bodies that break: their first bytes, then a socket dropped or bytes that are not JSON. */
const BROKEN: Record<string, { text: string; end: 'drop' | 'garbage' }> = {
  'cut-array': { text: `[${padded(0, 20_000)}]`.slice(0, 1_000_000), end: 'drop' },
  'cut-wrapped': { text: WRAPPED.slice(0, 1_000_000), end: 'drop' },
  'malformed-array': { text: `[${padded(0, 20_000)}]`.slice(0, 1_000_000), end: 'garbage' },
};


void describe('apiwb run --out: a single response\'s printed rows are the rows in the file', () => {
  let server: LocalServer;
  before(async () => {
    server = await startLocalServer('apiwb-out-rows-', (req, res) => {
      const name = decodeURIComponent((req.url ?? '').slice(1));
      res.writeHead(200, { 'content-type': 'application/json' });
      // A walk of two pages of about 1.9 MB, the second cut mid-stream.
      if (name === 'walk-1') return void res.end(`{"value":[${padded(0, 20_000)}],"next_link":"http://${req.headers.host}/walk-2"}`);
      if (name === 'walk-2') return void res.write(`{"value":[${padded(20_000, 20_000)}]`.slice(0, 1_200_000), () => res.socket?.destroy());
      const broken = BROKEN[name];
      if (!broken) return void res.end(BODIES[name]);
      if (broken.end === 'garbage') return void res.end(`${broken.text}}}}`);
      res.write(broken.text, () => res.socket?.destroy());
    });
  });
  after(() => server.close());

  const run = async (name: string, style = '', format: 'ndjson' | 'csv' | 'json' = 'ndjson', before?: string): Promise<{ code: number; stdout: string; stderr: string; rows: unknown[]; out: string }> => {
    const file = join(server.dir, `${name}-${format}.http`);
    writeFileSync(file, `${style}GET {{base}}/${encodeURIComponent(name)}\n`);
    const out = join(server.dir, `${name}${style === '' ? '' : '-styled'}.${format}`);
    if (before !== undefined) writeFileSync(out, before);
    const r = await runInProcess([file, '--env', 'local', '--env-file', server.envFile, '--out', out, ...(format === 'ndjson' ? [] : ['--format', format])]);
    return { ...r, rows: fileRows(out, format), out };
  };

  for (const name of Object.keys(BODIES).filter((n) => n.startsWith('again-'))) {
    void it(`${name}: the first of 30 000 alike arrays given again later is refused in words, exit 1, nothing in the file`, async () => {
      const r = await run(name);
      const expected = oracle(BODIES[name]!, '');
      assert.ok(expected.length > 0, 'JSON.parse finds rows: a run that writes none must say so');
      assert.equal(r.code, 1, r.stdout + r.stderr);
      assert.match(r.stdout, /passed over while the body arrived.*name the rows with items=/);
      assert.equal(printedRows(r.stdout), r.rows.length);
      assert.deepEqual(r.rows, []);
    });
  }

  void it('a rows field given twice, read by its style: the rows written while it arrived are cut off the file again, said in words', async () => {
    const r = await run('twice', '# @paging generic next=next_link items=value\n');
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(r.stdout, /"value" appears twice/);
    assert.match(r.stdout, /the 10\d{3} row\(s\) it wrote to --out while the body arrived were cut off again/);
    assert.deepEqual(r.rows, [], 'no row of the first array stays in the file');
    assert.equal(printedRows(r.stdout), 0);
    assert.match(r.stderr, /no row is kept: the rows written were cut off again; the file that was there is left as it was/);
  });

  void it('an outer key given twice: never the first object\'s rows, but the last\'s, as JSON.parse keeps them (the later key voids the first as it comes)', async () => {
    const r = await run('outer-twice');
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const oracle = (JSON.parse(BODIES['outer-twice']!) as { o: { w: unknown[] } }).o.w;
    assert.deepEqual(r.rows, oracle);
    assert.equal(printedRows(r.stdout), 3);
  });

  void it('without --out the same body is refused the same way: never "0 rows" and exit 0', async () => {
    const file = join(server.dir, 'no-out.http');
    writeFileSync(file, 'GET {{base}}/again-number\n');
    const r = await runInProcess([file, '--env', 'local', '--env-file', server.envFile]);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(r.stdout, /passed over while the body arrived/);
  });

  void it('a refusal that wrote nothing leaves the file that was there as it was, and says so', async () => {
    const r = await run('again-number', '', 'ndjson', '{"yesterday":1}\n');
    assert.equal(r.code, 1);
    assert.deepEqual(r.rows, [{ yesterday: 1 }]);
    assert.match(r.stderr, /left as it was/);
  });

  void it('a rows field given twice after a good request: the file keeps exactly the first request\'s rows, the totals count them', async () => {
    const file = join(server.dir, 'two.http');
    writeFileSync(file, 'GET {{base}}/wrapped\n\n###\n# @paging generic next=next_link items=value\nGET {{base}}/twice\n');
    const out = join(server.dir, 'two.ndjson');
    const r = await runInProcess([file, '--env', 'local', '--env-file', server.envFile, '--out', out]);
    assert.equal(r.code, 1, r.stdout);
    const rows = fileRows(out, 'ndjson');
    assert.deepEqual(rows, oracle(WRAPPED, ''));
    assert.equal(printedRows(r.stdout), rows.length);
  });

  for (const name of ['twice', 'wrapped', 'top-array', 'deep', 'numbers', 'big-object', 'formulas']) {
    for (const format of ['ndjson', 'csv', 'json'] as const) {
      void it(`${name} (${format}): the file holds what JSON.parse of the whole body gives, streamed as it arrives; every row counted, exit 0`, async () => {
        const styled = STYLES[name];
        const r = await run(name, styled?.style ?? '', format);
        assert.equal(r.code, 0, r.stdout + r.stderr);
        const expected = oracle(BODIES[name]!, styled?.style ?? '', styled?.items);
        assert.equal(printedRows(r.stdout), expected.length);
        // (A CSV cell may hold a line break: its rows are the text's, asserted whole.)
        if (format !== 'csv') assert.equal(r.rows.length, expected.length);
        assertFileHolds(r.out, format, expected, r.stdout);
      });
    }
  }

  void it('CSV streamed: its header is fixed by the first rows written (the first batch), a key first seen later goes into _extra', async () => {
    const r = await run('late-key', '', 'csv');
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const lines = readFileSync(r.out, 'utf8').split('\r\n');
    assert.equal(lines[0], 'id,pad,_extra');
    assert.equal(lines.length, 20_000 + 2);
    assert.equal(lines[1 + 19_999], `19999,${'x'.repeat(80)},"{""late"":1}"`);
    const json = await run('late-key', '', 'json');
    assert.deepEqual(json.rows, oracle(BODIES['late-key']!, ''), 'the JSON file holds every key as it came');
  });

  for (const format of ['csv', 'json'] as const) {
    void it(`a rows field given twice, read by its style (${format}): refused in the same words as NDJSON, what it wrote cut off again, the old file back`, async () => {
      const yesterday = format === 'csv' ? 'id\r\n1\r\n' : '[{"yesterday":1}]\n';
      const r = await run('twice', '# @paging generic next=next_link items=value\n', format, yesterday);
      assert.equal(r.code, 1, r.stdout + r.stderr);
      assert.match(r.stdout, /"value" appears twice/);
      // Written in batches of about 1 MiB as the body arrived (how many depends on where the chunks fell): never all 15 000.
      const wrote = Number(/the (\d+) row\(s\) it wrote to --out while the body arrived were cut off again/.exec(r.stdout)?.[1]);
      assert.ok(wrote >= 10_000 && wrote < 15_000, r.stdout);
      assert.equal(readFileSync(r.out, 'utf8'), yesterday, 'the file that was there, as it was');
      assert.equal(printedRows(r.stdout), 0);
    });
  }

  for (const format of ['ndjson', 'csv', 'json'] as const) {
    void it(`a walk (--all-pages, ${format}) whose second page is cut mid-stream: the file holds the first page's rows only, as JSON.parse gives them`, async () => {
      const file = join(server.dir, `walk-${format}.http`);
      writeFileSync(file, '# @paging generic next=next_link items=value\nGET {{base}}/walk-1\n');
      const out = join(server.dir, `walk.${format}`);
      const r = await runInProcess([file, '--env', 'local', '--env-file', server.envFile, '--out', out, '--format', format, '--all-pages']);
      assert.equal(r.code, 1, r.stdout + r.stderr);
      const first = oracle(`{"value":[${padded(0, 20_000)}]}`, 'styled');
      assertFileHolds(out, format, first, r.stdout);
      assert.equal(printedRows(r.stdout), first.length, r.stdout);
    });
  }

  for (const [name, format] of Object.keys(BROKEN).flatMap((n) => (['ndjson', 'csv', 'json'] as const).map((f) => [n, f] as const))) {
    void it(`${name} (${format}): the rows fully received stay in the file, the line counts them, exit 1`, async () => {
      const r = await run(name, '', format);
      assert.equal(r.code, 1, r.stdout + r.stderr);
      assert.ok(r.rows.length > 5_000, `rows fully received are kept (${r.rows.length})`);
      assert.equal(printedRows(r.stdout), r.rows.length);
      assert.match(r.stdout, new RegExp(` ${r.rows.length} rows {2}— failed at page 1`));
      assert.match(r.stdout, new RegExp(`and ${r.rows.length} row\\(s\\) of page 1 fully received, written as they arrived`));
      const whole = [...Array(20_000).keys()].map((i) => i);
      assert.deepEqual(fileIds(r.out, format), whole.slice(0, r.rows.length), 'a prefix of the body\'s rows, each whole');
      assertFileHolds(r.out, format, oracle(`[${padded(0, 20_000)}]`, '').slice(0, r.rows.length), 'the rows fully received, as the whole body would give them');
    });
  }
});
