// A token is obtained for the place and environment its sign-in started in: a sign-in still waiting on
// workspace one's token endpoint when the user switches to workspace two's env file (same environment and
// auth names, other hosts) must not leave workspace one's token kept for workspace two, nor bound to its hosts.
// Sign-ins in flight and failed ones are kept per scope too: workspace two's never joins, nor is blocked by,
// workspace one's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CredentialService } from '../../src/core/auth/index';
import { SecretBindings } from '../../src/core/secrets/bindings';
import { MemorySecretStore } from '../../src/core/secrets/secretStore';
import type { Environment } from '../../src/core/env/model';
import type { HttpRequest, HttpResponse } from '../../src/core/http/types';
import { ScopedSecretStore, type SecretScope } from '../../src/extension/credentials/scopedSecretStore';

function environment(base: string, auth: string): Environment {
  return {
    name: 'production',
    variables: { base_url: base, auth_url: auth },
    auth: { engagement: { id: 'engagement', kind: 'password-grant', section: 'Security.Auth', tokenUrl: `${auth}/token`, username: 'u' } },
  };
}

const one = environment('https://api.one.test', 'https://auth.one.test');
const two = environment('https://api.two.test', 'https://auth.two.test');
const scopeOne: SecretScope = { place: { folder: 'file:///work/one', envFile: 'http-client.env.json', environment: 'production' }, environment: one };
const scopeTwo: SecretScope = { place: { folder: 'file:///work/two', envFile: 'http-client.env.json', environment: 'production' }, environment: two };

function json(status: number, body: unknown): HttpResponse {
  const bodyText = JSON.stringify(body);
  return { status, statusText: status === 200 ? 'OK' : 'Bad Request', headers: { 'content-type': 'application/json' }, bodyText, timing: { startedAt: 0, firstByteMs: 1, totalMs: 1 }, sizeBytes: bodyText.length };
}

const grantOf = (token: string): HttpResponse => json(200, { access_token: token, token_type: 'bearer', expires_in: 3600 });

/**
 * An editor's credentials over one SecretStorage: the scope is workspace one's until `switchToTwo`. Each
 * token request waits until the test answers it (`answers`, in the order they were sent).
 */
function editor() {
  let scope = scopeOne;
  const all = new MemorySecretStore();
  const store = new ScopedSecretStore(all, () => scope);
  const bindings = new SecretBindings();
  const sent: string[] = [];
  const answers: ((response: HttpResponse) => void)[] = [];
  const send = (request: HttpRequest): Promise<HttpResponse> => {
    sent.push(request.url);
    return new Promise((resolve) => answers.push(resolve));
  };
  const credentials = new CredentialService(one, { secrets: store, bindings, send });
  return {
    all, store, bindings, sent, answers, credentials,
    switchToTwo: (): void => {
      scope = scopeTwo;
      credentials.useEnvironment(two);
    },
    at: (at: SecretScope) => new ScopedSecretStore(all, () => at),
  };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

void test('a sign-in that ends after a switch to another workspace keeps its token for the workspace it began in', async () => {
  const { store, bindings, sent, answers, credentials, switchToTwo, at } = editor();
  const signIn = credentials.signIn('engagement', 'password-of-one');
  await turn();
  assert.deepEqual(sent, ['https://auth.one.test/token'], 'the sign-in went to workspace one');
  // The user switches to workspace two's env file while the token endpoint has not answered.
  switchToTwo();
  answers[0]?.(grantOf('token-of-workspace-one'));
  await signIn;
  assert.ok(!(bindings.originsOf('token-of-workspace-one') ?? []).includes('https://api.two.test'), 'workspace one\'s token is not bound to workspace two\'s hosts');
  assert.deepEqual(bindings.originsOf('token-of-workspace-one'), ['https://api.one.test', 'https://auth.one.test'], 'it is bound to workspace one\'s hosts');
  assert.equal(await store.get('engagement.access_token'), undefined, 'workspace two gets nothing without a question');
  await assert.rejects(credentials.token('engagement'), /not signed in/, 'a request of workspace two finds no token');
  assert.equal(await at(scopeOne).get('engagement.access_token'), 'token-of-workspace-one', 'workspace one keeps it');
});

void test('a sign-in of the same auth name in another workspace sends its own request, never joining the first', async () => {
  const { sent, answers, credentials, switchToTwo, at } = editor();
  const signInOne = credentials.signIn('engagement', 'password-of-one');
  await turn();
  switchToTwo();
  const signInTwo = credentials.signIn('engagement', 'password-of-two');
  await turn();
  assert.deepEqual(sent, ['https://auth.one.test/token', 'https://auth.two.test/token'], 'each workspace asked its own token endpoint');
  answers[1]?.(grantOf('token-of-workspace-two'));
  answers[0]?.(grantOf('token-of-workspace-one'));
  await Promise.all([signInOne, signInTwo]);
  assert.equal(await credentials.token('engagement'), 'token-of-workspace-two', 'workspace two has its own token');
  assert.equal(await at(scopeOne).get('engagement.access_token'), 'token-of-workspace-one');
});

void test('a renewal that ends after a switch leaves the other workspace\'s own token as it was', async () => {
  const { all, sent, answers, bindings, credentials, switchToTwo, at } = editor();
  // Workspace two signed in earlier and holds a valid token; workspace one's has expired.
  await at(scopeTwo).set('engagement.access_token', 'token-of-workspace-two');
  await at(scopeTwo).set('engagement.session', JSON.stringify({ tokenType: 'bearer', userName: 'u', obtainedAt: 0, expiresAt: Date.now() + 3_600_000, expiresIn: 3600 }));
  await at(scopeOne).set('engagement.password', 'password-of-one');
  await at(scopeOne).set('engagement.access_token', 'expired-token-of-one');
  await at(scopeOne).set('engagement.session', JSON.stringify({ tokenType: 'bearer', userName: 'u', obtainedAt: 0, expiresAt: Date.now() - 1, expiresIn: 3600 }));
  assert.equal((await credentials.renewalDue('engagement'))?.state, 'expired', 'workspace one\'s token is due');
  const renewal = credentials.signIn('engagement');
  await turn();
  assert.deepEqual(sent, ['https://auth.one.test/token']);
  switchToTwo();
  answers[0]?.(grantOf('renewed-token-of-one'));
  await renewal;
  assert.equal(await credentials.token('engagement'), 'token-of-workspace-two', 'workspace two still sends its own token');
  assert.equal(await at(scopeOne).get('engagement.access_token'), 'renewed-token-of-one', 'the renewal went to workspace one');
  assert.ok(!(bindings.originsOf('renewed-token-of-one') ?? []).includes('https://api.two.test'));
  assert.equal((await all.keys()).filter((key) => key.includes('/work/two')).length, 2, 'nothing more kept for workspace two');
});

void test('a sign-in refused after a switch is not held against the other workspace', async () => {
  const { answers, credentials, switchToTwo, at } = editor();
  await at(scopeTwo).set('engagement.access_token', 'expired-token-of-two');
  await at(scopeTwo).set('engagement.session', JSON.stringify({ tokenType: 'bearer', userName: 'u', obtainedAt: 0, expiresAt: Date.now() - 1, expiresIn: 3600 }));
  const signIn = credentials.signIn('engagement', 'wrong-password-of-one');
  await turn();
  switchToTwo();
  answers[0]?.(json(400, { error: 'invalid_grant', error_description: 'The user name or password is incorrect.' }));
  await assert.rejects(signIn, /invalid_grant/);
  assert.equal(await at(scopeTwo).get('engagement.access_token'), 'expired-token-of-two', 'workspace two\'s token is not touched');
  assert.equal((await credentials.renewalDue('engagement'))?.state, 'expired', 'workspace two may still sign in again');
  await assert.rejects(credentials.token('engagement'), /token has expired: sign in again/, 'workspace two is told of its own token, not of workspace one\'s refusal');
});
