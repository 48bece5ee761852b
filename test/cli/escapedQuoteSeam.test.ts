// A URL password holding an escaped quote (`https://u:p\"q@host`: URL_USERINFO_IN_TEXT takes `p"q` as the
// password) whose `\` ends one piece and whose `"` begins the next: the byte test (shapeBytes.ts, isStop)
// reads the byte before a piece in the piece before, so that `"` is no string end and the password is
// found (it once was taken for the end, and the password written as it came). Shown on two pieces of a
// page, and on a long row read back from its spill file in 1 MiB pieces (the `\` at byte 1 048 575).
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Redactor } from '../../src/core/secrets';
import { longRowsLowered } from '../fixtures/longRows';
import { runInProcess } from './inProcess';
import { startLocalServer, type LocalServer } from './localServer';

const PREFIX = '{"id":"E1","note":"';
const URL_HEAD = ' https://u:p';
const pad = 'a'.repeat((1 << 20) - 1 - PREFIX.length - URL_HEAD.length);
const LONG_ROW_TEXT = `${PREFIX}${pad}${URL_HEAD}\\"q@host.example/x"}`;
const BODY = `[{"id":1},${LONG_ROW_TEXT},{"id":2}]`;

void describe('an escaped quote at a seam inside a URL password', () => {
  void it('the byte test says yes for every two-piece cut of a row the Redactor changes', () => {
    const redactor = new Redactor([]);
    const line = Buffer.from(`${JSON.stringify({ note: 'see https://u:p"q@host.example/x' })}\n`);
    const row = JSON.parse(line.toString()) as unknown;
    assert.notDeepEqual(redactor.row(row), row, 'the Redactor masks this password');
    const missed: number[] = [];
    for (let cut = 1; cut < line.length; cut++) {
      if (!redactor.mayRedactJsonBytes([line.subarray(0, cut), line.subarray(cut)], [])) missed.push(cut);
    }
    assert.deepEqual(missed, [], `cuts where the byte test said no: ${missed.map((c) => JSON.stringify(line.toString().slice(c - 3, c) + '|' + line.toString().slice(c, c + 3))).join(' ')}`);
  });

  let server: LocalServer;
  longRowsLowered(8192, 16_384);
  before(async () => {
    server = await startLocalServer('apiwb-rev-quote-', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(BODY);
    });
  });
  after(() => server.close());

  void it('--out: a long row whose 1 MiB read-back seam falls between \\ and " keeps its password masked', async () => {
    assert.equal(LONG_ROW_TEXT[(1 << 20) - 1], '\\');
    const file = join(server.dir, 'rows.http');
    writeFileSync(file, 'GET {{base}}/rows\n');
    const out = join(server.dir, 'rows.ndjson');
    const r = await runInProcess([file, '--env', 'local', '--env-file', server.envFile, '--out', out]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const text = readFileSync(out, 'utf8');
    assert.ok(!text.includes('p\\"q@host'), 'the URL password reached the file');
    assert.ok(text.includes('https://u:***@host.example/x'), 'the URL is kept, its password masked');
  });
});
