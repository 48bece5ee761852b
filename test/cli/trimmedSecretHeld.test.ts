// The rule (secretForms.ts, shared by the send boundary and the Redactor): a value is searched for trimmed
// as well, since the end of a request line cuts the white space off it. A private env value pasted with a
// trailing space (`"apikey": "sk_live_… "`) and written at the end of a request line (`?k={{apikey}}`,
// `/keys/{{apikey}}`) goes out without the space: it is refused for another origin, as the same key
// without the space is, and the JSON report's `url` to its own origin has it masked.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { join } from 'node:path';
import { runInProcess } from './inProcess';
import { listenBase, recorder, startLocalServer, type LocalServer, type Seen } from './localServer';

const KEY = 'sk_live_ABCDEFGHIJKLMNOP';

void describe('a private value with a trailing space, at the end of a URL to another origin', () => {
  let server: LocalServer;
  let other: Server;
  let otherBase = '';
  const seen: Seen[] = [];
  before(async () => {
    server = await startLocalServer('apiwb-trailing-', (_req, res) => res.end('{}'));
    other = recorder(seen, (_req, res) => res.end('{}'));
    otherBase = await listenBase(other);
  });
  after(async () => {
    other.closeAllConnections();
    await new Promise<void>((resolve) => other.close(() => resolve()));
    await server.close();
  });

  for (const [what, value] of [['without a space (control)', KEY], ['with a trailing space', `${KEY} `]] as const) {
    for (const place of ['?k={{apikey}}', '/keys/{{apikey}}']) {
      void it(`${what}, ${place}: refused, the other origin receives nothing`, async () => {
        seen.length = 0;
        writeFileSync(join(server.dir, 'http-client.private.env.json'), JSON.stringify({ local: { apikey: value } }));
        const file = join(server.dir, 'a.http');
        writeFileSync(file, `GET ${otherBase}/items${place}\n`);
        const r = await runInProcess([file, '--env', 'local', '--env-file', server.envFile]);
        assert.deepEqual(seen.map((s) => s.url), [], `the other origin received the key:\n${r.stdout}${r.stderr}`);
        assert.match(r.stdout, /not sent to/);
        assert.equal(r.code, 1);
      });
    }
  }

  void it('with a trailing space, to its own origin: the JSON report does not hold the key', async () => {
    writeFileSync(join(server.dir, 'http-client.private.env.json'), JSON.stringify({ local: { apikey: `${KEY} ` } }));
    const file = join(server.dir, 'own.http');
    writeFileSync(file, 'GET {{base}}/items?k={{apikey}}\n');
    const report = join(server.dir, 'own.json');
    const r = await runInProcess([file, '--env', 'local', '--env-file', server.envFile, '--reporter', 'json', '--report', report]);
    assert.equal(r.code, 0, r.stdout);
    const text = readFileSync(report, 'utf8');
    assert.ok(!text.includes(KEY), `the JSON report holds the key:\n${text}`);
  });
});
