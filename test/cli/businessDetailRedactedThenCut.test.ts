// Redact, then cut (src/core/text/excerpt.ts), on a path the first two tests did not name: a business
// error of a 200 whose error item has no code nor description is shown as its JSON, its first 200
// characters. A server that echoes the API key in such an item 174 characters in had the key cut
// there (23 characters of it printed): no part of it may reach stdout, the JSON report or the JUnit report. The same with the key
// whole inside the 200 characters is masked (the control).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInProcess } from './inProcess';
import { startLocalServer, type LocalServer } from './localServer';

const KEY = 'sk_live_ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const MARKS = /[\uE000-\uE002]/;

void describe('a business error item echoing the key, shown as its JSON', () => {
  let server: LocalServer;
  before(async () => {
    server = await startLocalServer('apiwb-business-cut-', (req, res) => {
      const key = String(req.headers['x-api-key']);
      const padding = req.url === '/short' ? 10 : 150;
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ Success: false, Error: { detail: 'x'.repeat(padding), youSent: key } }));
    });
    writeFileSync(join(server.dir, 'http-client.private.env.json'), JSON.stringify({ local: { apikey: KEY } }));
  });
  after(() => server.close());

  for (const path of ['short', 'long']) {
    void it(`${path}: no part of the key in the line nor in the reports`, async () => {
      const file = join(server.dir, `${path}.http`);
      writeFileSync(file, `GET {{base}}/${path}\nX-Api-Key: {{apikey}}\n`);
      const printed: string[] = [];
      for (const reporter of ['json', 'junit']) {
        const report = join(server.dir, `${path}.${reporter}`);
        const r = await runInProcess([file, '--env', 'local', '--env-file', server.envFile, '--reporter', reporter, '--report', report]);
        assert.equal(r.code, 1, r.stdout);
        assert.match(r.stdout, /business failure: \{"detail":"x/);
        printed.push(r.stdout, r.stderr, readFileSync(report, 'utf8'));
      }
      const all = printed.join('\n');
      assert.ok(!all.includes(KEY.slice(0, 8)), `part of the key is printed:\n${all}`);
      assert.ok(!MARKS.test(all), `a cut's mark is printed:\n${all}`);
      // Redacted first, the long one is short enough to be shown whole: the key masked, not cut.
      assert.match(all, /"youSent":"\*\*\*"\}/);
    });
  }
});
