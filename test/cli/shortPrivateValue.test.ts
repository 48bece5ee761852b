// A value of http-client.private.env.json shorter than 4 characters cannot be protected (too short to be
// searched for or masked: bindings.ts, secretForms.ts): `apiwb run` says so once on stderr, naming the
// variable, never the value. Over loopback, a server of the test's own.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startLocalServer, type LocalServer } from './localServer';
import { runInProcess } from './inProcess';

void describe('apiwb run and a private value too short to protect', () => {
  let server: LocalServer;
  before(async () => {
    server = await startLocalServer('apiwb-shortpriv-', (req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
  });
  after(() => server.close());

  const run = async (privateEnv: unknown): Promise<string> => {
    writeFileSync(join(server.dir, 'http-client.private.env.json'), JSON.stringify(privateEnv));
    const file = join(server.dir, 'pin.http');
    writeFileSync(file, 'GET {{base}}/a?pin={{pin3}}\n\n###\nGET {{base}}/b?pin={{pin3}}\n');
    const r = await runInProcess([file, '--env', 'local', '--env-file', server.envFile]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    return r.stderr;
  };

  void it('warns once, naming the variable and not its value', async () => {
    const stderr = await run({ local: { pin3: '913', longer: 'long-enough-secret' } });
    const lines = stderr.split('\n').filter((line) => line.includes('shorter than 4 characters'));
    assert.equal(lines.length, 1, stderr);
    assert.match(lines[0]!, /the variable 'pin3' of \S*http-client\.private\.env\.json is shorter than 4 characters/);
    assert.ok(!lines[0]!.includes('913'), lines[0]);
    assert.ok(!lines[0]!.includes('longer'), 'a value long enough is protected: not named');
  });

  void it('says nothing when every private value is long enough', async () => {
    const stderr = await run({ local: { pin3: '9137' } });
    assert.ok(!stderr.includes('shorter than'), stderr);
  });
});
