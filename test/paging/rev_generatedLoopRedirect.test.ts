// Invariant E (credentials): a loop made by `apiwb generate --paging` carries the right credentials only.
// DESIGN: "redirects followed only with credentials kept on their origin"; apiwb run drops a credential on
// a redirect to another origin. The generated TypeScript (fetch) and Python (urllib) loops follow a
// redirect themselves: the Python loop (urllib keeps every header) sends `Authorization: Bearer <token>` to
// the other origin; the TypeScript loop (fetch drops only Authorization, Cookie) sends the token under a
// secret-named header (`X-Api-Token`, a credential header by the product's rule). Two servers on 127.0.0.1 (two ports: two origins); page 2 of the first redirects (302)
// to the second, which records the Authorization header it receives.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { generated } from '../cli/generateProcess';
import { startLocalServer, type LocalServer } from '../cli/localServer';
import { runGeneratedLoop } from './revLoopRunner';

const TOKEN = 'rev-b-token-5a1d93e0c4';
const seenAway: string[] = [];

function ordersPage(n: number): string {
  return JSON.stringify({ PageNumber: n, PageSize: 2, TotalOrders: 4, Orders: [{ id: n * 2 - 1 }, { id: n * 2 }] });
}

void describe('generated loops and a redirect to another origin', () => {
  let home: LocalServer;
  let away: Server;
  let awayBase = '';
  let file = '';
  let envFile = '';
  before(async () => {
    away = createServer((req, res) => {
      seenAway.push(`${String(req.headers.authorization)} ${String(req.headers['x-api-token'])}`);
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(ordersPage(2));
    });
    await new Promise<void>((resolve) => away.listen(0, '127.0.0.1', resolve));
    awayBase = `http://127.0.0.1:${(away.address() as AddressInfo).port}`;
    home = await startLocalServer('apiwb-rev-loop-redirect-', (req, res) => {
      const n = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('pageNumber') ?? 1);
      if (n === 2) {
        res.writeHead(302, { Location: `${awayBase}/orders?pageNumber=2&pageSize=2` }).end();
        return;
      }
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(ordersPage(n));
    });
    envFile = join(home.dir, 'http-client.env.json');
    writeFileSync(envFile, JSON.stringify({ local: { base: home.origin, Security: { Auth: { engagement: { Type: 'OAuth2', 'Grant Type': 'Password', 'Token URL': `${home.origin}/token`, Username: 'ann' } } } } }));
    file = join(home.dir, 'orders.http');
    writeFileSync(file, [
      '###\n# @name bearer\n# @paging page-number\nGET {{base}}/orders?pageNumber=1&pageSize=2\nAuthorization: Bearer {{$auth.token("engagement")}}',
      '###\n# @name named\n# @paging page-number\nGET {{base}}/orders?pageNumber=1&pageSize=2\nX-Api-Token: {{$auth.token("engagement")}}',
    ].join('\n\n'));
  });
  after(async () => {
    await home.close();
    away.closeAllConnections();
    await new Promise<void>((resolve) => away.close(() => resolve()));
  });

  // TypeScript with Authorization held (fetch drops it across origins); Python with X-Api-Token too.
  for (const [lang, name] of [['python', 'bearer'], ['ts', 'named']] as const) {
    void it(`${lang}, ${name === 'bearer' ? 'Authorization' : 'X-Api-Token'}: the token never reaches the other origin`, async () => {
      const made = await generated([file, '--name', name, '--paging', '--lang', lang, '--env-file', envFile, '--env', 'local'], {});
      assert.equal(made.code, 0, made.stderr);
      assert.ok(!made.stdout.includes(TOKEN));
      seenAway.length = 0;
      const { verdict } = await runGeneratedLoop(home.dir, made.stdout, lang, { APIWB_SECRET_ENGAGEMENT_TOKEN: TOKEN });
      assert.ok(seenAway.length > 0 || /failed/.test(verdict), `the redirect was followed or refused: ${verdict}`);
      assert.ok(!seenAway.some((h) => h.includes(TOKEN)), `${lang}: the token sent to ${awayBase}: ${JSON.stringify(seenAway)} (verdict ${verdict})`);
    });
  }
});
