// Contract tests of the engagement token endpoint and bearer checks (seed 000 §5, §7.1, §7.4).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type RunningSandbox, startSandbox } from '../../src/sandbox';
import type { SandboxDescriptor } from '../../src/sandbox/descriptor';
import { type Json, engagementGet, signIn, tokenRequest } from './helpers';

let sandbox: RunningSandbox;
let d: SandboxDescriptor;
let clock = Date.UTC(2026, 0, 1);

before(async () => {
  sandbox = await startSandbox({ lockoutAfter: 3, tokenLifetimeMinutes: 30, orders: 60, now: () => clock });
  d = sandbox.descriptor;
});
after(() => sandbox.close());

const ordersPath = (): string => `/api/Transaction/GetOrdersByCustomer?ctcID=${d.samples.ctcID}`;

void describe('engagement token endpoint (seed 000 §5.1, §5.3, §7.4)', () => {
  void it('000 §5.1: a form-encoded password grant at {authUrl}/token answers access_token, token_type bearer, expires_in, userName (rule 000-5.1-token-grant)', async () => {
    const response = await tokenRequest(d, { grant_type: 'password', username: d.credentials.engagement.username, password: d.credentials.engagement.password });
    assert.equal(response.status, 200);
    const body = (await response.json()) as Json;
    assert.equal(typeof body['access_token'], 'string');
    assert.equal(body['token_type'], 'bearer');
    assert.equal(body['userName'], d.credentials.engagement.username);
    assert.equal(body['expires_in'], d.credentials.engagement.tokenLifetimeSeconds);
  });

  void it('000 §5.1: the path registered as /Token answers too (rule 000-5.1-token-path)', async () => {
    const response = await tokenRequest(d, { grant_type: 'password', username: d.credentials.engagement.username, password: d.credentials.engagement.password }, '/Token');
    assert.equal(response.status, 200);
  });

  void it('000 §5.1: the token URL has no trailing slash (/token/ is not the endpoint) (rule 000-5.1-no-trailing-slash)', async () => {
    const response = await tokenRequest(d, { grant_type: 'password', username: d.credentials.engagement.username, password: d.credentials.engagement.password }, '/token/');
    assert.equal(response.status, 404);
  });

  void it('000 §5.1: the token request is form-encoded only (a JSON body is a 400) (rule 000-5.1-form-encoded)', async () => {
    const response = await fetch(`${d.engagement.authUrl}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ grant_type: 'password', username: d.credentials.engagement.username, password: d.credentials.engagement.password }),
    });
    assert.equal(response.status, 400);
    assert.equal(((await response.json()) as Json)['error'], 'invalid_request');
  });

  void it('000 §5.1: grant_type other than password is refused', async () => {
    const response = await tokenRequest(d, { grant_type: 'client_credentials', client_id: 'x' });
    assert.equal(response.status, 400);
    assert.equal(((await response.json()) as Json)['error'], 'unsupported_grant_type');
  });

  void it('000 §5.2 rule 3: no refresh token is issued (rule 000-5.2-no-refresh)', async () => {
    const response = await tokenRequest(d, { grant_type: 'password', username: d.credentials.engagement.username, password: d.credentials.engagement.password });
    const body = (await response.json()) as Json;
    assert.equal('refresh_token' in body, false);
  });

  void it('000 §5.3: expires_in is the configured lifetime (30 minutes here)', () => {
    assert.equal(d.credentials.engagement.tokenLifetimeSeconds, 1800);
  });

  void it('000 §7.4: wrong credentials → 400 invalid_grant "The user name or password is incorrect." (rule 000-7.4-token-errors)', async () => {
    for (const [username, password] of [[d.credentials.engagement.username, 'wrong'], ['nobody@sandbox.test', 'x']] as const) {
      const response = await tokenRequest(d, { grant_type: 'password', username, password });
      assert.equal(response.status, 400);
      assert.deepEqual(await response.json(), { error: 'invalid_grant', error_description: 'The user name or password is incorrect.' });
    }
  });

  void it('000 §7.4: a locked user → invalid_grant "The user is locked."', async () => {
    const { username, password } = d.credentials.engagement.lockedUser;
    const response = await tokenRequest(d, { grant_type: 'password', username, password });
    assert.equal(response.status, 400);
    assert.deepEqual(await response.json(), { error: 'invalid_grant', error_description: 'The user is locked.' });
  });

  void it('000 §5.3: after lockoutAfter failed sign-ins the user is locked, even with the right password (rule 000-5.3-lockout-threshold)', async () => {
    const { username, password } = d.credentials.engagement.restrictedUser;
    const fresh = await startSandbox({ lockoutAfter: 3 });
    try {
      for (let i = 0; i < 3; i++) {
        const failed = await tokenRequest(fresh.descriptor, { grant_type: 'password', username, password: `wrong-${i}` });
        assert.equal(((await failed.json()) as Json)['error_description'], 'The user name or password is incorrect.');
      }
      const locked = await tokenRequest(fresh.descriptor, { grant_type: 'password', username, password });
      assert.equal(locked.status, 400);
      assert.equal(((await locked.json()) as Json)['error_description'], 'The user is locked.');
    } finally {
      await fresh.close();
    }
  });
});

void describe('engagement bearer checks (seed 000 §5.2, §7.1)', () => {
  void it('000 §5.2 rule 1: an operation without a token is 401 (rule 000-5.2-bearer)', async () => {
    const response = await fetch(`${d.engagement.baseUrl}${ordersPath()}`);
    assert.equal(response.status, 401);
  });

  void it('000 §7.1: an unknown token is 401', async () => {
    const { status } = await engagementGet(d, 'not-a-token', ordersPath());
    assert.equal(status, 401);
  });

  void it('000 §5.3: an expired token is 401 (expires_in honoured) (rule 000-5.1-expiry)', async () => {
    const token = await signIn(d);
    assert.equal((await engagementGet(d, token, ordersPath())).status, 200);
    clock += d.credentials.engagement.tokenLifetimeSeconds * 1000 + 1;
    assert.equal((await engagementGet(d, token, ordersPath())).status, 401);
  });

  void it('000 §7.1: a method the user may not call is 403 (rule 000-7.1-method-denial)', async () => {
    const { username, password, deniedOperations } = d.credentials.engagement.restrictedUser;
    assert.ok(deniedOperations.includes('LoyaltyPoint/GetBalance'));
    const token = await signIn(d, username, password);
    const denied = await engagementGet(d, token, `/api/LoyaltyPoint/GetBalance?ctcID=${d.samples.ctcID}&BrandID=${d.samples.brandID}`);
    assert.equal(denied.status, 403);
    assert.equal((await engagementGet(d, token, ordersPath())).status, 200, 'other operations stay allowed');
  });

  void it('000 §7.1 LoyaltyPoint: brand denial is HTTP 200 with ResponseStatus=false and code 3 (rule 000-7.1-loyalty-brand-denial)', async () => {
    const token = await signIn(d);
    for (const brand of [`&BrandID=${d.samples.deniedBrandID}`, '']) {
      const { status, body } = await engagementGet(d, token, `/api/LoyaltyPoint/GetBalance?ctcID=${d.samples.ctcID}${brand}`);
      assert.equal(status, 200);
      assert.equal(body['ResponseStatus'], false);
      assert.deepEqual(body['Errors'], [{ ErrorCode: 3, ErrorDescription: 'Not authorized to use the brand requested or brand id is missing' }]);
    }
    const ok = await engagementGet(d, token, `/api/LoyaltyPoint/GetBalance?ctcID=${d.samples.ctcID}&BrandID=${d.samples.brandID}`);
    assert.equal(ok.body['ResponseStatus'], true);
    assert.equal(typeof ok.body['Points'], 'number');
  });

  void it('000 §7.3 LoyaltyPoint: an unknown ctcID is code 13 (rule 000-7.3-loyalty-point-13)', async () => {
    const token = await signIn(d);
    const { body } = await engagementGet(d, token, `/api/LoyaltyPoint/GetBalance?ctcID=${d.samples.unknownCtcID}&BrandID=${d.samples.brandID}`);
    assert.deepEqual(body['Errors'], [{ ErrorCode: 13, ErrorDescription: 'Invalid CtcID' }]);
  });

  void it('000 §7.3 LoyaltyProgram: without BrandID and several brands → code 26; one brand → its program; a denied brand → code 3 (rule 000-7.3-loyalty-program-26)', async () => {
    const token = await signIn(d);
    const many = await engagementGet(d, token, '/api/LoyaltyProgram/Get');
    assert.equal(many.status, 200);
    assert.equal(many.body['ResponseStatus'], false);
    assert.deepEqual(many.body['Errors'], [{ ErrorCode: 26, ErrorDescription: 'Many result returned, please specify a brandID' }]);
    const chosen = await engagementGet(d, token, `/api/LoyaltyProgram/Get?BrandID=${d.samples.brandID}`);
    assert.equal(chosen.body['ResponseStatus'], true);
    assert.equal((chosen.body['Program'] as Json)['BrandID'], d.samples.brandID);
    const denied = await engagementGet(d, token, `/api/LoyaltyProgram/Get?BrandID=${d.samples.deniedBrandID}`);
    assert.equal((denied.body['Errors'] as Json[])[0]?.['ErrorCode'], 3);
    const { username, password } = d.credentials.engagement.restrictedUser;
    const single = await engagementGet(d, await signIn(d, username, password), '/api/LoyaltyProgram/Get');
    assert.equal(single.body['ResponseStatus'], true, 'a user with one brand needs no BrandID');
  });
});
