// Copy as curl: the command is run by a real POSIX shell (bash) whose `curl` is a function printing its
// arguments, so quoting is checked byte for byte (quotes, newlines in JSON, unicode, $ and backticks);
// then real curl sends a copied .http request to the sandbox. Secrets are hidden unless asked for.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { parseHttpFile, resolveRequest } from '../../src/core/httpfile';
import { curlForHttpRequest } from '../../src/core/interop';
import { toCurl } from '../../src/core/interop/curl';
import { shellQuote } from '../../src/core/interop/shellQuote';
import { startSandbox, type RunningSandbox } from '../../src/sandbox';

const run = promisify(execFile);
const SECRET = 'eyJhbGciOiJIUzI1NiJ9.c2VjcmV0LXBheWxvYWQ.s1gn4ture';
const KEY = 'TENANT-SECRET-42';

/** The arguments bash passes to curl for `command`, with `env` exported. */
async function argsOf(command: string, env: Record<string, string> = {}): Promise<string[]> {
  const script = `curl() { printf '%s\\0' "$@"; }\n${command}\n`;
  const { stdout } = await run('bash', ['-c', script], { env: { PATH: process.env.PATH ?? '', ...env } });
  return stdout.split('\0').slice(0, -1);
}

void describe('curl quoting', () => {
  void it('keeps quotes, newlines in a JSON body, unicode, $, backticks and backslashes literal', async () => {
    const body = `{\n  "name": "O'Brien \\"the\\" 𝄞 café 日本",\n  "note": "$HOME \`id\` !x \\\\ done"\n}`;
    const { command, variables, hiddenHeaders } = toCurl({
      method: 'POST', url: 'https://api.example.test/v1/x?q=a b&c=d\'e', headers: { 'Content-Type': 'application/json', 'X-Note': "it's" }, body,
    });
    assert.deepEqual(variables, []);
    assert.deepEqual(hiddenHeaders, []);
    assert.deepEqual(await argsOf(command), [
      'https://api.example.test/v1/x?q=a b&c=d\'e', '-H', 'Content-Type: application/json', '-H', "X-Note: it's", '--data-raw', body,
    ]);
    assert.ok(command.includes(' \\\n  -H '), 'one argument a line');
    assert.equal(toCurl({ method: 'POST', url: 'https://a.test/', headers: {}, body }, { multiline: false }).command.includes('\\\n'), false);
  });

  void it('methods: GET plain, HEAD with --head, PUT and GET-with-body with -X, POST implied, include body as @file', async () => {
    assert.equal(toCurl({ method: 'GET', url: 'https://a.test/x', headers: {} }).command, 'curl https://a.test/x');
    assert.equal(toCurl({ method: 'head', url: 'https://a.test/x', headers: {} }).command, 'curl --head https://a.test/x');
    assert.deepEqual(await argsOf(toCurl({ method: 'PUT', url: 'https://a.test/x', headers: {}, body: '{}' }).command), ['-X', 'PUT', 'https://a.test/x', '--data-raw', '{}']);
    assert.deepEqual(await argsOf(toCurl({ method: 'GET', url: 'https://a.test/x', headers: {}, body: 'q' }).command), ['-X', 'GET', 'https://a.test/x', '--data-raw', 'q']);
    assert.deepEqual(await argsOf(toCurl({ method: 'POST', url: 'https://a.test/x', headers: {}, bodyInclude: { path: './my body.json' } }).command),
      ['https://a.test/x', '--data-binary', '@./my body.json']);
    assert.equal(shellQuote(''), "''");
    assert.equal(shellQuote("'"), `''\\'''`);
  });
});

void describe('curl without secrets by default', () => {
  const request = {
    method: 'POST',
    url: `https://api.example.test/token?api_key=${KEY}&page=2`,
    headers: { Authorization: `Bearer ${SECRET}`, 'X-API-Key': KEY, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: `grant_type=password&username=demo&password=${encodeURIComponent('p@ss w0rd!')}`,
  };

  void it('turns Authorization and X-API-Key values into shell variables, scheme kept', async () => {
    const { command, variables, hiddenHeaders } = toCurl(request, { knownSecrets: [KEY] });
    for (const secret of [SECRET, KEY, 'p@ss', 'p%40ss']) assert.equal(command.includes(secret), false, secret);
    assert.deepEqual(variables, ['APIWB_AUTHORIZATION', 'APIWB_X_API_KEY']);
    assert.deepEqual(hiddenHeaders, ['Authorization', 'X-API-Key']);
    const args = await argsOf(command, { APIWB_AUTHORIZATION: 'tok', APIWB_X_API_KEY: 'tenant' });
    assert.deepEqual(args, [
      'https://api.example.test/token?api_key=***&page=2', '-H', 'Authorization: Bearer tok', '-H', 'X-API-Key: tenant',
      '-H', 'Content-Type: application/x-www-form-urlencoded', '--data-raw', 'grant_type=password&username=demo&password=***',
    ]);
  });

  void it("style 'redacted' writes ***; includeSecrets writes everything as it is", () => {
    const redacted = toCurl(request, { secretStyle: 'redacted' }).command;
    assert.match(redacted, /'Authorization: Bearer \*\*\*'/);
    assert.match(redacted, /'X-API-Key: \*\*\*'/);
    assert.equal(redacted.includes(SECRET), false);
    const open = toCurl(request, { includeSecrets: true, knownSecrets: [KEY] }).command;
    assert.ok(open.includes(SECRET) && open.includes(KEY) && open.includes('p%40ss'));
  });

  void it('hides secret fields of a JSON body and Basic credentials in a Cookie-free request', () => {
    const { command } = toCurl({ method: 'POST', url: 'https://a.test/', headers: { Authorization: 'Basic dXNlcjpzZWNyZXQ=' }, body: '{"username":"u","password":"hunter22"}' });
    assert.equal(command.includes('hunter22') || command.includes('dXNlcjpzZWNyZXQ='), false);
    assert.ok(command.includes('"password":"***"'));
  });
});

void describe('curl from a .http request, sent by real curl to the sandbox', () => {
  let sandbox: RunningSandbox;
  before(async () => { sandbox = await startSandbox({ constituents: 20 }); });
  after(async () => { await sandbox.close(); });

  const file = parseHttpFile([
    '### Create a constituent',
    'POST {{fundraising_base_url}}/v1/constituents',
    'Authorization: Basic {{$auth.token("fundraising")}}',
    'X-API-Key: {{tenant_code}}',
    'Content-Type: application/json',
    '',
    '{ "type": "individual", "firstName": "Zoë \'Q\'", "lastName": "Ñúñez 日本", "email": "z@example.test" }',
    '',
  ].join('\n'));

  void it("keeps {{variables}} as shell variables, the $auth one under the CLI's name; its comment line makes it", async () => {
    const resolved = resolveRequest(file, 0, {});
    assert.ok(resolved);
    const f = sandbox.descriptor.credentials.fundraising;
    const authEntries = { fundraising: { id: 'fundraising', kind: 'basic-api-key' as const, section: 'ApiWorkbench.Auth' as const, permissionName: f.fullAccess.permissionName, tenantCode: f.tenantCode } };
    const { command, variables, hiddenHeaders } = toCurl(resolved, { authEntries });
    assert.deepEqual([...variables].sort(), ['APIWB_SECRET_FUNDRAISING_TOKEN', 'fundraising_base_url', 'tenant_code']);
    assert.deepEqual(hiddenHeaders, [], '{{references}} carry no secret: nothing to hide');
    const [comment = '', ...rest] = command.split('\n');
    assert.match(comment, /^# APIWB_SECRET_FUNDRAISING_TOKEN: base64 of apiwb-integration:<service key>, e\.g\. export /);
    // The comment's own export, from the CLI's service-key variable, makes the header apiwb run would send.
    const exportLine = comment.slice(comment.indexOf('export '));
    const env = {
      fundraising_base_url: sandbox.descriptor.fundraising.baseUrl,
      tenant_code: f.tenantCode,
      APIWB_SECRET_FUNDRAISING_SERVICE_KEY: f.fullAccess.serviceKey,
    };
    const curl = rest.join('\n').replace(/^curl /, 'curl --silent --show-error --write-out "\\n%{http_code}" ');
    const { stdout } = await run('bash', ['-c', `${exportLine}\n${curl}`], { env: { PATH: process.env.PATH ?? '', ...env } });
    const [bodyText = '', status] = [stdout.slice(0, stdout.lastIndexOf('\n')), stdout.slice(stdout.lastIndexOf('\n') + 1)];
    assert.equal(status, '201', bodyText);
    const created = JSON.parse(bodyText) as { firstName: string; lastName: string };
    assert.equal(created.firstName, "Zoë 'Q'");
    assert.equal(created.lastName, 'Ñúñez 日本');
  });

  void it('curlForHttpRequest substitutes what the environment resolves; an env-file value stays in a credential header, any other literal is hidden', async () => {
    const environment = { fundraising_base_url: 'http://127.0.0.1:9', tenant_code: 'T-1' };
    const copied = curlForHttpRequest(file, 0, { environment }, { nonSecretValues: Object.values(environment) });
    assert.ok(copied);
    assert.deepEqual(copied.variables, ['APIWB_SECRET_FUNDRAISING_TOKEN'], 'the tenant code comes from the env file: not a secret, kept');
    assert.match(copied.command, /^# APIWB_SECRET_FUNDRAISING_TOKEN: the value of \{\{\$auth\.token\("fundraising"\)\}\}\n/);
    const args = await argsOf(copied.command, { APIWB_SECRET_FUNDRAISING_TOKEN: 'b64' });
    assert.deepEqual(args.slice(0, 5), ['http://127.0.0.1:9/v1/constituents', '-H', 'Authorization: Basic b64', '-H', 'X-API-Key: T-1']);
    const unknown = curlForHttpRequest(file, 0, { environment });
    assert.ok(unknown);
    assert.deepEqual(unknown.variables, ['APIWB_SECRET_FUNDRAISING_TOKEN', 'APIWB_X_API_KEY'], 'a literal not known to be an env value is hidden');
    assert.equal(unknown.command.includes('T-1'), false);
    assert.equal(curlForHttpRequest(file, 5), undefined);
  });
});
