// A response whose rows stream to --out as they arrive is still read whole by what needs the whole body
// (issue 37): its assertions, and a later request reading it by name ({{name.response.body…}}), read it
// from the spill file it was kept in (src/core/run/keptBody.ts), within the body limit, with a clear
// failure over it. Oracle: the rows in the file are JSON.parse's rows of the body, the values the
// assertions and the later request read are JSON.parse's. `apiwb run` in process over real HTTP on 127.0.0.1.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { KeptBody } from '../../src/core/run/keptBody';
import { runInProcess } from './inProcess';
import { startLocalServer, type LocalServer } from './localServer';

const rows = Array.from({ length: 6000 }, (_, i) => ({ id: i, name: `row ${i}`, city: 'Springfield', tags: ['a', i] }));
const BODY = JSON.stringify({ Status: 'ok', Total: rows.length, Meta: { last: 'row 5999' }, Data: rows });

void describe('apiwb run: checks on a body streamed to --out', () => {
  let server: LocalServer;
  const echoed: string[] = [];
  before(async () => {
    server = await startLocalServer('apiwb-streamed-checks-', (req, res) => {
      if (req.url?.startsWith('/echo')) {
        echoed.push(req.url);
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"ok":true}');
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(BODY);
    });
  });
  after(() => server.close());

  void it('assertions and a later request read the whole body while its rows stream to the file', async () => {
    const file = join(server.dir, 'checks.http');
    writeFileSync(file, [
      '# @name big', 'GET {{base}}/big', '', '?? status == 200', '?? body $.Total == 6000', '?? body $.Meta.last == row 5999', '?? body $.Data[5999].name == row 5999', '?? rows == 6000', '',
      '###', 'GET {{base}}/echo?total={{big.response.body.$.Total}}&last={{big.response.body.$.Data[3].name}}', '',
    ].join('\n'));
    const out = join(server.dir, 'rows.ndjson');
    const spills = (): string[] => readdirSync(tmpdir()).filter((n) => n.startsWith('apiwb-body-'));
    const before = new Set(spills());
    const result = await runInProcess([file, '--env', 'local', '--env-file', server.envFile, '--out', out]);
    assert.equal(result.code, 0, result.stdout + result.stderr);
    const lines = readFileSync(out, 'utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as unknown);
    assert.deepEqual(lines, (JSON.parse(BODY) as { Data: unknown[] }).Data);
    assert.deepEqual(echoed, ['/echo?total=6000&last=row%203']);
    assert.deepEqual(spills().filter((n) => !before.has(n)), [], 'the kept body is removed after');
  });

  void it('a failing assertion on the streamed body says what it read', async () => {
    const file = join(server.dir, 'fails.http');
    writeFileSync(file, ['GET {{base}}/big', '', '?? body $.Data[10].id == 11', ''].join('\n'));
    const result = await runInProcess([file, '--env', 'local', '--env-file', server.envFile, '--out', join(server.dir, 'fails.ndjson')]);
    assert.equal(result.code, 1, result.stdout + result.stderr);
    assert.match(result.stdout, /\b10\b/);
  });

  void it('a body over the limit is not read back, and the run says why', async () => {
    const kept = new KeptBody(1000);
    await kept.write(Buffer.alloc(600, 0x20));
    await kept.write(Buffer.alloc(600, 0x20));
    const read = await kept.text();
    assert.equal(read.ok, false);
    assert.match(!read.ok ? read.reason : '', /larger than the .* a body is read whole within/);
    const within = new KeptBody(1000);
    await within.write(Buffer.from('{"a":'));
    await within.write(Buffer.from('1}'));
    assert.deepEqual(await within.text(), { ok: true, text: '{"a":1}' });
  });
});
