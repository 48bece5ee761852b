// A word the byte test searches for (Bearer, Basic, eyJ, a known secret value) cut into three pieces whose
// middle one is shorter than the longest word: JsonBytesTest keeps the last bytes pushed, of as many pieces
// as it takes, so a word over any number of seams is found (it once joined only two pieces, and wrote such
// a value unmasked). Pieces that small come from a body read in small chunks (a row held across chunks
// keeps each chunk as a piece: appendCompactRow, ByteBlocks.pushSlice).
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { HELD } from '../../src/core/paging/heldBody';
import { Redactor } from '../../src/core/secrets';
import { runInProcess } from './inProcess';
import { startLocalServer, type LocalServer } from './localServer';

const ROW = '{"id":2,"note":"Bearer abcdefgh1234"}';
const BODY = `[{"id":1},${ROW},{"id":3}]`;

void describe('a shape word cut into three pieces', () => {
  void it('the byte test says yes for every three-piece cut of a row the Redactor changes', () => {
    const secret = 'hunter2-Sekret-77';
    for (const note of ['Bearer abcdefgh1234', 'Basic dXNlcjpwYXNz', `pw ${secret} here`]) {
      const redactor = new Redactor([secret]);
      const line = Buffer.from(`${JSON.stringify({ note })}\n`);
      const row = JSON.parse(line.toString()) as unknown;
      assert.notDeepEqual(redactor.row(row), row, `the Redactor changes ${note}`);
      const missed: string[] = [];
      for (let a = 1; a < line.length; a++) {
        for (let b = a + 1; b < line.length; b++) {
          if (!redactor.mayRedactJsonBytes([line.subarray(0, a), line.subarray(a, b), line.subarray(b)], [])) missed.push(`${a},${b}`);
        }
      }
      assert.deepEqual(missed, [], `${note}: three-piece cuts where the byte test said no`);
    }
  });

  let server: LocalServer;
  const held = HELD.bytes;
  before(async () => {
    // Streamed from its first chunk (a body past the held budget), as a large body is.
    HELD.bytes = 16;
    server = await startLocalServer('apiwb-rev-three-', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.socket?.setNoDelay(true);
      const at = BODY.indexOf('Bearer');
      const parts = [BODY.slice(0, at + 3), BODY.slice(at + 3, at + 5), BODY.slice(at + 5)];
      const next = (i: number): void => {
        if (i === parts.length) return void res.end();
        res.write(parts[i]);
        setTimeout(() => next(i + 1), 150);
      };
      next(0);
    });
  });
  after(async () => {
    HELD.bytes = held;
    await server.close();
  });

  void it('--out: a Bearer value in a row that arrives in three chunks is masked', async () => {
    const file = join(server.dir, 'rows.http');
    writeFileSync(file, 'GET {{base}}/rows\n');
    const out = join(server.dir, 'rows.ndjson');
    const r = await runInProcess([file, '--env', 'local', '--env-file', server.envFile, '--out', out]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const text = readFileSync(out, 'utf8');
    assert.ok(!text.includes('abcdefgh1234'), `the Bearer value reached the file: ${text}`);
  });
});
