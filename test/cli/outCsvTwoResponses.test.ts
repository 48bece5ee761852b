// Two requests to one CSV --out: the header is the keys of the first page that has rows, and a single
// response is one page, whether it reached the sink read whole (a small body: writePage) or streamed as it
// arrived (900 rows, fewer than the header's 1 000: parts that do not end a page; responseRows.ts ends it).
// The second response's new key goes to `_extra`, never into the header.
// A server of the test's own on 127.0.0.1, port 0; `apiwb run` in process.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runInProcess } from './inProcess';
import { startLocalServer, type LocalServer } from './localServer';

const PAD = 'x'.repeat(2_000);
const SMALL = '[{"a":1},{"a":2}]';
/** Fewer rows than the header's (900 of 1 000), about 1.8 MB: streamed to --out as it arrives. */
const BIG = `[${Array.from({ length: 900 }, (_, i) => `{"a":${i},"pad":"${PAD}"}`).join(',')}]`;

void describe('CSV --out of two responses', () => {
  let server: LocalServer;
  before(async () => {
    server = await startLocalServer('apiwb-out-csv-two-', (req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(req.url === '/one' ? SMALL : req.url === '/big' ? BIG : '[{"b":3}]');
    });
  });
  after(() => server.close());

  for (const first of ['one', 'big'] as const) {
    void it(`${first}: the header is the first response's keys; the second's new key goes to _extra`, async () => {
      const file = join(server.dir, `${first}.http`);
      const out = join(server.dir, `${first}.csv`);
      writeFileSync(file, `GET {{base}}/${first}\n\n###\n\nGET {{base}}/two\n`);
      const r = await runInProcess([file, '--env', 'local', '--env-file', server.envFile, '--out', out, '--format', 'csv']);
      assert.equal(r.code, 0, r.stdout + r.stderr);
      const text = readFileSync(out, 'utf8');
      const lines = text.split('\r\n');
      assert.equal(lines[0], first === 'one' ? 'a,_extra' : 'a,pad,_extra', `the header of the first response's rows; printed: ${r.stdout}`);
      assert.equal(lines.at(-2), first === 'one' ? ',"{""b"":3}"' : ',,"{""b"":3}"', 'the second response\'s key in _extra');
    });
  }
});
