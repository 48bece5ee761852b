// Planning the move of a JetBrains http-client.private.env.json into the secret store (issue 13): values of
// auth entries go to <env>/<authId>.<field>; a plain variable goes where the shared env file's auth entry
// refers to it as {{variable}}; anything else is left behind with a reason, never guessed.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { planPrivateEnvImport } from '../../src/core/env/privateEnv';

const shared = JSON.stringify({
  sandbox: { Security: { Auth: { engagement: { Type: 'OAuth2', 'Grant Type': 'Password', 'Token URL': 'x', Username: 'u', Password: '{{engagement_password}}' } } } },
  $shared: { ApiWorkbench: { Auth: { fundraising: { Type: 'Basic+X-API-Key', 'Service Key': '{{ service_key }}' } } } },
});

void describe('JetBrains private env import plan', () => {
  void it('auth-entry values and referenced variables move, per environment and auth id', () => {
    const plan = planPrivateEnvImport(JSON.stringify({
      sandbox: {
        engagement_password: 'pw-1',
        service_key: 'sk-1',
        ApiWorkbench: { Auth: { 'fundraising-user': { Token: 'eyJ.a.b' } } },
      },
      production: { Security: { Auth: { engagement: { Password: 'pw-2' } } } },
    }), shared);
    assert.deepEqual(plan.moves.map((m) => [m.environment, m.key, m.from, m.value]), [
      ['sandbox', 'engagement.password', 'sandbox.engagement_password', 'pw-1'],
      ['sandbox', 'fundraising.service_key', 'sandbox.service_key', 'sk-1'],
      ['sandbox', 'fundraising-user.token', 'sandbox.ApiWorkbench.Auth.fundraising-user.Token', 'eyJ.a.b'],
      ['production', 'engagement.password', 'production.Security.Auth.engagement.Password', 'pw-2'],
    ]);
    assert.deepEqual(plan.leftBehind, []);
  });

  void it('an unreferenced variable, a non-secret field, a non-text value and a non-object environment are left behind with reasons', () => {
    const plan = planPrivateEnvImport(JSON.stringify({
      sandbox: {
        mystery: 'x',
        engagement_password: 42,
        Security: { Auth: { engagement: { Password: 'a', Username: 'u' } } },
      },
      staging: 'nonsense',
    }), shared);
    assert.deepEqual(plan.moves.map((m) => m.from), ['sandbox.Security.Auth.engagement.Password']);
    const reasons = plan.leftBehind.map((l) => `${l.from}: ${l.reason}`);
    assert.equal(reasons.length, 4, reasons.join('\n'));
    assert.ok(reasons.some((r) => r.startsWith('sandbox.mystery: no auth entry')));
    assert.ok(reasons.some((r) => r.startsWith('sandbox.engagement_password: not a text value')));
    assert.ok(reasons.some((r) => r.startsWith('sandbox.Security.Auth.engagement.Username: not a secret field')));
    assert.ok(reasons.some((r) => r.startsWith('staging: not an object')));
  });

  void it('a file that is not JSON is refused by name, line and column', () => {
    assert.throws(() => planPrivateEnvImport('{ nope'), /^EnvFileError: http-client\.private\.env\.json:1:3: not valid JSON/);
    assert.throws(() => planPrivateEnvImport('[1]'), /http-client\.private\.env\.json:1:1: not a JSON object of environments/);
  });
});
