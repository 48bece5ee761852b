// `Content-Encoding: deflate` sent as raw deflate (RFC 1951, no zlib header), as some servers send it and
// curl reads it: `apiwb run --out` reads its rows, held (small, its coded bytes fewer than the 16 fed one
// at a time) and streamed, alone or under gzip ("deflate, gzip"); a zlib-headed deflate body still reads,
// and a raw deflate body cut short keeps its rows fully received and fails (exit 1).
// A server of the test's own on 127.0.0.1 port 0; `apiwb run` in process.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Readable } from 'node:stream';
import { deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { decodedBody } from '../../src/core/http/contentEncoding';
import { runInProcess } from './inProcess';
import { fileRows, padded, printedRows } from './outFileRows';
import { startLocalServer, type LocalServer } from './localServer';

const LARGE = `[${padded(0, 3_000)}]`;
const TINY = '[{"id":1}]';
const BODIES: Record<string, { coding: string; bytes: Buffer; rows: number; code: number }> = {
  'raw-tiny': { coding: 'deflate', bytes: deflateRawSync(TINY), rows: 1, code: 0 },
  'raw-large': { coding: 'deflate', bytes: deflateRawSync(LARGE), rows: 3_000, code: 0 },
  'raw-under-gzip': { coding: 'deflate, gzip', bytes: gzipSync(deflateRawSync(LARGE)), rows: 3_000, code: 0 },
  'zlib-large': { coding: 'deflate', bytes: deflateSync(LARGE), rows: 3_000, code: 0 },
};

void describe('raw deflate under Content-Encoding: deflate', () => {
  let server: LocalServer;
  before(async () => {
    server = await startLocalServer('apiwb-rawdeflate-', (req, res) => {
      const name = (req.url ?? '').slice(1);
      if (name === 'raw-cut') {
        const coded = deflateRawSync(LARGE);
        res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'deflate' });
        res.write(coded.subarray(0, coded.length >> 1), () => res.socket?.destroy());
        return;
      }
      const b = BODIES[name]!;
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': b.coding }).end(b.bytes);
    });
  });
  after(() => server.close());

  void it('the raw bodies have no zlib header: zlib\'s inflate refuses them', () => {
    assert.notEqual(BODIES['raw-large']!.bytes.readUInt16BE(0) % 31, 0);
    assert.equal(BODIES['zlib-large']!.bytes.readUInt16BE(0) % 31, 0);
  });

  for (const [name, b] of Object.entries(BODIES)) {
    void it(`${name}: every row read, exit ${b.code}`, async () => {
      const file = join(server.dir, `${name}.http`);
      writeFileSync(file, `GET {{base}}/${name}\n`);
      const out = join(server.dir, `${name}.ndjson`);
      const r = await runInProcess([file, '--env', 'local', '--env-file', server.envFile, '--out', out]);
      assert.equal(r.code, b.code, r.stdout);
      assert.equal(printedRows(r.stdout), b.rows, r.stdout);
      assert.equal(fileRows(out, 'ndjson').length, b.rows);
    });
  }

  void it('raw-cut: a raw deflate body cut short keeps the rows fully received, exit 1', async () => {
    const file = join(server.dir, 'raw-cut.http');
    writeFileSync(file, 'GET {{base}}/raw-cut\n');
    const out = join(server.dir, 'raw-cut.ndjson');
    const r = await runInProcess([file, '--env', 'local', '--env-file', server.envFile, '--out', out]);
    assert.equal(r.code, 1, r.stdout);
    const rows = fileRows(out, 'ndjson');
    assert.ok(rows.length > 100 && rows.length < 3_000, `${rows.length} rows`);
    assert.equal(printedRows(r.stdout), rows.length, r.stdout);
  });

  void it('the header is told from the first bytes however they arrive (1- and 7-byte chunks, raw and zlib)', async () => {
    for (const bytes of [deflateRawSync(LARGE), deflateSync(LARGE), deflateRawSync(TINY)]) {
      for (const size of [1, 7]) {
        const parts: Buffer[] = [];
        for (let i = 0; i < bytes.length; i += size) parts.push(bytes.subarray(i, i + size));
        const decoded = decodedBody(Readable.from(parts), ['deflate']);
        const got: Buffer[] = [];
        for await (const chunk of decoded.stream) got.push(chunk as Buffer);
        assert.equal(Buffer.concat(got).toString(), bytes.length < 100 ? TINY : LARGE);
        assert.equal(decoded.cut(), undefined);
      }
    }
  });
});
