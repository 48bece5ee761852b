// Attacks on `apiwb run --out` of a single response: the rows its line prints must be the
// rows it left in the file, and those must be what JSON.parse of the whole body and the rows rule give
// (or the request is refused in words, exit 1, no row of it in the file). Servers of the test's own on
// 127.0.0.1 port 0; `apiwb run` in process.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import { runInProcess } from './inProcess';
import { fileRows, oracle, padded, printedRows, wholeRowsIn } from './outFileRows';
import { startLocalServer, type LocalServer } from './localServer';


/** Whole bodies (name → text). */
const BODIES: Record<string, string> = {
  // The outer key given twice, the same inner name: JSON.parse keeps the last object.
  'outer-same-number': `{"o":{"v":[${padded(0, 5_000)}]},"o":{"v":5}}`,
  'outer-same-null': `{"o":{"v":[${padded(0, 5_000)}]},"o":{"v":null}}`,
  'outer-same-object': `{"o":{"v":[${padded(0, 5_000)}]},"o":{"v":{"x":1}}}`,
  'outer-same-small': `{"o":{"v":[${padded(0, 5_000)}]},"o":{"v":[${padded(9_000, 3)}]}}`,
  'outer-same-empty': `{"o":{"v":[${padded(0, 5_000)}]},"o":{"v":[]}}`,
  'top-again-object': `{"v":[${padded(0, 5_000)}],"v":{"w":[${padded(9_000, 3)}]}}`,
  'outer-again-array': `{"o":{"v":[${padded(0, 5_000)}]},"o":[${padded(9_000, 2)}]}`,
  'outer-same-reordered': `{"o":{"v":[${padded(0, 5_000)}],"w":[${padded(7_000, 2)}]},"o":{"w":[${padded(9_000, 3)}],"v":5}}`,
  // Depth 1: a large array given again as a number.
  'top-again-number': `{"v":[${padded(0, 5_000)}],"v":5}`,
  // Good bodies for multi-request files.
  good: `{"Data":[${padded(0, 4_000)}]}`,
  good2: `{"Data":[${padded(50_000, 4_000)}]}`,
  small: `{"Data":[${padded(0, 10)}]}`,
  // A rows field given twice (items=value): refused after rows were streamed.
  twice: `{"value":[${padded(0, 15_000)}],"value":[${padded(100_000, 5)}]}`,
  'twice-fresh': `{"value":[${padded(0, 15_000)}],"value":[${padded(100_000, 5)}]}`,
};

/** Bodies that break: their first `at` bytes, then a dropped socket or bytes that are not JSON. */
const BIG_VALUE = `{"value":[${padded(0, 20_000)}]}`;
const BIG_ARRAY = `[${padded(0, 20_000)}]`;
const BROKEN: Record<string, { text: string; at: number; end: 'drop' | 'garbage'; gzip?: true }> = {
  'styled-cut-1.5MB': { text: BIG_VALUE, at: 1_500_000, end: 'drop' },
  'styled-garbage-1.5MB': { text: BIG_VALUE, at: 1_500_000, end: 'garbage' },
  'styled-cut-600KB': { text: BIG_VALUE, at: 600_000, end: 'drop' },
  'plain-cut-600KB': { text: BIG_ARRAY, at: 600_000, end: 'drop' },
};



/** A short picture of rows for a failure message: how many, and the ids at each end. */
function brief(rows: readonly unknown[]): string {
  const id = (r: unknown): unknown => (r !== null && typeof r === 'object' ? (r as { id?: unknown }).id : r);
  return rows.length === 0 ? '0 rows' : `${rows.length} rows, ids ${String(id(rows[0]))}..${String(id(rows[rows.length - 1]))}`;
}


void describe('attacks on --out of a single response', () => {
  let server: LocalServer;
  before(async () => {
    server = await startLocalServer('apiwb-out-', (req, res) => {
      const name = decodeURIComponent((req.url ?? '').slice(1));
      const broken = BROKEN[name];
      if (name.startsWith('gz-')) {
        const body = BODIES[name.slice(3)]!;
        res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
        return void res.end(gzipSync(body));
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      if (!broken) return void res.end(BODIES[name]);
      const text = broken.text.slice(0, broken.at);
      if (broken.end === 'garbage') return void res.end(`${text}}}}`);
      res.write(text, () => res.socket?.destroy());
    });
  });
  after(() => server.close());

  const run = async (name: string, style = '', format: 'ndjson' | 'csv' | 'json' = 'ndjson', existing?: string): Promise<{ code: number; stdout: string; stderr: string; rows: unknown[]; out: string }> => {
    const file = join(server.dir, `${name}-${format}.http`);
    writeFileSync(file, `${style}GET {{base}}/${encodeURIComponent(name)}\n`);
    const out = join(server.dir, `${name}${style === '' ? '' : '-styled'}.${format}`);
    if (existing !== undefined) writeFileSync(out, existing);
    const r = await runInProcess([file, '--env', 'local', '--env-file', server.envFile, '--out', out, ...(format === 'ndjson' ? [] : ['--format', format])]);
    return { ...r, rows: fileRows(out, format), out };
  };

  // Claim 3: an outer key given twice is never answered with the first object's rows.
  for (const name of ['outer-same-number', 'outer-same-null', 'outer-same-object', 'outer-same-small', 'outer-same-empty', 'top-again-number', 'top-again-object', 'outer-again-array', 'outer-same-reordered']) {
    void it(`${name}: never the first object's rows (JSON.parse keeps the last); the file holds the oracle's rows or the request is refused`, async () => {
      const r = await run(name);
      const expected = oracle(BODIES[name]!, '');
      assert.equal(printedRows(r.stdout), r.rows.length, 'the line counts the rows in the file');
      if (r.code === 0) assert.equal(brief(r.rows), brief(expected), `exit 0 must mean the oracle's rows\n${r.stdout}`);
      else assert.equal(brief(r.rows), brief([]), r.stdout);
    });
  }

  void it('outer-same-number without --out: the rows counted are JSON.parse\'s (none), or the request is refused', async () => {
    const file = join(server.dir, 'no-out-outer.http');
    writeFileSync(file, 'GET {{base}}/outer-same-number\n');
    const r = await runInProcess([file, '--env', 'local', '--env-file', server.envFile]);
    if (r.code === 0) assert.equal(printedRows(r.stdout), 0, r.stdout);
  });

  // Claim 2 with a style: rows fully received are kept, counted, and the request fails.
  for (const name of ['styled-cut-1.5MB', 'styled-garbage-1.5MB', 'styled-cut-600KB', 'plain-cut-600KB']) {
    void it(`${name}: a body cut or broken keeps exactly the rows fully received, counts them, exit 1`, async () => {
      const broken = BROKEN[name]!;
      const r = await run(name, name.startsWith('styled') ? '# @paging generic next=next_link items=value\n' : '');
      assert.equal(r.code, 1, r.stdout + r.stderr);
      assert.equal(printedRows(r.stdout), r.rows.length, 'the line counts the rows in the file');
      const whole = wholeRowsIn(broken.text.slice(0, broken.at));
      assert.equal(r.rows.length, whole, `rows fully received: ${whole}; in the file: ${r.rows.length}\n${r.stdout}`);
    });
  }

  // Several requests into one --out, one refused in the middle: earlier and later requests' rows kept.
  // `twice` streams and is refused in every format (its rows field comes again after rows went out): the
  // file must hold the rows of each request whose line passed (the oracle's), and none of one refused.
  const linesPassed = (stdout: string): boolean[] => stdout.split('\n').filter((l) => /^[✓✗] /.test(l)).map((l) => l.startsWith('✓'));
  const cases: Record<string, { text: string; bodies: [string, '' | 'items'][] }> = {
    'good-twice-good': { text: 'GET {{base}}/good\n\n###\n# @paging generic next=next_link items=value\nGET {{base}}/twice\n\n###\nGET {{base}}/good2\n', bodies: [['good', ''], ['twice', 'items'], ['good2', '']] },
    'twice-good': { text: '# @paging generic next=next_link items=value\nGET {{base}}/twice\n\n###\nGET {{base}}/good\n', bodies: [['twice', 'items'], ['good', '']] },
  };
  for (const [name, c] of Object.entries(cases)) {
    for (const format of ['ndjson', 'csv', 'json'] as const) {
      void it(`${name} (${format}): the file holds the rows of each request that passed, none of one refused; the totals count them`, async () => {
        const file = join(server.dir, `${name}-${format}.http`);
        writeFileSync(file, c.text);
        const out = join(server.dir, `${name}.${format}`);
        const r = await runInProcess([file, '--env', 'local', '--env-file', server.envFile, '--out', out, ...(format === 'ndjson' ? [] : ['--format', format])]);
        const passed = linesPassed(r.stdout);
        assert.equal(passed.length, c.bodies.length, r.stdout);
        assert.deepEqual(passed, c.bodies.map(([body]) => body !== 'twice'), `only twice is refused, in ${format} as in NDJSON`);
        const expected = c.bodies.flatMap(([body, style], i) => (passed[i] ? oracle(BODIES[body]!, style) : []));
        const rows = fileRows(out, format);
        assert.equal(printedRows(r.stdout), rows.length, r.stdout);
        if (format !== 'csv') assert.equal(brief(rows), brief(expected), r.stdout);
        else {
          assert.equal(rows.length, expected.length, r.stdout);
          assert.equal(readFileSync(out, 'utf8').split('\r\n')[0], 'id,pad,_extra');
        }
      });
    }
  }

  void it('a refusal after rows were streamed: the file that was there before the run is as it was (its rows were cut off again)', async () => {
    const r = await run('twice', '# @paging generic next=next_link items=value\n', 'ndjson', '{"yesterday":1}\n');
    assert.equal(r.code, 1);
    assert.deepEqual(r.rows, [{ yesterday: 1 }], `${r.stderr}`);
  });

  void it('JSON: a failed request that wrote no row leaves the file as it was and says so; with no file before a cut-off run makes none, nothing left beside it', async () => {
    const file = join(server.dir, 'good-201.http');
    writeFileSync(file, 'GET {{base}}/outer-same-number\n?? status == 201\n');
    const out = join(server.dir, 'good-201.json');
    writeFileSync(out, '[{"yesterday":2}]\n');
    const json = await runInProcess([file, '--env', 'local', '--env-file', server.envFile, '--out', out, '--format', 'json']);
    assert.equal(json.code, 1, json.stdout);
    assert.deepEqual(fileRows(out, 'json'), [{ yesterday: 2 }], json.stderr);
    assert.match(json.stderr, /the file that was there is left as it was/);
    const fresh = await run('twice-fresh', '# @paging generic next=next_link items=value\n');
    assert.match(fresh.stdout, /cut off again/);
    assert.equal(fresh.code, 1);
    assert.equal(existsSync(fresh.out), false, 'no file where there was none');
    assert.deepEqual(readdirSync(server.dir).filter((n) => n.includes('apiwb-before')), [], 'no old file left aside');
  });

  for (const name of ['outer-same-number', 'good']) {
    void it(`gzip ${name}: the same answer as uncompressed`, async () => {
      const r = await run(`gz-${name}`);
      const expected = oracle(BODIES[name]!, '');
      assert.equal(printedRows(r.stdout), r.rows.length);
      if (r.code === 0) assert.equal(brief(r.rows), brief(expected), r.stdout);
      else assert.equal(brief(r.rows), brief([]), r.stdout);
    });
  }
});
