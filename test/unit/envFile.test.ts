// http-client.env.json loading: the JetBrains convention, our ApiWorkbench auth types, and every error
// naming the file, the environment, the key and (where the text tells) the line and column.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EnvironmentSession, parseEnvFile, selectEnvironment, type Environment } from '../../src/core/env/index';
import { EnvFileError } from '../../src/core/env/model';
import { assertNoPlaceholders, isPlaceholder } from '../../src/core/env/placeholders';
import { sandboxEnvironmentName, sandboxSecretValues, withSandboxEnvironment } from '../../src/sandbox/envFile';
import { startSandbox } from '../../src/sandbox/index';

const FILE = 'collections/http-client.env.json';

function envError(text: string): EnvFileError {
  try {
    parseEnvFile(text, FILE);
  } catch (error) {
    assert.ok(error instanceof EnvFileError, `expected EnvFileError, got ${String(error)}`);
    return error;
  }
  assert.fail('expected the env file to be rejected');
}

const VALID = JSON.stringify({
  $shared: { api_version: 'v1', username: 'shared-user' },
  sandbox: {
    engagement_auth_url: 'http://127.0.0.1:4000/auth',
    permission_name: 'apiwb-integration',
    tenant_code: 'TENANT-1',
    username: 'demo@sandbox.test',
    page_size: 50,
    Security: { Auth: {
      engagement: { Type: 'OAuth2', 'Grant Type': 'Password', 'Token URL': '{{engagement_auth_url}}/token', Username: '{{username}}' },
      other: { Type: 'OAuth2', 'Grant Type': 'Client Credentials', 'Client ID': 'abc' },
    } },
    ApiWorkbench: { Auth: {
      fundraising: { Type: 'Basic+X-API-Key', 'Permission Name': '{{permission_name}}', 'Tenant Code': '{{tenant_code}}' },
      'fundraising-user': { Type: 'JWT Bearer' },
    } },
  },
  staging: { engagement_auth_url: 'https://staging.example.test/auth' },
}, null, 2);

void describe('env file loading', () => {
  void it('reads variables ($shared underneath), JetBrains OAuth2 Password entries and our Basic+X-API-Key and JWT entries', () => {
    const file = parseEnvFile(VALID, FILE);
    assert.deepEqual(file.names, ['sandbox', 'staging']);
    const env = selectEnvironment(file, 'sandbox');
    assert.equal(env.variables.api_version, 'v1');
    assert.equal(env.variables.username, 'demo@sandbox.test', 'an environment overrides $shared');
    assert.equal(env.variables.page_size, '50');
    assert.equal(env.variables.Security, undefined, 'auth sections are not variables');
    assert.deepEqual(env.auth.engagement, {
      id: 'engagement', kind: 'password-grant', section: 'Security.Auth',
      tokenUrl: 'http://127.0.0.1:4000/auth/token', username: 'demo@sandbox.test',
    });
    assert.deepEqual(env.auth.fundraising, {
      id: 'fundraising', kind: 'basic-api-key', section: 'ApiWorkbench.Auth', permissionName: 'apiwb-integration', tenantCode: 'TENANT-1',
    });
    assert.equal(env.auth['fundraising-user']?.kind, 'jwt-bearer');
    assert.equal(env.auth.other?.kind, 'unsupported');
    assert.match(env.auth.other?.unsupportedReason ?? '', /Client Credentials.*Password grant/);
  });

  void it("the sandbox's env file (apiwb sandbox --write-env-file) loads, with the samples' auth entries, no secret, no placeholder, other environments kept", async () => {
    const sandbox = await startSandbox();
    try {
      const d = sandbox.descriptor;
      const before = JSON.stringify({ staging: { base_url: 'https://staging.example' }, sandbox: { mine: 'kept', booking_base_url: 'old' } });
      const text = withSandboxEnvironment(before, d);
      const file = parseEnvFile(text, 'http-client.env.json');
      const env = selectEnvironment(file, 'sandbox');
      assert.deepEqual(Object.keys(env.auth).sort(), ['engagement', 'fundraising', 'fundraising-user']);
      assert.equal(env.variables.booking_base_url, d.booking.baseUrl);
      assert.equal(env.variables.mine, 'kept');
      assert.equal(selectEnvironment(file, 'staging').variables.base_url, 'https://staging.example');
      assert.doesNotThrow(() => assertNoPlaceholders(env, 'http-client.env.json'));
      for (const secret of sandboxSecretValues(d)) assert.ok(!text.includes(secret), 'no secret of the sandbox in the file');
      assert.throws(() => withSandboxEnvironment('[1]', d), /does not hold a JSON object/);
      // The next release's sandbox writes "sandbox-next" beside "sandbox" (npm start runs both), keeping it.
      const both = parseEnvFile(withSandboxEnvironment(text, d, sandboxEnvironmentName('next')), 'http-client.env.json');
      assert.deepEqual([sandboxEnvironmentName(undefined), sandboxEnvironmentName('next')], ['sandbox', 'sandbox-next']);
      assert.equal(selectEnvironment(both, 'sandbox-next').variables.booking_base_url, d.booking.baseUrl);
      assert.equal(selectEnvironment(both, 'sandbox').variables.mine, 'kept');
    } finally {
      await sandbox.close();
    }
  });

  void it('a placeholder value (<...>) is an error naming the variable; angle brackets inside a value are not', () => {
    const env = selectEnvironment(parseEnvFile(JSON.stringify({ dev: { a: 'x <y> z', tenant_code: ' <your tenant code> ' } }), 'f.json'), 'dev');
    assert.throws(() => assertNoPlaceholders(env, 'f.json'), /^EnvFileError: f\.json: environment 'dev', key 'tenant_code': tenant_code is a placeholder/);
    assert.equal(isPlaceholder('x <y> z'), false);
    assert.equal(isPlaceholder('<>'), true);
  });

  void it('bad JSON names the file, line and column', () => {
    const error = envError('{\n  "sandbox": {\n    "base_url": "http://x"\n    "other": 1\n  }\n}\n');
    assert.equal(error.where.line, 4);
    assert.equal(error.where.column, 5);
    assert.match(error.message, /^collections\/http-client\.env\.json:4:5: not valid JSON \(CommaExpected\)$/);
  });

  void it('an empty file and a non-object file are explained', () => {
    assert.match(envError('').message, /not valid JSON/);
    assert.match(envError('[1, 2]').message, /must be a JSON object of environments/);
    assert.match(envError('{ "sandbox": 3 }').message, /environment 'sandbox'.*each environment must be an object/);
  });

  void it('a password in an auth entry is rejected, saying where secrets belong', () => {
    const text = JSON.stringify({ sandbox: { Security: { Auth: { engagement: {
      Type: 'OAuth2', 'Grant Type': 'Password', 'Token URL': 'http://x/token', Username: 'demo', Password: 'Sandbox-Demo-1',
    } } } } }, null, 2);
    const error = envError(text);
    assert.equal(error.where.env, 'sandbox');
    assert.equal(error.where.key, 'Security.Auth.engagement.Password');
    assert.equal(error.where.line, 10);
    assert.match(error.message, /holds a secret value.*credential store.*APIWB_SECRET_ENGAGEMENT_PASSWORD/);
    assert.ok(!error.message.includes('Sandbox-Demo-1'), 'the message never repeats the secret');
  });

  void it('secret-named variables, service keys and JWT-shaped values are rejected; {{references}} are not', () => {
    assert.match(envError('{ "dev": { "service_key": "sk_123456" } }').message, /key 'service_key': holds a secret value/);
    assert.match(envError('{ "dev": { "access_token": "abc.def" } }').message, /key 'access_token'/);
    assert.match(envError('{ "dev": { "ApiWorkbench": { "Auth": { "f": { "Type": "Basic+X-API-Key", "Permission Name": "p", "Tenant Code": "t", "Service Key": "sk_1" } } } } }').message,
      /APIWB_SECRET_F_SERVICE_KEY/);
    assert.match(envError('{ "dev": { "note": "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.abc" } }').message, /key 'note': holds a secret/);
    const ok = parseEnvFile('{ "dev": { "password": "{{from_private_file}}", "Token URL": "x", "token_lifetime": "72" } }', FILE);
    assert.equal(ok.environments.dev?.variables.password, '{{from_private_file}}');
  });

  void it('an incomplete or unknown auth entry names the key', () => {
    const missingUrl = envError(JSON.stringify({ dev: { Security: { Auth: { e: { Type: 'OAuth2', 'Grant Type': 'Password', Username: 'u' } } } } }));
    assert.match(missingUrl.message, /environment 'dev', key 'Security\.Auth\.e\.Token URL': "Token URL" is required/);
    const wrongType = envError(JSON.stringify({ dev: { Security: { Auth: { f: { Type: 'Basic' } } } } }));
    assert.match(wrongType.message, /Security\.Auth\.f\.Type.*JetBrains only knows that type/);
    const ours = envError(JSON.stringify({ dev: { ApiWorkbench: { Auth: { f: { Type: 'Digest' } } } } }));
    assert.match(ours.message, /ApiWorkbench\.Auth\.f.*"Basic\+X-API-Key" or "JWT Bearer"/);
  });

  void it('an unknown environment lists the known ones; the session switches and reloads', () => {
    const file = parseEnvFile(VALID, FILE);
    assert.throws(() => selectEnvironment(file, 'prod'), /environment 'prod': no environment named 'prod' \(environments in this file: 'sandbox', 'staging'\)/);
    const session = new EnvironmentSession(file);
    const seen: (string | undefined)[] = [];
    session.onDidChange((env) => seen.push(env?.name));
    // A function, so TypeScript does not keep the narrowing of one read across the switches.
    const active = (): Environment | undefined => session.active;
    assert.equal(active(), undefined);
    session.use('staging');
    assert.equal(active()?.variables.engagement_auth_url, 'https://staging.example.test/auth');
    assert.throws(() => session.use('prod'), EnvFileError);
    assert.equal(active()?.name, 'staging', 'a failed switch keeps the active environment');
    session.reload(parseEnvFile('{ "sandbox": {} }', FILE));
    assert.equal(active(), undefined, 'the active environment vanished from the file');
    assert.deepEqual(seen, ['staging', undefined]);
  });
});
