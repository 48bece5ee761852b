// The rule (secretForms.ts, shared by the send boundary and the Redactor): a secret is masked in every view
// of a text the send boundary reads. A base64 key used as a URL's user name (`http://{{apikey}}@host/`) is
// written by the URL parser in the userinfo percent-encode set (`=` as `%3D`, `+` kept), a form no list
// names: it is masked on stdout and in the JUnit report, to its own origin and when refused for another.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInProcess } from './inProcess';
import { startLocalServer, type LocalServer } from './localServer';

const KEY = 'QWxhZGRpbjpvcGVu+c2VzYW1lMTIz==';
/** The key as the URL parser writes it in the user name. */
const SHOWN = 'QWxhZGRpbjpvcGVu+c2VzYW1lMTIz%3D%3D';

void describe('a key as the URL user name is not printed as the URL writes it', () => {
  let server: LocalServer;
  before(async () => {
    server = await startLocalServer('apiwb-userinfo-', (_req, res) => res.end('{}'));
    writeFileSync(join(server.dir, 'http-client.private.env.json'), JSON.stringify({ local: { apikey: KEY } }));
  });
  after(() => server.close());

  for (const [what, host] of [['its own origin', '127.0.0.1'], ['another origin (refused)', 'localhost']] as const) {
    void it(`to ${what}`, async () => {
      const port = new URL(server.origin).port;
      const file = join(server.dir, `${host}.http`);
      writeFileSync(file, `GET http://{{apikey}}@${host}:${port}/items\n`);
      const report = join(server.dir, `${host}.xml`);
      const r = await runInProcess([file, '--env', 'local', '--env-file', server.envFile, '--reporter', 'junit', '--report', report]);
      const printed = `${r.stdout}${r.stderr}\n${readFileSync(report, 'utf8')}`;
      if (host === 'localhost') assert.match(r.stdout, /not sent to/, printed);
      assert.ok(!printed.includes(KEY), printed);
      assert.ok(!printed.includes(SHOWN), `the key is printed as the URL's user name (${SHOWN}):\n${printed}`);
    });
  }
});
