// A secret given for one environment only (APIWB_SECRET_<ENVIRONMENT>__<AUTH ID>_<FIELD>, `apiwb compare
// --help`) goes only to that environment. An auth entry of ANOTHER environment whose id upper-cases and
// underscores to `<ENVIRONMENT>__<AUTH ID>` (here `production--svc` of `staging`) must not read it as its
// own plain APIWB_SECRET_<AUTH ID>_<FIELD>: the production token would go to staging's host.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startLocalServer, type LocalServer } from './localServer';
import { runInProcess } from './inProcess';

const PRODUCTION_TOKEN = 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJwcm9kdWN0aW9uLW9ubHkiLCJleHAiOjQxMDI0NDQ4MDB9.c2lnbmF0dXJlLXByb2R1Y3Rpb24';

void describe('a secret given for environment production goes only to production', () => {
  let staging: LocalServer;
  const seen: string[] = [];

  before(async () => {
    staging = await startLocalServer('apiwb-revD-envname-', (req, res) => {
      seen.push(`${req.url ?? ''} ${req.headers.authorization ?? '(no authorization)'}`);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
    writeFileSync(staging.envFile, JSON.stringify({
      production: { base: 'https://production.invalid', ApiWorkbench: { Auth: { svc: { Type: 'JWT Bearer' } } } },
      staging: { base: staging.origin, ApiWorkbench: { Auth: { 'production--svc': { Type: 'JWT Bearer' } } } },
    }));
  });
  after(async () => { await staging.close(); });

  void it('apiwb run --env staging never sends APIWB_SECRET_PRODUCTION__SVC_TOKEN to staging', async () => {
    const file = join(staging.dir, 'staging.http');
    writeFileSync(file, 'GET {{base}}/me\nAuthorization: Bearer {{$auth.token("production--svc")}}\n');
    seen.length = 0;
    const r = await runInProcess([file, '--env', 'staging', '--env-file', staging.envFile], { APIWB_SECRET_PRODUCTION__SVC_TOKEN: PRODUCTION_TOKEN });
    assert.ok(!seen.some((line) => line.includes(PRODUCTION_TOKEN)), `staging's server received production's token: ${seen.join('\n')}\n${r.stdout}${r.stderr}`);
  });
});
