// REST Client's rest-client.environmentVariables as env-file environments (core/env/restClientEnvironments.ts):
// later settings scopes win per variable, {{$shared name}} is replaced by its value, and what the env-file check
// would reject (a literal under a secret name, a JWT) comes back for the secret store, never for the file.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { restClientEnvironments } from '../../src/core/env/restClientEnvironments';
import { parseEnvFile } from '../../src/core/env/loadEnvFile';

const JWT = 'eyJhbGciOiJub25lIn0.eyJzdWIiOiJhIn0.';

void describe('REST Client environments', () => {
  void it('merges user < workspace < folder per variable, rewrites $shared references, and splits secrets from the file', () => {
    const plan = restClientEnvironments([
      { scope: 'user settings', value: { $shared: { version: 'v1', prodToken: 'user-token-123' }, local: { host: 'user-host', port: 1 } } },
      { scope: 'workspace settings', value: { local: { host: 'ws-host', token: '{{$shared prodToken}}', apiKey: 'k-123456', bearer: JWT, debug: true } } },
      { scope: 'folder settings', value: undefined },
    ]);
    assert.deepEqual(plan.scopes, ['user settings', 'workspace settings']);
    assert.deepEqual(plan.environments, {
      $shared: { version: 'v1' },
      local: { host: 'ws-host', port: 1, debug: true },
    });
    // A $shared secret read by another name is a secret under that name too (never `{{prodToken}}` sent as it is).
    assert.deepEqual(plan.secrets.map((s) => `${s.environment}.${s.name}`), ['$shared.prodToken', 'local.token', 'local.apiKey', 'local.bearer']);
    assert.equal(plan.secrets.find((s) => s.name === 'token')?.value, 'user-token-123');
    // What is written loads: the env-file check finds no secret in it.
    const file = parseEnvFile(JSON.stringify(plan.environments), 'http-client.env.json');
    assert.equal(file.environments['local']?.variables['host'], 'ws-host');
  });

  void it('puts $shared values in place; a value that still refers to something is left out, by name', () => {
    const plan = restClientEnvironments([
      { scope: 'user settings', value: { $shared: { host: 'http://127.0.0.1:1', port: 8080 }, dev: { base: '{{$shared host}}/api', where: '{{$shared host}}:{{$shared port}}', tok: '{{$processEnv TOK}}', gone: '{{$shared nope}}' } } },
    ]);
    assert.deepEqual(plan.environments['dev'], { base: 'http://127.0.0.1:1/api', where: 'http://127.0.0.1:1:8080' });
    assert.deepEqual(plan.skipped, [
      'dev.tok: refers to {{$processEnv TOK}}, which a value of the env file cannot (write it in the request instead)',
      'dev.gone: refers to $shared nope, which is not defined',
    ]);
  });

  void it('leaves out what is not an object of variables or a value, by name', () => {
    const plan = restClientEnvironments([
      { scope: 'user settings', value: ['not', 'an', 'object'] },
      { scope: 'workspace settings', value: { broken: 'x', ok: { list: [1, 2], fine: 'y' } } },
    ]);
    assert.deepEqual(plan.environments, { ok: { fine: 'y' } });
    assert.deepEqual(plan.skipped, ['user settings: not an object of environments', 'broken (workspace settings): not an object of variables', 'ok.list: not a text, number or true/false']);
  });
});
