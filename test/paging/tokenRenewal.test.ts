// A walk that outlives its token, as the editor runs it (no sign-in on demand): the user is asked to sign in
// again before the page the token would fail, the walk waits, then goes on from that very page; a sign-in
// declined ends it, resumable there, with nothing sent; a 401 to a token believed valid is reported as
// such and not sent again. Over real HTTP against the sandbox, on test clocks (nothing sleeps).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CredentialService } from '../../src/core/auth/credentials';
import { SecretBindings } from '../../src/core/secrets/bindings';
import { createCatalog, CONTRACT_SERVICES } from '../../src/core/catalog/index';
import { parseEnvFile } from '../../src/core/env/loadEnvFile';
import { selectEnvironment } from '../../src/core/env/session';
import { memorySink } from '../../src/core/export/sink';
import { closeHttpAgents, httpClient } from '../../src/core/http/client';
import { parseHttpFile } from '../../src/core/httpfile/parser';
import type { SignInAgain } from '../../src/core/run/credentialRenewal';
import { runExchange, type ExchangePorts, type PagingCursor } from '../../src/core/run/exchange';
import { continueWalk } from '../../src/core/run/pagedWalk';
import type { PrepareContext } from '../../src/core/run/prepareRequest';
import { MemorySecretStore, secretKey } from '../../src/core/secrets/secretStore';
import { startSandbox, type RunningSandbox } from '../../src/sandbox';
import type { SandboxDescriptor } from '../../src/sandbox/descriptor';
import type { LoggedRequest } from '../../src/sandbox/shared/requestLog';

let sandbox: RunningSandbox;
let d: SandboxDescriptor;
/** The sandbox's clock and the product's: a token believed valid can be one the server has let expire. */
let serverClock = Date.UTC(2026, 0, 1);
let productClock = serverClock;

const FILE = parseHttpFile([
  '# @name leads',
  'POST {{base}}/api/SalesLeads/GetLeads',
  'Authorization: Bearer {{$auth.token("engagement")}}',
  'Content-Type: application/json',
  '',
  '{ "CtcID": {{ctc}}, "BrandID": {{brand}}, "PageSize": 100, "Offset": 0 }',
  '',
].join('\n'));

function context(): PrepareContext {
  const environment = selectEnvironment(parseEnvFile(JSON.stringify({
    sandbox: {
      base: d.engagement.baseUrl, ctc: String(d.samples.ctcID), brand: String(d.samples.brandID),
      Security: { Auth: { engagement: { Type: 'OAuth2', 'Grant Type': 'Password', 'Token URL': `${d.engagement.authUrl}/token`, Username: d.credentials.engagement.username } } },
    },
  }), 'http-client.env.json'), 'sandbox');
  const secrets = new MemorySecretStore({ [secretKey('engagement', 'password')]: d.credentials.engagement.password });
  // As the editor's: no sign-in on demand, a token handed out while it has 5 s left.
  const credentials = new CredentialService(environment, { secrets, send: (r) => httpClient.send(r, { timeoutMs: 5000 }), now: () => productClock });
  return { environment, credentials, responses: new Map(), readInclude: () => Promise.reject(new Error('no includes')) };
}

async function log(): Promise<LoggedRequest[]> {
  return (await (await fetch(`${d.engagement.baseUrl}/__sandbox/requests`)).json()) as LoggedRequest[];
}

/** Signed in, the first page sent: the cursor to continue, and the context it was sent in. */
async function firstPage(): Promise<{ ctx: PrepareContext; cursor: PagingCursor; ports: ExchangePorts }> {
  const ctx = context();
  await ctx.credentials.signIn('engagement');
  const ports: ExchangePorts = { http: httpClient, catalog: createCatalog(CONTRACT_SERVICES), timeoutMs: 5000, guard: new SecretBindings() };
  const first = await runExchange({ file: FILE, requestIndex: 0, prepare: ctx, pages: 'first' }, ports);
  assert.ok(first.paging, first.problem);
  await fetch(`${d.engagement.baseUrl}/__sandbox/requests`, { method: 'DELETE' });
  return { ctx, cursor: first.paging, ports };
}

void describe('a walk longer than its token, in the editor', () => {
  before(async () => {
    sandbox = await startSandbox({ tokenLifetimeSeconds: 20, leads: 345, now: () => serverClock });
    d = sandbox.descriptor;
  });
  after(async () => {
    await sandbox.close();
    await closeHttpAgents();
  });

  void it('asks for a sign-in before the page the token would fail, waits for it, and goes on from that page: complete, every row once', async () => {
    const { ctx, cursor, ports } = await firstPage();
    const asked: string[] = [];
    const signInAgain: SignInAgain = async (authId, why) => {
      asked.push(why);
      await ctx.credentials.signIn(authId);
      return true;
    };
    const waiting: string[] = [];
    const sink = memorySink();
    const rest = await continueWalk({
      cursor, file: FILE, requestIndex: 0, prepare: ctx, pages: 'all', sink,
      onProgress: (p) => { if (p.waiting) waiting.push(p.waiting); },
      // Page 2 of the walk kept, 16 s pass: 4 s left of 20, less than the 5 s a token must still have.
      onPage: (event) => {
        if (event.page !== 2) return;
        serverClock += 16_000;
        productClock += 16_000;
      },
    }, { ...ports, signInAgain });
    assert.ok(rest.ok);
    assert.equal(rest.walk.verdict, 'complete', rest.walk.message);
    assert.equal(asked.length, 1, 'asked once');
    assert.match(asked[0] ?? '', /the engagement token expires in 4 s, before the next page could arrive/);
    assert.deepEqual(waiting, ['waiting for sign-in (engagement)']);
    assert.equal(rest.walk.rows, d.samples.leadsOfCtcID);
    assert.equal(new Set(sink.pages.flat().map((r) => JSON.stringify(r))).size, d.samples.leadsOfCtcID - 100, 'every row after the first page, once');
    const entries = await log();
    assert.equal(entries.filter((r) => /\/auth\/token$/i.test(r.path)).length, 1, 'one sign-in, the one the user made');
    const pages = entries.filter((r) => r.path.includes('GetLeads'));
    assert.ok(pages.every((r) => r.status === 200), 'no page went with the old token');
    assert.equal(pages.length, rest.walk.pages - 1, 'each page after the first once (the empty one that ends it counts)');
    // The page after the sign-in is the next one (Offset 200), not the first again.
    assert.equal(pages.length, 4);
  });

  void it('a sign-in declined: the walk ends failed at the page it was about to ask, resumable, nothing sent', async () => {
    const { ctx, cursor, ports } = await firstPage();
    const rest = await continueWalk({
      cursor, file: FILE, requestIndex: 0, prepare: ctx, pages: 'all', sink: memorySink(),
      onPage: () => {
        serverClock += 16_000;
        productClock += 16_000;
      },
    }, { ...ports, signInAgain: () => Promise.resolve(false) });
    assert.ok(rest.ok);
    assert.equal(rest.walk.verdict, 'failed');
    assert.equal(rest.walk.failure?.kind, 'auth');
    assert.match(rest.walk.message, /no sign-in was made/);
    assert.equal(rest.walk.resumeAt, 3, 'it resumes with the page it did not ask');
    assert.equal((await log()).length, 1, 'nothing was sent after the page kept');
  });

  void it('a 401 to a token believed valid is reported as such and not sent again', async () => {
    const { ctx, cursor, ports } = await firstPage();
    // The server's clock is past the token's life; the product's still sees 19 s left.
    serverClock += 21_000;
    productClock += 1_000;
    let asked = 0;
    const rest = await continueWalk({ cursor, file: FILE, requestIndex: 0, prepare: ctx, pages: 'all', sink: memorySink() }, { ...ports, signInAgain: () => { asked++; return Promise.resolve(true); } });
    assert.ok(rest.ok);
    assert.equal(rest.walk.verdict, 'failed');
    assert.match(rest.walk.message, /HTTP 401 Unauthorized: the engagement token was believed valid \(19 s left\) and the service refused it; not sent again/);
    assert.equal(asked, 0);
    const entries = await log();
    assert.equal(entries.length, 1, 'the one request refused, no retry, no sign-in');
    assert.equal(entries[0]?.status, 401);
    productClock = serverClock;
  });
});
