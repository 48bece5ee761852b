// A secret given for one environment only (APIWB_SECRET_<ENVIRONMENT>__<AUTH ID>_<FIELD>, `apiwb compare
// --help`) goes only to that environment. An auth entry of ANOTHER environment whose id upper-cases and
// underscores to `<ENVIRONMENT>__<AUTH ID>` (here `production--svc` of `staging`) must not read it as its
// own plain APIWB_SECRET_<AUTH ID>_<FIELD>: the production token would go to staging's host. More widely,
// a variable two secrets could share (two auth ids written alike, an auth id `proxy` and the proxy
// password) is read for none of them, and the run says so by the variable's name (never its value);
// an unambiguous name still gives its secret.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startLocalServer, type LocalServer } from './localServer';
import { runInProcess } from './inProcess';

const PRODUCTION_TOKEN = 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJwcm9kdWN0aW9uLW9ubHkiLCJleHAiOjQxMDI0NDQ4MDB9.c2lnbmF0dXJlLXByb2R1Y3Rpb24';
const STAGING_TOKEN = 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJzdGFnaW5nIiwiZXhwIjo0MTAyNDQ0ODAwfQ.c2lnbmF0dXJlLXN0YWdpbmc';
const PROXY_PASSWORD = 'corporate-proxy-password-42';

void describe('a secret given for environment production goes only to production', () => {
  let staging: LocalServer;
  const seen: string[] = [];

  before(async () => {
    staging = await startLocalServer('apiwb-envname-', (req, res) => {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (chunk: string) => { body += chunk; });
      req.on('end', () => {
        seen.push(`${req.url ?? ''} ${req.headers.authorization ?? '(no authorization)'} ${body}`);
        if (req.url === '/token') res.writeHead(200, { 'content-type': 'application/json' }).end('{"access_token":"obtained-token-1234567890","expires_in":3600}');
        else res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
      });
    });
    writeFileSync(staging.envFile, JSON.stringify({
      production: { base: 'https://production.invalid', ApiWorkbench: { Auth: { svc: { Type: 'JWT Bearer' }, 'prod.eu': { Type: 'JWT Bearer' } } } },
      staging: {
        base: staging.origin,
        ApiWorkbench: { Auth: { 'production--svc': { Type: 'JWT Bearer' }, 'prod-eu': { Type: 'JWT Bearer' }, own: { Type: 'JWT Bearer' } } },
        Security: { Auth: { proxy: { Type: 'OAuth2', 'Grant Type': 'Password', 'Token URL': `${staging.origin}/token`, Username: 'ann' } } },
      },
    }));
  });
  after(async () => { await staging.close(); });

  void it('apiwb run --env staging never sends APIWB_SECRET_PRODUCTION__SVC_TOKEN to staging', async () => {
    const file = join(staging.dir, 'staging.http');
    writeFileSync(file, 'GET {{base}}/me\nAuthorization: Bearer {{$auth.token("production--svc")}}\n');
    seen.length = 0;
    const r = await runInProcess([file, '--env', 'staging', '--env-file', staging.envFile], { APIWB_SECRET_PRODUCTION__SVC_TOKEN: PRODUCTION_TOKEN });
    assert.ok(!seen.some((line) => line.includes(PRODUCTION_TOKEN)), `staging's server received production's token: ${seen.join('\n')}\n${r.stdout}${r.stderr}`);
    assert.notEqual(r.code, 0, 'a request whose credential no variable may give does not succeed');
    assert.match(r.stderr, /APIWB_SECRET_PRODUCTION__SVC_TOKEN is not read for auth 'production--svc' of environment 'staging'/);
    assert.ok(!`${r.stdout}${r.stderr}`.includes(PRODUCTION_TOKEN), 'the token was printed');
  });

  void it("two auth ids written alike ('prod-eu' of staging, 'prod.eu' of production): their variable is read for neither", async () => {
    const file = join(staging.dir, 'prodeu.http');
    writeFileSync(file, 'GET {{base}}/eu\nAuthorization: Bearer {{$auth.token("prod-eu")}}\n');
    seen.length = 0;
    const r = await runInProcess([file, '--env', 'staging', '--env-file', staging.envFile], { APIWB_SECRET_PROD_EU_TOKEN: PRODUCTION_TOKEN });
    assert.ok(!seen.some((line) => line.includes(PRODUCTION_TOKEN)), `sent: ${seen.join('\n')}`);
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /APIWB_SECRET_PROD_EU_TOKEN is not read for auth 'prod-eu' of environment 'staging': the auth ids 'prod-eu' and 'prod\.eu' of the env file all give/);
  });

  void it("an auth id 'proxy' never signs in with the proxy's APIWB_SECRET_PROXY_PASSWORD", async () => {
    const file = join(staging.dir, 'signin.http');
    writeFileSync(file, 'GET {{base}}/signed\nAuthorization: Bearer {{$auth.token("proxy")}}\n');
    seen.length = 0;
    const r = await runInProcess([file, '--env', 'staging', '--env-file', staging.envFile], { APIWB_SECRET_PROXY_PASSWORD: PROXY_PASSWORD });
    assert.ok(!seen.some((line) => line.includes(PROXY_PASSWORD)), `the token endpoint received the proxy password: ${seen.join('\n')}`);
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /APIWB_SECRET_PROXY_PASSWORD is not read for auth 'proxy' of environment 'staging': APIWB_SECRET_PROXY_PASSWORD is the proxy password/);
  });

  void it("a staging request naming production's own variable ({{$processEnv …}}) is not sent", async () => {
    const file = join(staging.dir, 'processenv.http');
    writeFileSync(file, 'GET {{base}}/pe\nAuthorization: Bearer {{$processEnv APIWB_SECRET_PRODUCTION__SVC_TOKEN}}\n');
    seen.length = 0;
    const r = await runInProcess([file, '--env', 'staging', '--env-file', staging.envFile], { APIWB_SECRET_PRODUCTION__SVC_TOKEN: PRODUCTION_TOKEN });
    assert.equal(seen.length, 0, `sent: ${seen.join('\n')}`);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    // Refused before the send boundary even (a $processEnv of the run never reads it), or at it.
    assert.match(r.stdout + r.stderr, /APIWB_SECRET_PRODUCTION__SVC_TOKEN/);
    assert.ok(!`${r.stdout}${r.stderr}`.includes(PRODUCTION_TOKEN));
  });

  void it('an unambiguous name still gives its secret (APIWB_SECRET_OWN_TOKEN to staging)', async () => {
    const file = join(staging.dir, 'own.http');
    writeFileSync(file, 'GET {{base}}/own\nAuthorization: Bearer {{$auth.token("own")}}\n');
    seen.length = 0;
    const r = await runInProcess([file, '--env', 'staging', '--env-file', staging.envFile], { APIWB_SECRET_OWN_TOKEN: STAGING_TOKEN, APIWB_SECRET_PRODUCTION__SVC_TOKEN: PRODUCTION_TOKEN });
    assert.equal(r.code, 0, r.stderr);
    assert.ok(seen.some((line) => line.startsWith(`/own Bearer ${STAGING_TOKEN}`)), seen.join('\n'));
    assert.doesNotMatch(r.stderr, /APIWB_SECRET_OWN_TOKEN/);
  });
});
