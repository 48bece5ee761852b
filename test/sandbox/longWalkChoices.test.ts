// The sandbox choices that make long walks demonstrable: `rate-limit` on every service's paged operations
// (quota headers, 429 + Retry-After, nothing changed by a refusal) and `token-lifetime` (tokens of a few
// seconds). On a test clock: nothing here sleeps.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type RunningSandbox, startSandbox } from '../../src/sandbox';
import type { SandboxDescriptor } from '../../src/sandbox/descriptor';
import { type Json, engagementGet, engagementPost, signIn, tokenRequest } from './helpers';

const choicesOf = (headers: Headers): string[] => (headers.get('x-sandbox-choice') ?? '').split(',').map((c) => c.trim());

void describe('sandbox --rate-limit N: every service, every paged operation', () => {
  let sandbox: RunningSandbox;
  let d: SandboxDescriptor;
  // A whole second, a quarter into it: the window ends in 750 ms.
  let clock = Date.UTC(2026, 0, 1) + 250;

  before(async () => {
    sandbox = await startSandbox({ rateLimitPerSecond: 2, bidwTransientEvery: 0, facts: 20, now: () => clock });
    d = sandbox.descriptor;
  });
  after(() => sandbox.close());

  void it('booking pages: the quota headers on each answer, then 429 + Retry-After over it, labelled rate-limit', async () => {
    const get = (): Promise<Response> => fetch(`${d.booking.baseUrl}/bookings?page=1`);
    const first = await get();
    assert.equal(first.status, 200);
    assert.equal(first.headers.get('ratelimit-limit'), '2');
    assert.equal(first.headers.get('ratelimit-remaining'), '1');
    assert.equal(first.headers.get('ratelimit-reset'), '1');
    assert.equal(first.headers.get('x-ratelimit-reset'), String(Math.floor(clock / 1000) + 1), 'the window\'s end in epoch seconds');
    assert.ok(choicesOf(first.headers).includes('rate-limit'));
    const second = await get();
    assert.equal(second.headers.get('ratelimit-remaining'), '0');
    const third = await get();
    assert.equal(third.status, 429);
    assert.equal(third.headers.get('retry-after'), '1');
    assert.ok(choicesOf(third.headers).includes('rate-limit'));
    clock += 750;
    assert.equal((await get()).status, 200, 'the next window lets it through');
  });

  void it('engagement: a refused BIDWHouse call does not advance the extraction; the same call later gets the rows', async () => {
    clock += 1000;
    const token = await signIn(d);
    const read = (): ReturnType<typeof engagementPost> => engagementPost(d, token, '/api/BIDWHouse/GetFactTransactions', { PageSize: 10 });
    const a = await read();
    const b = await read();
    const refused = await read();
    assert.deepEqual([a.status, b.status, refused.status], [200, 200, 429]);
    assert.equal(refused.headers.get('retry-after'), '1');
    clock += 1000;
    const after = await read();
    assert.equal(after.status, 200);
    // 20 facts, 10 a call: the two first calls took them all; the refused one took nothing, so this is the end.
    assert.deepEqual((after.body)['FactTransactions'], []);
  });

  void it('unpaged operations and the token endpoint are not limited', async () => {
    clock += 1000;
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await tokenRequest(d, { grant_type: 'password', username: d.credentials.engagement.username, password: d.credentials.engagement.password })).status);
    assert.deepEqual(statuses, [200, 200, 200, 200]);
  });
});

void describe('sandbox --token-lifetime SECONDS', () => {
  let sandbox: RunningSandbox;
  let d: SandboxDescriptor;
  let clock = Date.UTC(2026, 0, 1);

  before(async () => {
    sandbox = await startSandbox({ tokenLifetimeSeconds: 2, orders: 60, now: () => clock });
    d = sandbox.descriptor;
  });
  after(() => sandbox.close());

  void it('rule 000-5.3-lifetime-values: effective lifetimes are not shown → with --token-lifetime 2 a token lives 2 s, expires_in says so, labelled token-lifetime; off for one request, the usual 72 h', async () => {
    assert.equal(d.credentials.engagement.tokenLifetimeSeconds, 2);
    assert.equal(d.choices['token-lifetime'], true);
    const fields = { grant_type: 'password', username: d.credentials.engagement.username, password: d.credentials.engagement.password };
    const response = await tokenRequest(d, fields);
    const body = (await response.json()) as Json;
    assert.equal(body['expires_in'], 2);
    assert.ok(choicesOf(response.headers).includes('token-lifetime'));
    const token = String(body['access_token']);
    const orders = `/api/Transaction/GetOrdersByCustomer?ctcID=${d.samples.ctcID}`;
    clock += 1999;
    assert.equal((await engagementGet(d, token, orders)).status, 200);
    clock += 1;
    assert.equal((await engagementGet(d, token, orders)).status, 401, 'refused once its 2 s are over');
    const usual = await fetch(`${d.engagement.authUrl}/token`, {
      method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-sandbox-choice': 'token-lifetime=off' }, body: new URLSearchParams(fields).toString(),
    });
    assert.equal(((await usual.json()) as Json)['expires_in'], 72 * 3600);
  });
});
