// A token is obtained for the place and environment its sign-in started in: a sign-in still waiting on
// workspace one's token endpoint when the user switches to workspace two's env file (same environment and
// auth names, other hosts) must not leave workspace one's token kept for workspace two, nor bound to its hosts.
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

void test('a sign-in that ends after a switch to another workspace keeps its token for the workspace it began in', async () => {
  const one = environment('https://api.one.test', 'https://auth.one.test');
  const two = environment('https://api.two.test', 'https://auth.two.test');
  let scope: SecretScope = { place: { folder: 'file:///work/one', envFile: 'http-client.env.json', environment: 'production' }, environment: one };
  const store = new ScopedSecretStore(new MemorySecretStore(), () => scope);
  const bindings = new SecretBindings();
  let answer!: () => void;
  const answered = new Promise<void>((resolve) => { answer = resolve; });
  const sent: string[] = [];
  const send = async (request: HttpRequest): Promise<HttpResponse> => {
    sent.push(request.url);
    await answered;
    const bodyText = JSON.stringify({ access_token: 'token-of-workspace-one', token_type: 'bearer', expires_in: 3600 });
    return { status: 200, statusText: 'OK', headers: { 'content-type': 'application/json' }, bodyText, timing: { startedAt: 0, firstByteMs: 1, totalMs: 1 }, sizeBytes: bodyText.length };
  };
  const credentials = new CredentialService(one, { secrets: store, bindings, send });
  const signIn = credentials.signIn('engagement', 'password-of-one');
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(sent, ['https://auth.one.test/token'], 'the sign-in went to workspace one');
  // The user switches to workspace two's env file while the token endpoint has not answered.
  scope = { place: { folder: 'file:///work/two', envFile: 'http-client.env.json', environment: 'production' }, environment: two };
  credentials.useEnvironment(two);
  answer();
  await signIn;
  assert.ok(!(bindings.originsOf('token-of-workspace-one') ?? []).includes('https://api.two.test'), 'workspace one\'s token is not bound to workspace two\'s hosts');
  assert.equal(await store.get('engagement.access_token'), undefined, 'workspace two gets nothing without a question');
  await assert.rejects(credentials.token('engagement'), /not signed in/, 'a request of workspace two finds no token');
});
