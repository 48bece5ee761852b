// Redact, then cut (src/core/text/excerpt.ts): no secret value appears on stdout or in a report in any
// form, a part of one included. A failed `??` assertion shows the actual value, its first 200
// characters; a response value that echoes the API key after 180 characters of text was cut inside the
// key before the Redactor saw it (19 characters of the key printed, on stdout and in the JUnit report).
// The run's Redactor redacts the whole value, then cuts. The key echoed in a short value: the control.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInProcess } from './inProcess';
import { startLocalServer, type LocalServer } from './localServer';

const KEY = 'sk_live_ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

void describe('a failed assertion whose actual value echoes the key, clipped', () => {
  let server: LocalServer;
  before(async () => {
    server = await startLocalServer('apiwb-actual-cut-', (req, res) => {
      const key = String(req.headers['x-api-key']);
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ short: `you sent ${key}`, long: `${'x'.repeat(180)}${key}` }));
    });
    writeFileSync(join(server.dir, 'http-client.private.env.json'), JSON.stringify({ local: { apikey: KEY } }));
  });
  after(() => server.close());

  for (const field of ['short', 'long']) {
    void it(`${field}: no part of the key is printed`, async () => {
      const file = join(server.dir, `${field}.http`);
      writeFileSync(file, `GET {{base}}/echo\nX-Api-Key: {{apikey}}\n\n?? body $.${field} == nothing\n`);
      const report = join(server.dir, `${field}.xml`);
      const r = await runInProcess([file, '--env', 'local', '--env-file', server.envFile, '--reporter', 'junit', '--report', report]);
      const printed = `${r.stdout}${r.stderr}\n${readFileSync(report, 'utf8')}`;
      assert.equal(r.code, 1, printed);
      assert.match(r.stdout, /expected == nothing, actual/, printed);
      assert.ok(!printed.includes(KEY.slice(0, 12)), `part of the key is printed:\n${printed}`);
    });
  }
});
