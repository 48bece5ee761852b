// `--format json` streamed (jsonArraySink.ts): a row goes to the file as the service sent it unless
// redaction changes it (redactingSink.ts), even in a part of the body the redacting sink must parse (any
// JSON \u escape in it). So a number JSON.stringify cannot write (1E400, which JSON.parse reads as
// Infinity) is written one way in the whole file, whatever part of the body holds it.
// Oracle: JSON.parse of the whole body gives the same value for every row's "n".
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runInProcess } from './inProcess';
import { fileRows, oracle, printedRows } from './outFileRows';
import { startLocalServer, type LocalServer } from './localServer';

/** About 2 MB: rows 0–14 999 plain (past the first batch of about 1 MiB), rows 15 000–19 999 with a \u escape in a string; every "n" is 1E400. */
const BODY = `[${Array.from({ length: 20_000 }, (_, i) => `{"id":${i},"n":1E400,"s":"${i < 15_000 ? 'A' : '\\u0041'}${'x'.repeat(60)}"}`).join(',')}]`;

void describe('--format json: one number, one way in the file', () => {
  let server: LocalServer;
  before(async () => {
    server = await startLocalServer('apiwb-out-json-num-', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(BODY);
    });
  });
  after(() => server.close());

  void it('every row\'s 1E400 reads back as one value', async () => {
    const file = join(server.dir, 'n.http');
    writeFileSync(file, 'GET {{base}}/n\n');
    const out = join(server.dir, 'n.json');
    const r = await runInProcess([file, '--env', 'local', '--env-file', server.envFile, '--out', out, '--format', 'json']);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const expected = oracle(BODY, '');
    const rows = fileRows(out, 'json') as { n: unknown }[];
    assert.equal(printedRows(r.stdout), expected.length);
    assert.equal(rows.length, expected.length);
    const values = new Set(rows.map((row) => row.n));
    assert.equal(values.size, 1, `one value of n in the file, got ${[...values].map(String).join(' and ')}`);
  });
});
