// Redact, then cut (src/core/text/excerpt.ts): no secret value appears on stdout or in a report in any
// form, a part of one included. A failing page (a 500 on page 2 of a walk) is quoted in the failure line
// as its body's first 200 characters; a server that echoes the request's API key there has the key cut
// by those 200 when the cut is made before the Redactor sees the text (30 characters of it were printed,
// on stdout and in the JUnit report). The run's Redactor redacts the whole body, then cuts. The whole key
// echoed in a short body is masked: the control.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInProcess } from './inProcess';
import { startLocalServer, type LocalServer } from './localServer';

const KEY = 'sk_live_ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
/** `{"message":"<pad>","youSent":"` is pad + 25 characters: 145 of padding leaves 30 of the key in 200. */
let padding = 145;

void describe('a failing page echoing the API key, quoted in the failure line', () => {
  let server: LocalServer;
  before(async () => {
    server = await startLocalServer('apiwb-excerpt-cut-', (req, res) => {
      res.setHeader('content-type', 'application/json');
      if (req.url === '/list') return void res.end(JSON.stringify({ items: [{ id: 1 }], next: '/list2' }));
      res.statusCode = 500;
      res.end(JSON.stringify({ message: 'x'.repeat(padding), youSent: req.headers['x-api-key'] }));
    });
    writeFileSync(join(server.dir, 'http-client.private.env.json'), JSON.stringify({ local: { apikey: KEY } }));
    writeFileSync(join(server.dir, 'walk.http'), '# @paging generic next=next items=items\nGET {{base}}/list\nX-Api-Key: {{apikey}}\n');
  });
  after(() => server.close());

  async function run(): Promise<string> {
    const report = join(server.dir, `report-${padding}.xml`);
    const r = await runInProcess([join(server.dir, 'walk.http'), '--env', 'local', '--env-file', server.envFile, '--all-pages', '--reporter', 'junit', '--report', report]);
    assert.equal(r.code, 1, r.stdout);
    assert.match(r.stdout, /failed at page 2/);
    return `${r.stdout}${r.stderr}\n${readFileSync(report, 'utf8')}`;
  }

  void it('the whole key echoed is masked (control)', async () => {
    padding = 10;
    const printed = await run();
    assert.ok(!printed.includes(KEY), printed);
    assert.match(printed, /"youSent":"\*\*\*"/);
  });

  void it('the key cut by the excerpt: no part of it is printed', async () => {
    padding = 145;
    const printed = await run();
    assert.ok(!printed.includes(KEY.slice(0, 20)), `the first 30 characters of the key are printed:\n${printed}`);
  });
});
