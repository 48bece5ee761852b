// A compressed body (found by revC) whose decoder fails at its very end (bytes after the gzip member, a wrong
// CRC-32 or Adler-32 trailer) has decoded every row before the fault: `apiwb run --out` fails the
// request and keeps exactly the rows fully received, as it does for a body cut short. On aa14ca2 the
// decoder's error destroys the decoded stream at once (contentEncoding.ts), and the rows decoded but not
// yet read are lost. A server of the test's own on 127.0.0.1 port 0; `apiwb run` in process.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { deflateSync, gunzipSync, gzipSync, inflateSync } from 'node:zlib';
import { runInProcess } from './inProcess';
import { fileRows, padded, printedRows } from './outFileRows';
import { startLocalServer, type LocalServer } from './localServer';

const TEXT = `[${padded(0, 3_000)}]`;
const GZ = gzipSync(TEXT);
const DEFLATED = deflateSync(TEXT);
/** `bytes` with byte `at` (from the end when negative) flipped. */
const flipped = (bytes: Buffer, at: number): Buffer => {
  const copy = Buffer.from(bytes);
  const i = at < 0 ? copy.length + at : at;
  copy[i] = copy[i]! ^ 0xff;
  return copy;
};
const BODIES: Record<string, { coding: string; bytes: Buffer }> = {
  'gzip-then-garbage': { coding: 'gzip', bytes: Buffer.concat([GZ, Buffer.from('garbage')]) },
  'gzip-bad-crc': { coding: 'gzip', bytes: flipped(GZ, -8) },
  'deflate-bad-adler': { coding: 'deflate', bytes: flipped(DEFLATED, -1) },
};

void describe('revC: a decoder that fails at the body\'s end', () => {
  let server: LocalServer;
  before(async () => {
    server = await startLocalServer('apiwb-revc-decode-', (req, res) => {
      const b = BODIES[(req.url ?? '').slice(1)]!;
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': b.coding }).end(b.bytes);
    });
  });
  after(() => server.close());

  void it('the faults are at the end: every row decodes before them', () => {
    assert.throws(() => gunzipSync(BODIES['gzip-bad-crc']!.bytes));
    assert.throws(() => inflateSync(BODIES['deflate-bad-adler']!.bytes));
    assert.equal(gunzipSync(GZ).toString(), TEXT);
  });

  for (const name of Object.keys(BODIES)) {
    void it(`${name}: --out keeps every row decoded before the fault, counts them, exit 1`, async () => {
      const file = join(server.dir, `${name}.http`);
      writeFileSync(file, `GET {{base}}/${name}\n`);
      const out = join(server.dir, `${name}.ndjson`);
      const r = await runInProcess([file, '--env', 'local', '--env-file', server.envFile, '--out', out]);
      const rows = fileRows(out, 'ndjson');
      assert.equal(printedRows(r.stdout), rows.length, r.stdout);
      assert.equal(rows.length, 3_000, `rows fully received (all of them decoded): 3000; in the file ${rows.length}\n${r.stdout}`);
      assert.equal(r.code, 1, r.stdout);
    });
  }
});
