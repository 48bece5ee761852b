// Long walks of `apiwb run --all-pages` (the real runCommand in process) over real HTTP: through the
// sandbox's rate limit (--rate-limit) to the end with exactly the rows, the server seeing pages plus
// refusals; longer than the token's life (--token-lifetime) with one sign-in per expiry and no 401; a
// wrong password signs in once and sends nothing; a renewal refused mid-walk is not retried; a
// Retry-After beyond --max-wait ends failed with the resume command, and the resume completes.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { LoggedRequest } from '../../src/sandbox/shared/requestLog';
import { runCommand } from '../../src/cli/runCommand';
import { runInProcess } from './inProcess';
import { startLocalServer, type LocalServer } from './localServer';
import { COLLECTION, openSandboxWorkspace, SMALL_SANDBOX, tokenRequests, type SandboxWorkspace } from './sandboxEnv';

async function logOf(origin: string): Promise<LoggedRequest[]> {
  return (await (await fetch(`${origin}/__sandbox/requests`)).json()) as LoggedRequest[];
}

function lines(path: string): unknown[] {
  return readFileSync(path, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as unknown);
}

void describe('apiwb run: walks through the sandbox rate limit', () => {
  let ws: SandboxWorkspace;
  before(async () => {
    ws = await openSandboxWorkspace({ ...SMALL_SANDBOX, rateLimitPerSecond: 5, bookings: 120, bookingsPerPage: 10 });
  });
  after(() => ws.close());

  void it('12 pages at 5 requests a second: complete, exactly the rows, requests seen = pages + refusals, the summary says rate and waits', async () => {
    const out = join(ws.dir, 'bookings.ndjson');
    const result = await runInProcess([join(COLLECTION, 'booking.http'), '--env', 'sandbox', '--env-file', ws.envFile, '--all-pages', '--out', out], ws.secrets);
    assert.equal(result.code, 0, result.stdout + result.stderr);
    const rows = lines(out) as { id?: unknown }[];
    assert.equal(rows.length, 120);
    assert.equal(new Set(rows.map((r) => JSON.stringify(r))).size, 120, 'no row twice');
    const seen = (await logOf(ws.descriptor.booking.baseUrl)).filter((r) => r.path === '/bookings');
    const refusals = seen.filter((r) => r.status === 429).length;
    assert.equal(seen.length, 12 + refusals, `pages + refusals (${refusals} refusals)`);
    // 12 requests at 5 a second cross at least two window ends: the walk waited for the quota.
    assert.match(result.stdout, /12 pages in [\d.]+ s · [\d.]+ pages\/s · [\d\u202f]+ rows\/s · waited (once|\d+ times), \d+ s/);
    assert.equal(result.stderr, '', 'no progress line outside a terminal');
  });
});

void describe('apiwb run: a walk longer than its token', () => {
  let ws: SandboxWorkspace;
  let file = '';
  before(async () => {
    // Tokens of 1 s; 5 requests a second to the paged operations makes a 15-request walk last 1.5 to 3 s.
    ws = await openSandboxWorkspace({ ...SMALL_SANDBOX, tokenLifetimeSeconds: 1, rateLimitPerSecond: 5 });
    file = join(ws.dir, 'leads.http');
    writeFileSync(file, [
      '# @name leads',
      'POST {{engagement_base_url}}/api/SalesLeads/GetLeads',
      'Authorization: Bearer {{$auth.token("engagement")}}',
      'Content-Type: application/json',
      '',
      '{ "CtcID": {{ctc_id}}, "BrandID": {{brand_id}}, "PageSize": 25, "Offset": 0 }',
      '',
    ].join('\n'));
  });
  after(() => ws.close());

  void it('ends complete with one sign-in per expiry, each before the request it would have failed: no 401', async () => {
    await fetch(`${ws.descriptor.engagement.baseUrl}/__sandbox/requests`, { method: 'DELETE' });
    const out = join(ws.dir, 'leads.ndjson');
    const started = performance.now();
    // --timeout 300: a token is renewed once it has less than 400 ms left (the deadline + 100 ms).
    const result = await runInProcess([file, '--env', 'sandbox', '--env-file', ws.envFile, '--all-pages', '--out', out, '--timeout', '300'], ws.secrets);
    const seconds = (performance.now() - started) / 1000;
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.equal(lines(out).length, ws.descriptor.samples.leadsOfCtcID);
    const log = await logOf(ws.descriptor.engagement.baseUrl);
    const signIns = log.filter((r) => /\/auth\/token$/i.test(r.path));
    assert.ok(signIns.every((r) => r.status === 200));
    assert.equal(log.filter((r) => r.status === 401).length, 0, 'no page went with an expired token');
    // A token serves 0.6 s before it is due: the first sign-in, then one per 0.6 s of walk at most.
    assert.ok(signIns.length >= 2, `renewed at least once in ${seconds.toFixed(1)} s (${signIns.length} sign-ins)`);
    assert.ok(signIns.length <= 1 + Math.ceil(seconds / 0.6), `one sign-in per expiry: ${signIns.length} in ${seconds.toFixed(1)} s`);
  });

  void it('a wrong password: one sign-in, refused, and nothing sent after it', async () => {
    await fetch(`${ws.descriptor.engagement.baseUrl}/__sandbox/requests`, { method: 'DELETE' });
    const result = await runInProcess([file, '--env', 'sandbox', '--env-file', ws.envFile, '--all-pages', '--timeout', '500'], { ...ws.secrets, APIWB_SECRET_ENGAGEMENT_PASSWORD: 'not-the-password' });
    assert.equal(result.code, 1);
    assert.match(result.stdout, /invalid_grant/);
    assert.equal((await tokenRequests(ws.descriptor)).length, 1);
    assert.equal((await logOf(ws.descriptor.engagement.baseUrl)).filter((r) => r.path.includes('GetLeads')).length, 0);
  });
});

void describe('apiwb run: against a server of the test', () => {
  let local: LocalServer;
  let envFile = '';
  let tokenCalls = 0;
  /** Page 2 answers 429 with this Retry-After while set (and refusalsLeft > 0). */
  let refusePage2: string | undefined;
  let refusalsLeft = Number.POSITIVE_INFINITY;
  let pagesSeen = 0;
  const PAGES = 6;

  const page = (res: ServerResponse, n: number): void => {
    res.writeHead(200, { 'content-type': 'application/json', 'x-pagination-page': String(n), 'x-pagination-total-pages': String(PAGES), 'x-pagination-total-results': String(PAGES * 2) });
    res.end(JSON.stringify([{ id: n * 2 - 1 }, { id: n * 2 }]));
  };

  before(async () => {
    local = await startLocalServer('apiwb-longwalks-', (req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      if (url.pathname === '/token') {
        tokenCalls++;
        res.writeHead(tokenCalls === 1 ? 200 : 400, { 'content-type': 'application/json' });
        res.end(JSON.stringify(tokenCalls === 1
          ? { access_token: 'tok-first-0123456789', token_type: 'bearer', expires_in: 1, userName: 'u' }
          : { error: 'invalid_grant', error_description: 'The user name or password is incorrect.' }));
        return;
      }
      const n = Number(url.searchParams.get('page') ?? 1);
      if (url.pathname === '/slow') {
        setTimeout(() => page(res, n), 150);
        return;
      }
      pagesSeen++;
      if (n === 2 && refusePage2 !== undefined && refusalsLeft > 0) {
        refusalsLeft--;
        res.writeHead(429, { 'content-type': 'application/json', 'retry-after': refusePage2 });
        res.end('{"message":"slow down"}');
        return;
      }
      page(res, n);
    });
    const base = JSON.parse(readFileSync(local.envFile, 'utf8')) as { local: { base: string } };
    envFile = local.envFile;
    writeFileSync(envFile, JSON.stringify({ local: { base: base.local.base, Security: { Auth: { api: { Type: 'OAuth2', 'Grant Type': 'Password', 'Token URL': '{{base}}/token', Username: 'u' } } } } }));
    writeFileSync(join(local.dir, 'slow.http'), '# @name slow\n# @paging page-headers\nGET {{base}}/slow\nAuthorization: Bearer {{$auth.token("api")}}\n');
    writeFileSync(join(local.dir, 'pages.http'), '# @name pages\n# @paging page-headers\nGET {{base}}/pages\n');
  });
  after(() => local.close());

  void it('a renewal refused mid-walk (invalid_grant) is not retried: the walk fails, resumable, after exactly two sign-ins', async () => {
    tokenCalls = 0;
    const out = join(local.dir, 'slow.ndjson');
    const result = await runInProcess([join(local.dir, 'slow.http'), '--env', 'local', '--env-file', envFile, '--all-pages', '--out', out, '--timeout', '500'], { APIWB_SECRET_API_PASSWORD: 'secret-password' });
    assert.equal(result.code, 1);
    assert.equal(tokenCalls, 2, 'the first sign-in, then one renewal, refused and never sent again');
    assert.match(result.stdout, /failed at page \d: .*invalid_grant/);
    assert.match(result.stdout, /--resume/);
    assert.doesNotMatch(result.stdout, /tok-first|secret-password/);
    assert.ok(lines(out).length >= 2, 'the pages before it are kept');
  });

  void it('a Retry-After beyond --max-wait ends the walk failed with the resume command; the resume ends complete with every row once', async () => {
    refusePage2 = '3600';
    const out = join(local.dir, 'pages.ndjson');
    const args = [join(local.dir, 'pages.http'), '--env', 'local', '--env-file', envFile, '--all-pages', '--out', out, '--max-wait', '60'];
    const failed = await runInProcess(args);
    assert.equal(failed.code, 1);
    assert.match(failed.stdout, /failed at page 2 .*HTTP 429 Too Many Requests, Retry-After asks to wait 3600 s, beyond the 60 s left of the 60 s of waiting allowed/);
    assert.match(failed.stdout, /To continue from page 2, appending to .*pages\.ndjson: apiwb run .* --max-wait 60 --resume/);
    assert.equal(lines(out).length, 2);
    refusePage2 = undefined;
    const resumed = await runInProcess([...args, '--resume']);
    assert.equal(resumed.code, 0, resumed.stdout);
    assert.deepEqual(lines(out), Array.from({ length: PAGES * 2 }, (_, i) => ({ id: i + 1 })));
  });

  void it('a Retry-After within --max-wait is waited out (really: 1 s) and the same page asked again', async () => {
    refusePage2 = '1';
    refusalsLeft = 1;
    pagesSeen = 0;
    const out = join(local.dir, 'waited.ndjson');
    const started = performance.now();
    // On a terminal: the progress line on stderr says the wait and the pages of the total.
    let stdout = '';
    let stderr = '';
    const stream = (tty: boolean, add: (text: string) => void): NodeJS.WriteStream => ({ isTTY: tty, columns: 200, write: (text: string) => { add(text); return true; } }) as unknown as NodeJS.WriteStream;
    const code = await runCommand([join(local.dir, 'pages.http'), '--env', 'local', '--env-file', envFile, '--all-pages', '--out', out], {
      stdout: stream(false, (t) => { stdout += t; }), stderr: stream(true, (t) => { stderr += t; }), env: { NO_COLOR: '1' },
    });
    const result = { code, stdout };
    const ms = performance.now() - started;
    assert.match(stderr, /pages · page 1 of 6 · 2 rows · [\d.]+ pages\/s · [\d\u202f]+ rows\/s · about \d+ s left · rate limited: waiting 1 s/);
    assert.match(stderr, /page 6 of 6 · 12 rows/);
    refusePage2 = undefined;
    assert.equal(result.code, 0, result.stdout);
    assert.deepEqual(lines(out), Array.from({ length: PAGES * 2 }, (_, i) => ({ id: i + 1 })));
    assert.equal(pagesSeen, PAGES + 1, 'pages + the one refusal');
    assert.ok(ms >= 1000, `it waited the second (${Math.round(ms)} ms)`);
    assert.match(result.stdout, /waited once, 1 s/);
  });
});
