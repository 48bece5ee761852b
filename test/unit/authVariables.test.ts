// {{$auth.token("id")}} / {{$auth.idToken("id")}}: found in request texts, fetched once, then resolved
// synchronously by the .http resolver's dynamic-variable port.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AuthVariables, CredentialService, findAuthReferences } from '../../src/core/auth/index';
import { authIdFromArgs } from '../../src/core/auth/authVariables';
import { basicCredential } from '../../src/core/auth/basicCredential';
import { parseHttpFile, resolveRequest } from '../../src/core/httpfile/index';
import { secretKey } from '../../src/core/secrets/index';
import { MemorySecretStore } from '../../src/core/secrets/secretStore';
import type { Environment } from '../../src/core/env/index';

const env: Environment = {
  name: 'dev',
  variables: { base: 'http://127.0.0.1:9', tenant_code: 'T-1' },
  auth: { fundraising: { id: 'fundraising', kind: 'basic-api-key', section: 'ApiWorkbench.Auth', permissionName: 'perm', tenantCode: 'T-1' } },
};

void describe('$auth variables', () => {
  void it('finds each reference once, with either quote style and spaces', () => {
    assert.deepEqual(findAuthReferences(['{{$auth.token("a")}} {{ $auth.token( \'a\' ) }}', '{{$auth.idToken("b")}}', '{{other}}']), [
      { kind: 'token', authId: 'a' }, { kind: 'idToken', authId: 'b' },
    ]);
    assert.equal(authIdFromArgs('("engagement")'), 'engagement');
    assert.equal(authIdFromArgs('(engagement)'), undefined);
  });

  void it('resolves a .http request: Basic credential from the store, nothing sent to prepare it', async () => {
    const secrets = new MemorySecretStore({ [secretKey('fundraising', 'service_key')]: 'sk_key_1' });
    const send = (): never => assert.fail('a Basic entry needs no request');
    const auth = new AuthVariables(new CredentialService(env, { secrets, send }));
    const file = parseHttpFile('GET {{base}}/v1/constituents\nAuthorization: Basic {{$auth.token("fundraising")}}\nX-API-Key: {{tenant_code}}\n');
    const request = file.requests[0]!;
    await auth.prepare(findAuthReferences(request.headers.map((h) => h.value)));
    const resolved = resolveRequest(file, 0, { environment: env.variables, dynamic: auth });
    assert.deepEqual(resolved?.headers, { Authorization: `Basic ${basicCredential('perm', 'sk_key_1')}`, 'X-API-Key': 'T-1' });
    assert.deepEqual(resolved?.unresolved, []);
    assert.deepEqual(auth.knownValues, [basicCredential('perm', 'sk_key_1')]);
    assert.equal(auth.resolve('$auth.token', '("unknown")'), undefined);
  });

  void it('an unknown auth id is an error naming the known ones', async () => {
    const auth = new AuthVariables(new CredentialService(env, { secrets: new MemorySecretStore(), send: () => assert.fail('no request') }));
    await assert.rejects(auth.prepare([{ kind: 'token', authId: 'engagement' }]), /engagement is not an auth entry of environment 'dev' \(known: fundraising\)/);
  });
});
