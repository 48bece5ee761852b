// A broken or cut object body gives the same verdict and row count with and without --out.
// `apiwb run --out` fails such a body and counts the rows fully received. Without --out, the same body
// passed (✓, exit 0, "0 rows") when the damage comes after the rows array, and a body cut mid-row
// counted 0 rows where --out counted the rows fully received. A top-level array is already read the
// same way both times. JSON.parse refuses every one of these bodies.
// A server of the test's own on 127.0.0.1 port 0; `apiwb run` in process.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runInProcess } from './inProcess';
import { fileRows, padded, printedRows, wholeRowsIn } from './outFileRows';
import { startLocalServer, type LocalServer } from './localServer';

const ROWS = padded(0, 3_000); // about 300 KB: past the 256 KiB held-body bound
const WRAPPED = `{"Data":[${ROWS}]}`;
/** Bodies JSON.parse refuses: name → whole text sent, or the text and where the socket is dropped. */
const BROKEN: Record<string, { text: string; cutAt?: number; faultAt?: string }> = {
  'extra-brace': { text: `${WRAPPED}}` },
  'second-value': { text: `${WRAPPED}{"a":1}` },
  // The body ends (the response is complete as HTTP) before the JSON does.
  'ends-mid-key': { text: `{"Data":[${ROWS}],"Respo` },
  'ends-after-comma': { text: `{"Data":[${ROWS},` },
  // The connection is dropped.
  'dropped-after-comma': { text: `{"Data":[${ROWS},`, cutAt: Number.MAX_SAFE_INTEGER },
  'cut-mid-row': { text: WRAPPED, cutAt: 290_000 },
  // A row in the middle that is not JSON (a number with a leading zero; a raw line break in a string).
  'bad-number-mid-rows': { text: `{"Data":[${padded(0, 1_500)},{"n":01},${padded(2_000, 1_500)}]}`, faultAt: '{"n":01}' },
  'raw-newline-depth2': { text: `{"o":{"Data":[${padded(0, 1_500)},{"s":"a\nb"},${padded(2_000, 1_500)}]}}`, faultAt: '{"s":"a\n' },
  'small-extra-brace': { text: `{"Data":[${padded(0, 10)}]}}` },
};

void describe('a broken object body, with and without --out', () => {
  let server: LocalServer;
  before(async () => {
    server = await startLocalServer('apiwb-revc-broken-', (req, res) => {
      const b = BROKEN[decodeURIComponent((req.url ?? '').slice(1))]!;
      res.writeHead(200, { 'content-type': 'application/json' });
      if (b.cutAt === undefined) return void res.end(b.text);
      res.write(b.text.slice(0, b.cutAt), () => res.socket?.destroy());
    });
  });
  after(() => server.close());

  for (const [name, b] of Object.entries(BROKEN)) {
    void it(`${name}: without --out the request fails and counts the rows fully received, as with --out`, async () => {
      assert.throws(() => JSON.parse(b.text.slice(0, b.cutAt)), 'the body is not JSON');
      const file = join(server.dir, `${name}.http`);
      writeFileSync(file, `GET {{base}}/${name}\n`);
      const out = join(server.dir, `${name}.ndjson`);
      const withOut = await runInProcess([file, '--env', 'local', '--env-file', server.envFile, '--out', out]);
      const without = await runInProcess([file, '--env', 'local', '--env-file', server.envFile]);
      const sent = b.text.slice(0, b.cutAt);
      const received = wholeRowsIn(b.faultAt === undefined ? sent : sent.slice(0, sent.indexOf(b.faultAt)));
      assert.equal(withOut.code, 1, withOut.stdout);
      assert.equal(fileRows(out, 'ndjson').length, received, withOut.stdout);
      assert.equal(without.code, 1, `a body JSON.parse refuses passed without --out:\n${without.stdout}`);
      assert.equal(printedRows(without.stdout), received, `the rows fully received, as --out counts them:\n${without.stdout}`);
    });
  }
});
