// No line of a .http file is dropped without a word: a header written twice under the same name (HTTP
// allows it: X-Forwarded-For, Cookie, Accept, a tracing header) is sent with both values, or the run says
// which line is not sent. On aa14ca2 the first line vanishes: resolveRequest keeps headers in a record by
// name, so the later line overwrites the earlier one, and nothing is said.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startLocalServer, type LocalServer } from './localServer';
import { runInProcess } from './inProcess';

void describe('a header written twice is not dropped without a word (apiwb run)', () => {
  let server: LocalServer;
  const raw: string[][] = [];

  before(async () => {
    server = await startLocalServer('apiwb-revD-dupheader-', (req, res) => {
      raw.push(req.rawHeaders);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
  });
  after(async () => { await server.close(); });

  void it('both X-Tag lines reach the server, or the run names line 2 as not sent', async () => {
    const file = join(server.dir, 'twice.http');
    writeFileSync(file, 'GET {{base}}/tagged\nX-Tag: first-value\nX-Tag: second-value\n');
    raw.length = 0;
    const r = await runInProcess([file, '--env', 'local', '--env-file', server.envFile]);
    const sent = (raw[0] ?? []).join('\n');
    const said = `${r.stdout}${r.stderr}`;
    assert.ok(sent.includes('first-value') || said.includes('twice.http:2'),
      `the line 'X-Tag: first-value' (twice.http:2) was neither sent nor named:\nsent headers: ${JSON.stringify(raw[0])}\n${said}`);
    assert.ok(sent.includes('second-value'), `the line 'X-Tag: second-value' was not sent: ${JSON.stringify(raw[0])}`);
  });

  void it('sends every line of a name written in any case, in order, and says the repeat at its line', async () => {
    const file = join(server.dir, 'cased.http');
    writeFileSync(file, 'GET {{base}}/tagged\nX-Tag: one\nAccept: text/plain\nx-tag: two\nCookie: a=1\ncookie: b=2\n');
    raw.length = 0;
    const r = await runInProcess([file, '--env', 'local', '--env-file', server.envFile]);
    assert.equal(r.code, 0, `${r.stdout}${r.stderr}`);
    const pairs = raw[0] ?? [];
    // rawHeaders: name, value, name, value, … as they came on the wire.
    const value = (name: string): string[] => pairs.flatMap((p, i) => (i % 2 === 0 && p.toLowerCase() === name ? [pairs[i + 1]!] : []));
    assert.deepEqual(value('x-tag'), ['one, two']);
    assert.deepEqual(value('cookie'), ['a=1; b=2']);
    assert.match(r.stderr, /cased\.http:4: warning: x-tag is written above too/);
    assert.match(r.stderr, /cased\.http:6: warning: cookie is written above too: both values are sent, as one field joined by ";"/);
  });
});
