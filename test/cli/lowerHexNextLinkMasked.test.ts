// The rule (secretForms.ts, shared by the send boundary and the Redactor): a secret is masked in every view
// of a text the send boundary reads, percent-encoding in either case of hex included. A next link echoing
// the API key percent-encoded with lower-case hex (`%2f`, as .NET's HttpUtility.UrlEncode writes it) or
// upper-case hex is masked in the failure line of page 2.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInProcess } from './inProcess';
import { startLocalServer, type LocalServer } from './localServer';

const KEY = 'pk/ABCDEFGHIJ/klmnop+QRSTU==';
const encodings: Record<string, (text: string) => string> = {
  'upper-case hex': encodeURIComponent,
  'lower-case hex': (text) => encodeURIComponent(text).replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase()),
};

void describe('a next link echoing the key percent-encoded, printed when its page fails', () => {
  let server: LocalServer;
  let encode = encodings['upper-case hex']!;
  before(async () => {
    server = await startLocalServer('apiwb-lowerhex-', (req, res) => {
      res.setHeader('content-type', 'application/json');
      if (req.url === '/list') return void res.end(JSON.stringify({ items: [{ id: 1 }], next: `/list2?k=${encode(String(req.headers['x-api-key']))}` }));
      res.statusCode = 500;
      res.end('{}');
    });
    writeFileSync(join(server.dir, 'http-client.private.env.json'), JSON.stringify({ local: { apikey: KEY } }));
    writeFileSync(join(server.dir, 'walk.http'), '# @paging generic next=next items=items\nGET {{base}}/list\nX-Api-Key: {{apikey}}\n');
  });
  after(() => server.close());

  for (const [what, how] of Object.entries(encodings)) {
    void it(`${what}: the key is not printed`, async () => {
      encode = how;
      const r = await runInProcess([join(server.dir, 'walk.http'), '--env', 'local', '--env-file', server.envFile, '--all-pages']);
      const printed = r.stdout + r.stderr;
      assert.equal(r.code, 1, printed);
      assert.match(printed, /failed at page 2 \(GET [^)]*\/list2\?k=/, printed);
      assert.ok(!printed.includes(how(KEY)), `the key is printed as the next link encodes it (${how(KEY)}):\n${printed}`);
    });
  }
});
