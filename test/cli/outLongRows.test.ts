// `apiwb run --out` of a response whose rows include rows too long to hold (longRowParts.ts: LONG_ROW is
// lowered here, and the held bound, so a small body streams): such a row goes to a spill file as it
// arrives and is written from it (earlyBatches.ts, RowSink.writeLongRow). What must hold whatever path a
// row takes: the file holds the rows JSON.parse finds, in order, each as the server wrote it unless
// redaction changes it; a credential in a long row is masked as in any row; the line's count is the
// file's; a body cut inside a long row keeps exactly the rows before it; no spill file is left.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { longRowsLowered } from '../fixtures/longRows';
import { runInProcess } from './inProcess';
import { fileRows, oracle, printedRows } from './outFileRows';
import { startLocalServer, type LocalServer } from './localServer';

const LONG = 40_000;
const clean = `{"id":"L1","n":1E400,"blob":"${'a'.repeat(LONG)}"}`;
const withPassword = `{"id":"L2","note":"${'b'.repeat(LONG / 2)} see https://perm:hunter2secret@host.example/x ${'b'.repeat(LONG / 2)}"}`;
const short = (id: number): string => `{"id":${id},"pad":"${'x'.repeat(60)}"}`;
const ROWS = [short(1), clean, short(2), withPassword, short(3), `{"id":"L3","list":[${Array.from({ length: 8000 }, (_, i) => i).join(',')}]}`, short(4)];
const BODY = `[${ROWS.join(',')}]`;


void describe('--out: rows too long to hold, written from a spill file', () => {
  let server: LocalServer;
  const { spills } = longRowsLowered(8192, 16_384);
  /** /slow waits here in the middle of the first long row. */
  let release: () => void = () => undefined;
  before(async () => {
    server = await startLocalServer('apiwb-out-long-', (req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const body = Buffer.from(BODY);
      if (req.url === '/slow') {
        const middle = BODY.indexOf(clean) + LONG / 2;
        res.write(body.subarray(0, middle));
        return void new Promise<void>((resolve) => { release = resolve; }).then(() => res.end(body.subarray(middle)));
      }
      if (req.url !== '/cut') return void res.end(body);
      // Cut inside the row with the password, after the first long row is whole.
      const cut = BODY.indexOf('hunter2secret') - 100;
      res.write(body.subarray(0, cut), () => res.destroy());
    });
  });
  after(() => server.close());

  void it('a long row goes to a spill file while it arrives, not held until it ends', async () => {
    const file = join(server.dir, 'slow.http');
    writeFileSync(file, 'GET {{base}}/slow\n');
    const out = join(server.dir, 'slow.ndjson');
    const spilled = spills();
    const run = runInProcess([file, '--env', 'local', '--env-file', server.envFile, '--out', out]);
    let seen = false;
    for (let waited = 0; waited < 10_000 && !seen; waited += 20) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      seen = spills() > spilled;
    }
    release();
    const r = await run;
    assert.ok(seen, 'no spill file while the long row arrived');
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.equal(readFileSync(out, 'utf8').split('\n')[1], clean);
    assert.equal(spills(), spilled, 'the spill file stayed');
  });

  for (const format of ['ndjson', 'csv', 'json'] as const) {
    void it(`${format}: the rows JSON.parse finds, the password masked, the count the file's`, async () => {
      const file = join(server.dir, `rows-${format}.http`);
      writeFileSync(file, 'GET {{base}}/rows\n');
      const out = join(server.dir, `rows.${format}`);
      const spilled = spills();
      const r = await runInProcess([file, '--env', 'local', '--env-file', server.envFile, '--out', out, '--format', format]);
      assert.equal(r.code, 0, r.stdout + r.stderr);
      const text = readFileSync(out, 'utf8');
      assert.ok(!text.includes('hunter2secret'), 'the URL password reached the file');
      assert.ok(text.includes('https://perm:***@host.example/x'), 'the URL is kept, its password masked');
      const expected = oracle(BODY, '');
      assert.equal(printedRows(r.stdout), expected.length);
      if (format !== 'csv') {
        const rows = fileRows(out, format) as { id: unknown }[];
        assert.deepEqual(rows.map((row) => row.id), expected.map((row) => (row as { id: unknown }).id));
      }
      if (format === 'ndjson') {
        const lines = text.split('\n');
        assert.equal(lines[1], clean, 'a clean long row is written as the server wrote it (1E400 kept)');
        assert.equal(lines.length, ROWS.length + 1);
      }
      assert.equal(spills(), spilled, 'a spill file was left behind');
    });
  }

  void it('a body cut inside a long row: the rows before it stay, counted; the cut row is not written', async () => {
    const file = join(server.dir, 'cut.http');
    writeFileSync(file, 'GET {{base}}/cut\n');
    const out = join(server.dir, 'cut.ndjson');
    const spilled = spills();
    const r = await runInProcess([file, '--env', 'local', '--env-file', server.envFile, '--out', out]);
    assert.notEqual(r.code, 0, r.stdout + r.stderr);
    const lines = readFileSync(out, 'utf8').split('\n').filter((l) => l !== '');
    assert.deepEqual(lines, [ROWS[0], clean, ROWS[2]]);
    assert.ok(!readFileSync(out, 'utf8').includes('hunter2secret'));
    assert.equal(spills(), spilled, 'a spill file was left behind');
  });
});
