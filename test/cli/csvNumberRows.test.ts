// CSV of rows that are numbers (found by revC): --format csv of rows that are numbers (a top-level array of numbers is rows by the one rows
// rule) writes every row's number as the service wrote it, one line a row, the same header as for
// plain numbers (`value`). On aa14ca2 a number JSON.parse would change (9007199254740993, -0, 1E400,
// 1.50) makes the header `_extra` and its own line empty: the value is lost, and other rows are written
// as {"value":…} objects. NDJSON and JSON keep them. Held (small) and streamed (past 256 KiB) bodies.
// A server of the test's own on 127.0.0.1 port 0; `apiwb run` in process.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runInProcess } from './inProcess';
import { padded, printedRows } from './outFileRows';
import { startLocalServer, type LocalServer } from './localServer';

const LOSSY = ['9007199254740993', '-0', '1E400', '1.50'];
const PLAIN = Array.from({ length: 60_000 }, (_, i) => String(i));
const BODIES: Record<string, readonly string[]> = {
  small: [...LOSSY, '7'],
  large: [...LOSSY, ...PLAIN],
  'plain-small': ['1', '2', '3'],
};

/** Object rows with number rows among them: the numbers go to `_extra` as {"value":N}, N as sent. */
const MIXED = `[${padded(0, 5)},9007199254740993,7,${padded(5, 3_000)}]`;

/**
 * A lossy number as the very first row (among the header's rows), then object rows holding lossy
 * numbers in cells, a number row in an array; `streamed` adds rows past 256 KiB and repeats the three
 * rows after the header is fixed (written by the fast path or the exact one).
 */
const LEAD = '1E400,{"id":-0,"pad":1.50},[12345678901234567890]';
const LEAD_LINES = [',,"{""value"":1E400}"', '-0,1.50,', ',,"{""value"":[12345678901234567890]}"'];
const LEADING: Record<string, string> = { 'lead-held': `[${LEAD}]`, 'lead-streamed': `[${LEAD},${padded(0, 3_000)},${LEAD}]` };

void describe('revC: CSV of number rows', () => {
  let server: LocalServer;
  before(async () => {
    server = await startLocalServer('apiwb-revc-csvnum-', (req, res) => {
      const name = (req.url ?? '').slice(1);
      res.writeHead(200, { 'content-type': 'application/json' }).end(name === 'mixed' ? MIXED : LEADING[name] ?? `[${BODIES[name]!.join(',')}]`);
    });
  });
  after(() => server.close());

  for (const [name, numbers] of Object.entries(BODIES)) {
    void it(`${name}: each number row is its own CSV line with its text as sent, under the header "value"`, async () => {
      const file = join(server.dir, `${name}.http`);
      writeFileSync(file, `GET {{base}}/${name}\n`);
      const out = join(server.dir, `${name}.csv`);
      const r = await runInProcess([file, '--env', 'local', '--env-file', server.envFile, '--out', out, '--format', 'csv']);
      assert.equal(r.code, 0, r.stdout);
      assert.equal(printedRows(r.stdout), numbers.length, r.stdout);
      const lines = readFileSync(out, 'utf8').split('\r\n');
      assert.equal(lines.pop(), '', 'the file ends with a line break');
      assert.deepEqual(lines.slice(0, 6), ['value', ...numbers.slice(0, 5)], 'the header and the first rows, as sent');
      assert.equal(lines.length, numbers.length + 1, 'one line a row');
    });
  }

  void it('a number row among object rows keeps its text in _extra, as a plain number row does', async () => {
    const file = join(server.dir, 'mixed.http');
    writeFileSync(file, 'GET {{base}}/mixed\n');
    const out = join(server.dir, 'mixed.csv');
    const r = await runInProcess([file, '--env', 'local', '--env-file', server.envFile, '--out', out, '--format', 'csv']);
    assert.equal(r.code, 0, r.stdout);
    const lines = readFileSync(out, 'utf8').split('\r\n');
    assert.equal(lines[0], 'id,pad,_extra');
    assert.deepEqual(lines.slice(6, 8), [',,"{""value"":9007199254740993}"', ',,"{""value"":7}"'], 'rows 6 and 7: the numbers as sent');
  });

  for (const name of Object.keys(LEADING)) {
    void it(`${name}: a lossy number as the first row goes to _extra as sent; NDJSON and JSON of the body agree`, async () => {
      const file = join(server.dir, `${name}.http`);
      writeFileSync(file, `GET {{base}}/${name}\n`);
      const texts: Record<string, string> = {};
      for (const format of ['csv', 'ndjson', 'json']) {
        const out = join(server.dir, `${name}.${format}`);
        const r = await runInProcess([file, '--env', 'local', '--env-file', server.envFile, '--out', out, '--format', format]);
        assert.equal(r.code, 0, r.stdout);
        texts[format] = readFileSync(out, 'utf8');
      }
      const lines = texts.csv!.split('\r\n');
      assert.equal(lines[0], 'id,pad,_extra');
      assert.deepEqual(lines.slice(1, 4), LEAD_LINES, 'the first rows, every number as sent');
      if (name === 'lead-streamed') assert.deepEqual(lines.slice(-4, -1), LEAD_LINES, 'the same rows past the header, as sent');
      const ndjson = texts.ndjson!.split('\n');
      assert.deepEqual(ndjson.slice(0, 3), ['1E400', '{"id":-0,"pad":1.50}', '[12345678901234567890]'], 'NDJSON: each row as sent');
      assert.deepEqual(texts.json!.split('\n').slice(0, 4).map((l) => l.replace(/,$/, '')), ['[', ...ndjson.slice(0, 3)], 'JSON: each row as sent');
      assert.equal(lines.length - 2, ndjson.length - 1, 'as many CSV lines as NDJSON rows');
    });
  }
});
