// The rule (secretForms.ts, shared by the send boundary and the Redactor): a secret in a host name is found
// as the host spells it, in lower case and, outside ASCII, as its punycode label decoded (xn--…). The send
// boundary refuses such a request; the Redactor masks the same forms, so neither the refusal nor the line
// printed for the request shows the secret, lowercased or as punycode.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { domainToASCII } from 'node:url';
import { runInProcess } from './inProcess';
import { startLocalServer, type LocalServer } from './localServer';

const MIXED = 'OpenSesameXYZ42';
const NON_ASCII = 'Geheim-Pässwort-42';

void describe('a secret in a host name is not printed in the form the URL gives it', () => {
  let server: LocalServer;
  let hits = 0;
  before(async () => {
    server = await startLocalServer('apiwb-host-', (_req, res) => { hits++; res.end('{}'); });
    writeFileSync(join(server.dir, 'http-client.private.env.json'), JSON.stringify({ local: { mixed: MIXED, umlaut: NON_ASCII } }));
  });
  after(() => server.close());

  for (const [variable, secret, shown] of [
    ['mixed', MIXED, MIXED.toLowerCase()],
    ['umlaut', NON_ASCII, domainToASCII(`${NON_ASCII}.localhost`).split('.')[0]!],
  ] as const) {
    void it(`${variable}: refused, and neither ${secret} nor ${shown} is printed`, async () => {
      const port = new URL(server.origin).port;
      const file = join(server.dir, `${variable}.http`);
      writeFileSync(file, `GET http://{{${variable}}}.localhost:${port}/x\n`);
      const r = await runInProcess([file, '--env', 'local', '--env-file', server.envFile]);
      const printed = r.stdout + r.stderr;
      assert.equal(r.code, 1, printed);
      assert.match(r.stdout, /not sent to/, 'the send boundary refuses it (control)');
      assert.equal(hits, 0);
      assert.ok(!printed.includes(secret), printed);
      assert.ok(!printed.includes(shown), `the secret is printed as the host name writes it (${shown}):\n${printed}`);
    });
  }
});
