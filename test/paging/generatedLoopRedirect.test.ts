// A loop made by `apiwb generate --paging` follows redirects as `apiwb run` does: by hand, a credential
// header (the product's rule, isCredentialHeader) never carried to another origin, and not at all under
// `# @no-redirect`. Found by review: urllib kept every header (Authorization went to the other origin),
// fetch dropped Authorization but kept `X-Api-Token`. Two servers on 127.0.0.1 (two ports: two origins); page 2 of the first redirects (302)
// to the second, which records the Authorization header it receives.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { generated } from '../cli/generateProcess';
import { startLocalServer, type LocalServer } from '../cli/localServer';
import { runGeneratedLoop } from './generatedLoopRunner';

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
      seenAway.push(`${String(req.headers.authorization)} ${String(req.headers['x-api-token'])} ${String(req.headers['x-auth'])}`);
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
      // A header no rule names a credential, holding one all the same.
      '###\n# @name unnamed\n# @paging page-number\nGET {{base}}/orders?pageNumber=1&pageSize=2\nX-Auth: {{$auth.token("engagement")}}',
      '###\n# @name kept\n# @paging page-number\n# @no-redirect\nGET {{base}}/orders?pageNumber=1&pageSize=2\nAuthorization: Bearer {{$auth.token("engagement")}}',
    ].join('\n\n'));
  });
  after(async () => {
    await home.close();
    away.closeAllConnections();
    await new Promise<void>((resolve) => away.close(() => resolve()));
  });

  // Both languages, the token under Authorization and under a secret-named header: the redirect is
  // followed (page 2 comes from the other origin), the token is not carried there.
  for (const lang of ['python', 'ts'] as const) {
    for (const [name, header] of [['bearer', 'Authorization'], ['named', 'X-Api-Token'], ['unnamed', 'X-Auth']] as const) {
      void it(`${lang}, ${header}: followed, the token never reaches the other origin`, async () => {
        const made = await generated([file, '--name', name, '--paging', '--lang', lang, '--env-file', envFile, '--env', 'local'], {});
        assert.equal(made.code, 0, made.stderr);
        assert.ok(!made.stdout.includes(TOKEN));
        seenAway.length = 0;
        const run = await runGeneratedLoop(home.dir, made.stdout, lang, { env: { APIWB_SECRET_ENGAGEMENT_TOKEN: TOKEN } });
        assert.equal(run.verdict, 'complete', run.error);
        assert.deepEqual(run.rows, [{ id: 1 }, { id: 2 }, { id: 3 }, { id: 4 }]);
        assert.equal(seenAway.length, 1, 'page 2 was asked of the other origin once');
        assert.ok(!seenAway.some((h) => h.includes(TOKEN)), `${lang}: the token sent to ${awayBase}: ${JSON.stringify(seenAway)}`);
      });
    }
    // Under # @no-redirect a redirect is the page's answer (as apiwb run takes it): the walk fails there.
    void it(`${lang}, # @no-redirect: the redirect is not followed and the walk fails at page 2`, async () => {
      const made = await generated([file, '--name', 'kept', '--paging', '--lang', lang, '--env-file', envFile, '--env', 'local'], {});
      assert.equal(made.code, 0, made.stderr);
      seenAway.length = 0;
      const run = await runGeneratedLoop(home.dir, made.stdout, lang, { env: { APIWB_SECRET_ENGAGEMENT_TOKEN: TOKEN } });
      assert.equal(run.verdict, 'failed');
      assert.match(run.error ?? '', /page 2: .*302|302.*page 2|HTTP 302/);
      assert.equal(seenAway.length, 0);
    });
  }
});
