// A connection lost after the headers (the server promises 100 bytes, sends 5 and drops the socket) is a
// fault of the connection, not a verdict on a response: a JUnit <error>, like no response at all. A bad
// status stays a <failure>. Over loopback, a server of the test's own; the JUnit file valid against the schema.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startLocalServer, type LocalServer } from './localServer';
import { runInProcess } from './inProcess';
import { assertValidJUnit, readJUnit } from './junitSchema';

void describe('a connection dropped mid-body is a JUnit error', () => {
  let server: LocalServer;
  before(async () => {
    server = await startLocalServer('apiwb-midbody-', (req, res) => {
      req.resume();
      if (req.url === '/broken') {
        res.writeHead(500, { 'content-type': 'application/json' }).end('{"ok":false}');
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
      res.flushHeaders();
      res.write('{"a":', () => res.socket?.destroy());
    });
  });
  after(() => server.close());

  void it('the dropped body is <error>, the 500 is <failure>', async () => {
    const file = join(server.dir, 'drop.http');
    writeFileSync(file, '# @name dropped\nGET {{base}}/drop\n\n###\n# @name broken\nGET {{base}}/broken\n');
    const report = join(server.dir, 'drop.xml');
    const r = await runInProcess([file, '--env', 'local', '--env-file', server.envFile, '--reporter', 'junit', '--report', report]);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    const xml = readFileSync(report, 'utf8');
    await assertValidJUnit(xml);
    const { cases, totals } = await readJUnit(xml);
    const dropped = cases.find((c) => c.name.includes('dropped'));
    const broken = cases.find((c) => c.name.includes('broken'));
    assert.equal(dropped?.outcome, 'error', xml);
    assert.equal(dropped?.type, 'no-response', xml);
    assert.equal(broken?.outcome, 'failure', xml);
    assert.deepEqual(totals, { tests: 2, failures: 1, errors: 1 });
  });
});
