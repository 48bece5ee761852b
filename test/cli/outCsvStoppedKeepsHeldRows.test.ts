// CSV --out stopped (SIGINT) while the body arrives, before the header's rows are all in (csvSink.ts holds
// the first rows back until HEADER_ROWS or the page's end): the rows handed to the sink are not lost, the
// stop writes the header and them (fileSink.ts's stop path, encodedSink.ts's atStop), whole rows only.
// The CLI runs as a child; the server is the test's own on 127.0.0.1, port 0.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startRun } from './cliProcess';
import { csvOf, oracle } from './outFileRows';
import { startLocalServer, type LocalServer } from './localServer';

/** 300 rows of about 5 KB (past the 1 MiB the stream hands on at once, under the header's 1 000 rows), keys varying. */
const ROWS = Array.from({ length: 300 }, (_, i) => `{"id":${i},"k${i % 3}":1,"pad":"${'x'.repeat(5_000)}"}`);
const BODY = `[${ROWS.join(',')},${ROWS.join(',')}]`;

void describe('CSV --out stopped before its header is fixed', () => {
  let server: LocalServer;
  before(async () => {
    // The first 300 rows and a comma, then nothing more until the client goes.
    server = await startLocalServer('apiwb-out-csv-stop-', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write(`[${ROWS.join(',')},`);
    });
  });
  after(() => server.close());

  void it('SIGINT: the header and the whole rows handed to the sink are in the file', async () => {
    const file = join(server.dir, 'stop.http');
    writeFileSync(file, 'GET {{base}}/stop\n');
    const out = join(server.dir, 'stop.csv');
    const yesterday = 'yesterday\r\n';
    writeFileSync(out, yesterday);
    const run = startRun([file, '--env', 'local', '--env-file', server.envFile, '--out', out, '--format', 'csv', '--timeout', '20000']);
    // Until rows reached the sink (the new file made in place of yesterday's), or at most about 15 s.
    let made = false;
    for (let tries = 0; tries < 1_500 && !made; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      made = existsSync(out) && readFileSync(out, 'utf8') !== yesterday;
    }
    assert.ok(made, 'rows reached the sink before the stop');
    const end = await run.stop('SIGINT');
    assert.deepEqual(end, { code: null, signal: 'SIGINT' }, run.output());
    const text = readFileSync(out, 'utf8');
    const lines = text.split('\r\n').length - 2;
    assert.ok(lines > 0, `rows in the file: ${JSON.stringify(text.slice(0, 80))}; printed: ${run.output()}`);
    // The file a CSV of the body's first rows is: that many rows, the header of their keys.
    assert.equal(text, csvOf(oracle(BODY, '').slice(0, lines)));
    assert.match(run.output(), /stopped: .* holds the rows written before the stop/);
  });
});
