// The rule (secretForms.ts, shared by the send boundary and the Redactor): a secret is masked in every view
// of a text the send boundary reads, JSON escapes undone included. A failing page that echoes the API key
// JSON-escaped (`\/` as PHP's json_encode writes a `/`, or a letter as `\u0041`) and is quoted in the
// failure line has the key masked there, escapes and all; the same echo without escapes is masked too.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInProcess } from './inProcess';
import { startLocalServer, type LocalServer } from './localServer';

/** A base64 key: `/` and `+` are among its characters. */
const KEY = 'pk/ABCDEFGHIJ/klmnop+QRSTU==';
const escapes: Record<string, (json: string) => string> = {
  plain: (json) => json,
  'slash escaped (\\/)': (json) => json.replace(/\//g, '\\/'),
  'a letter as \\u0041': (json) => json.replace('A', '\\u0041'),
};

void describe('a failing page echoing the key JSON-escaped, quoted in the failure line', () => {
  let server: LocalServer;
  let escape = escapes.plain!;
  before(async () => {
    server = await startLocalServer('apiwb-escaped-', (req, res) => {
      res.setHeader('content-type', 'application/json');
      if (req.url === '/list') return void res.end(JSON.stringify({ items: [{ id: 1 }], next: '/list2' }));
      res.statusCode = 500;
      res.end(escape(JSON.stringify({ youSent: req.headers['x-api-key'] })));
    });
    writeFileSync(join(server.dir, 'http-client.private.env.json'), JSON.stringify({ local: { apikey: KEY } }));
    writeFileSync(join(server.dir, 'walk.http'), '# @paging generic next=next items=items\nGET {{base}}/list\nX-Api-Key: {{apikey}}\n');
  });
  after(() => server.close());

  for (const [what, how] of Object.entries(escapes)) {
    void it(`${what}: the key is not printed`, async () => {
      escape = how;
      const r = await runInProcess([join(server.dir, 'walk.http'), '--env', 'local', '--env-file', server.envFile, '--all-pages']);
      const printed = r.stdout + r.stderr;
      assert.equal(r.code, 1, printed);
      assert.match(printed, /failed at page 2.*youSent/, printed);
      const echoed = how(JSON.stringify(KEY)).slice(1, -1);
      assert.ok(!printed.includes(echoed), `the key is printed as the server escaped it (${echoed}):\n${printed}`);
    });
  }
});
