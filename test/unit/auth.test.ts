// Sign-in flows against a local sandbox over real HTTP: the password grant (ok, wrong password sent
// exactly once, locked user), Basic + X-API-Key (ok, 401, 403 permission, 403 caller-IP range, each
// explained in words), and pasted JWTs (decoded, expired).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { AuthError, AuthVariables, CredentialService, decodeJwt, describeJwt, describeTimeLeft, findAuthReferences, SignInError } from '../../src/core/auth/index';
import { basicCredential } from '../../src/core/auth/basicCredential';
import { explainAuthFailure } from '../../src/core/auth/explain';
import { isJwtExpired } from '../../src/core/auth/jwt';
import { requestPasswordGrant } from '../../src/core/auth/passwordGrant';
import { closeHttpAgents, sendRequest } from '../../src/core/http/client';
import { secretKey } from '../../src/core/secrets/index';
import { MemorySecretStore } from '../../src/core/secrets/secretStore';
import type { Environment } from '../../src/core/env/index';
import type { HttpRequest, HttpResponse } from '../../src/core/http/types';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index';
import type { SandboxDescriptor } from '../../src/sandbox/descriptor';

let sandbox: RunningSandbox;
let d: SandboxDescriptor;
/** Every request the flows send, to count token requests without trusting the code under test. */
const sent: HttpRequest[] = [];
const send = (request: HttpRequest): Promise<HttpResponse> => {
  sent.push(request);
  return sendRequest(request, { timeoutMs: 10_000 });
};

async function tokenRequestsInSandboxLog(): Promise<number> {
  const log = await (await fetch(`${d.engagement.baseUrl}/__sandbox/requests`)).json() as { path: string }[];
  return log.filter((entry) => /\/auth\/token$/i.test(entry.path)).length;
}

async function clearSandboxLog(): Promise<void> {
  await fetch(`${d.engagement.baseUrl}/__sandbox/requests`, { method: 'DELETE' });
}

function environment(username = d.credentials.engagement.username, permissionName = d.credentials.fundraising.fullAccess.permissionName): Environment {
  return {
    name: 'sandbox',
    variables: {},
    auth: {
      engagement: { id: 'engagement', kind: 'password-grant', section: 'Security.Auth', tokenUrl: `${d.engagement.authUrl}/token/`, username },
      fundraising: { id: 'fundraising', kind: 'basic-api-key', section: 'ApiWorkbench.Auth', permissionName, tenantCode: d.credentials.fundraising.tenantCode },
      user: { id: 'user', kind: 'jwt-bearer', section: 'ApiWorkbench.Auth' },
    },
  };
}

before(async () => { sandbox = await startSandbox({ orders: 60 }); d = sandbox.descriptor; });
after(async () => { await sandbox.close(); await closeHttpAgents(); });

void describe('password grant (seed 000 §5.1, §7.4)', () => {
  void it('signs in with one form-encoded POST to {auth_url}/token (no trailing slash, no client id) and keeps the token fields', async () => {
    sent.length = 0;
    const grant = await requestPasswordGrant(send, { tokenUrl: `${d.engagement.authUrl}/token/`, username: d.credentials.engagement.username, password: d.credentials.engagement.password }, () => 1_000_000);
    assert.equal(sent.length, 1);
    const request = sent[0]!;
    assert.equal(request.url, `${d.engagement.authUrl}/token`);
    assert.equal(request.headers['Content-Type'], 'application/x-www-form-urlencoded');
    assert.deepEqual([...new URLSearchParams(request.body).keys()], ['grant_type', 'username', 'password']);
    assert.equal(new URLSearchParams(request.body).get('grant_type'), 'password');
    assert.equal(grant.tokenType, 'bearer');
    assert.equal(grant.userName, d.credentials.engagement.username);
    assert.equal(grant.expiresIn, d.credentials.engagement.tokenLifetimeSeconds);
    assert.equal(grant.expiresAt, 1_000_000 + grant.expiresIn * 1000);
    assert.ok(grant.accessToken.length > 10);
    assert.equal(describeTimeLeft(grant.expiresAt, 1_000_000), '3 d 0 h left');
    // The one format: days and hours, hours and minutes, minutes, seconds; past expiry says so.
    assert.equal(describeTimeLeft(grant.expiresAt, 1_000_000 + 2 * 60_000), '2 d 23 h left');
    assert.equal(describeTimeLeft(1_000_000 + 65 * 60_000, 1_000_000), '1 h 5 min left');
    assert.equal(describeTimeLeft(1_000_000 + 42 * 60_000 + 59_000, 1_000_000), '42 min left');
    assert.equal(describeTimeLeft(1_000_000 + 30_000, 1_000_000), '30 s left');
    assert.equal(describeTimeLeft(1_000_000, 1_000_000 + 3 * 60_000), 'expired 3 min ago');
  });

  void it('the credential service stores the token, reports the time left, and the bearer works on SurveyApi', async () => {
    const secrets = new MemorySecretStore({ [secretKey('engagement', 'password')]: d.credentials.engagement.password });
    const credentials = new CredentialService(environment(), { secrets, send });
    assert.deepEqual(await credentials.state('engagement'), { state: 'signed-out' });
    await assert.rejects(credentials.token('engagement'), /engagement is not signed in: sign in first/, 'no sign-in without asking (extension)');
    const session = await credentials.signIn('engagement');
    assert.equal(session.userName, d.credentials.engagement.username);
    assert.equal((await credentials.state('engagement')).state, 'signed-in');
    const headers = { Authorization: `Bearer ${await credentials.token('engagement')}` };
    const response = await sendRequest({
      method: 'POST', url: `${d.engagement.baseUrl}/api/SurveyApi/AddLabelQuestion`, headers: { ...headers, 'Content-Type': 'application/json' },
      body: JSON.stringify({ ErrorMessage: 'e', OpCode: 1, QuestionLabel: 'Hello', QuestionSubType: 'Label', QuestionType: 'Label' }),
    });
    assert.equal(response.status, 200);
    assert.equal((JSON.parse(response.bodyText) as { ResponseStatus: boolean }).ResponseStatus, true);
    await credentials.signOut('engagement');
    assert.equal(await secrets.get(secretKey('engagement', 'access_token')), undefined, 'sign out removes the token');
    assert.deepEqual(await credentials.state('engagement'), { state: 'signed-out' });
  });

  void it('a password typed for one sign-in is used once and never stored', async () => {
    const secrets = new MemorySecretStore();
    const credentials = new CredentialService(environment(), { secrets, send });
    await credentials.signIn('engagement', d.credentials.engagement.password);
    assert.deepEqual([...await secrets.keys()].sort(), ['engagement.access_token', 'engagement.session']);
    assert.ok(!JSON.stringify(await secrets.get('engagement.session')).includes(d.credentials.engagement.password));
    await credentials.forgetAll();
    assert.deepEqual(await secrets.keys(), []);
  });

  void it('a wrong password is an invalid_grant in words and exactly ONE token request, even when asked again', async () => {
    await clearSandboxLog();
    const secrets = new MemorySecretStore({ [secretKey('engagement', 'password')]: 'not-the-password' });
    const credentials = new CredentialService(environment(), { secrets, send, signInOnDemand: true });
    const expected = /^engagement sign-in failed: invalid_grant — The user name or password is incorrect\.$/;
    await assert.rejects(credentials.token('engagement'), (error: unknown) => error instanceof AuthError && expected.test(error.message));
    const same = (error: unknown): boolean => error instanceof AuthError && expected.test(error.message);
    await assert.rejects(credentials.token('engagement'), same, 'a second request for the token does not re-send the password');
    const auth = new AuthVariables(credentials);
    await assert.rejects(auth.prepare(findAuthReferences(['Bearer {{$auth.token("engagement")}}'])), same);
    assert.equal(await tokenRequestsInSandboxLog(), 1);
  });

  void it('a locked user is told so, once', async () => {
    await clearSandboxLog();
    const locked = d.credentials.engagement.lockedUser;
    await assert.rejects(
      requestPasswordGrant(send, { tokenUrl: `${d.engagement.authUrl}/token`, username: locked.username, password: locked.password }),
      (error: unknown) => error instanceof SignInError && error.kind === 'invalid_grant' && error.isCredentialFailure
        && error.detail === 'invalid_grant — The user is locked.' && error.status === 400,
    );
    assert.equal(await tokenRequestsInSandboxLog(), 1);
  });

  void it('an unreachable token endpoint and a missing password are errors in words', async () => {
    await assert.rejects(
      requestPasswordGrant(send, { tokenUrl: 'http://127.0.0.1:1/auth/token', username: 'u', password: 'p' }),
      (error: unknown) => error instanceof SignInError && error.kind === 'network' && /could not be reached/.test(error.message),
    );
    const credentials = new CredentialService(environment(), { secrets: new MemorySecretStore(), send, signInOnDemand: true, missingSecretHint: (id, f) => `set ${id}/${f}` });
    await assert.rejects(credentials.token('engagement'), /engagement needs a password: set engagement\/password/);
  });

  void it('a 401 on a resource request is explained and offers sign-in (no loop); a 403 is a method denial', async () => {
    const response = await sendRequest({ method: 'GET', url: `${d.engagement.baseUrl}/api/Transaction/GetOrdersByCustomer?ctcID=${d.samples.ctcID}`, headers: {} });
    assert.equal(response.status, 401);
    const e401 = explainAuthFailure({ status: 401, bodyText: response.bodyText, service: 'engagement' });
    assert.equal(e401?.action, 'sign-in');
    assert.match(e401?.detail ?? '', /no refresh token/i);
    const e403 = explainAuthFailure({ status: 403, scheme: 'password-grant' });
    assert.equal(e403?.reason, 'method-denied');
    assert.match(e403?.detail ?? '', /brand denial.*HTTP 200.*code 3/);
    assert.equal(explainAuthFailure({ status: 404 }), undefined);
  });
});

void describe('Basic + X-API-Key (seed 001 §5.1)', () => {
  const basicHeaders = (permissionName: string, serviceKey: string, tenantCode: string): Record<string, string> =>
    ({ Authorization: `Basic ${basicCredential(permissionName, serviceKey)}`, 'X-API-Key': tenantCode });
  const constituents = (headers: Record<string, string>, method = 'GET', body?: string): Promise<HttpResponse> =>
    sendRequest({ method, url: `${d.fundraising.baseUrl}/v1/constituents`, headers: { ...headers, 'Content-Type': 'application/json' }, ...(body ? { body } : {}) });

  void it('permission name and service key as Basic, tenant code as X-API-Key: 200', async () => {
    const f = d.credentials.fundraising;
    const secrets = new MemorySecretStore({ [secretKey('fundraising', 'service_key')]: f.fullAccess.serviceKey });
    const credentials = new CredentialService(environment(), { secrets, send });
    // As a request writes it: Authorization: Basic {{$auth.token("fundraising")}} and X-API-Key: {{tenant_code}}.
    const headers = { Authorization: `Basic ${await credentials.token('fundraising')}`, 'X-API-Key': f.tenantCode };
    assert.equal(Buffer.from(headers.Authorization.slice(6), 'base64').toString(), `${f.fullAccess.permissionName}:${f.fullAccess.serviceKey}`);
    assert.equal((await constituents(headers)).status, 200);
  });

  void it("a Permission Name holding ':' is refused before anything is sent (Basic would read another user)", async () => {
    const f = d.credentials.fundraising;
    const secrets = new MemorySecretStore({ [secretKey('fundraising', 'service_key')]: f.fullAccess.serviceKey });
    const credentials = new CredentialService(environment(undefined, `corp:${f.fullAccess.permissionName}`), { secrets, send });
    await assert.rejects(credentials.token('fundraising'), (error: unknown) => error instanceof AuthError && /Permission Name holds ':'/.test(error.message));
    assert.throws(() => basicCredential('corp:svc', 'secret'), /holds ':'/, 'the one encoder refuses it too');
    assert.equal(Buffer.from(basicCredential('jösé', 'pässwörd€'), 'base64').toString('utf8'), 'jösé:pässwörd€', 'UTF-8 otherwise');
  });

  void it('a wrong key or a missing X-API-Key: 401, explained', async () => {
    const f = d.credentials.fundraising;
    const wrong = await constituents(basicHeaders(f.fullAccess.permissionName, 'sk_wrong', f.tenantCode));
    assert.equal(wrong.status, 401);
    const noKey: Record<string, string> = basicHeaders(f.fullAccess.permissionName, f.fullAccess.serviceKey, f.tenantCode);
    delete noKey['X-API-Key'];
    assert.equal((await constituents(noKey)).status, 401);
    const explanation = explainAuthFailure({ status: 401, bodyText: wrong.bodyText, scheme: 'basic-api-key' });
    assert.equal(explanation?.reason, 'missing-or-invalid-credentials');
    assert.match(explanation?.detail ?? '', /X-API-Key: <tenant code>.*rule 4/);
  });

  void it('a read-only permission on a create: 403 missing permission, explained', async () => {
    const f = d.credentials.fundraising;
    const response = await constituents(basicHeaders(f.readOnly.permissionName, f.readOnly.serviceKey, f.tenantCode), 'POST', JSON.stringify({ type: 'Individual', firstName: 'A', lastName: 'B' }));
    assert.equal(response.status, 403);
    const explanation = explainAuthFailure({ status: 403, bodyText: response.bodyText, service: 'fundraising', scheme: 'basic-api-key' });
    assert.equal(explanation?.reason, 'missing-permission');
    assert.match(explanation?.summary ?? '', /lack the permission/);
  });

  void it('a caller outside the allowed IP range: 403 told apart from a missing permission', async () => {
    const f = d.credentials.fundraising;
    const response = await constituents(basicHeaders(f.ipRestricted.permissionName, f.ipRestricted.serviceKey, f.tenantCode));
    assert.equal(response.status, 403);
    const explanation = explainAuthFailure({ status: 403, bodyText: response.bodyText, service: 'fundraising' });
    assert.equal(explanation?.reason, 'caller-ip-range');
    assert.match(explanation?.detail ?? '', /even with valid credentials.*rule 3/);
  });
});

void describe('pasted JWT bearer (seed 001 §5.2)', () => {
  void it('decodes header and payload without verifying: sub, issuer, exp', () => {
    const jwt = decodeJwt(`Bearer ${d.credentials.fundraising.jwt.token}`);
    assert.equal(jwt.header.alg, 'HS256');
    assert.equal(jwt.subject, d.credentials.fundraising.jwt.user);
    assert.equal(typeof jwt.issuer, 'string');
    assert.ok(jwt.expiresAt !== undefined && jwt.expiresAt > Date.now());
    assert.match(describeJwt(jwt, Date.now()), new RegExp(`^subject ${d.credentials.fundraising.jwt.user}, issuer .+, expires \\d{4}-`));
    assert.throws(() => decodeJwt('abc.def'), /not a JWT: expected three dot-separated parts, found 2/);
    assert.throws(() => decodeJwt('@@@.@@@.x'), /not a JWT: the header is not base64url-encoded JSON/);
  });

  void it('a valid pasted token authorises a fundraising call; an expired one is refused before sending, in words', async () => {
    const token = d.credentials.fundraising.jwt.token;
    const secrets = new MemorySecretStore({ [secretKey('user', 'token')]: token });
    const credentials = new CredentialService(environment(), { secrets, send });
    const headers = { Authorization: `Bearer ${await credentials.token('user')}` };
    const response = await sendRequest({ method: 'GET', url: `${d.fundraising.baseUrl}/v1/constituents`, headers: { ...headers, 'X-API-Key': d.credentials.fundraising.tenantCode } });
    assert.equal(response.status, 200);
    assert.equal(await credentials.idToken('user'), token);

    const jwt = decodeJwt(token);
    const later = (jwt.expiresAt ?? 0) + 1000;
    assert.ok(isJwtExpired(jwt, later));
    assert.match(describeJwt(jwt, later), /EXPIRED at/);
    const expired = new CredentialService(environment(), { secrets, send, now: () => later });
    await assert.rejects(expired.token('user'), /user bearer token expired at .*: paste a fresh one/);
    await assert.rejects(credentials.idToken('engagement'), /has no ID token/);
  });
});
