// `apiwb run` end to end: a child process (the real CLI entry, bundled) against an in-process sandbox, with
// secrets only in APIWB_SECRET_* variables. Asserts exit codes, the summary lines, the single token
// request per run, and that no secret ever reaches stdout or stderr.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { assertNoSecret as assertNoSecretIn, runCli, type CliResult } from './cliProcess';
import { buildCli, COLLECTION, openSandboxWorkspace, tokenRequests, type SandboxWorkspace } from './sandboxEnv';

/** The CLI bundled once (see buildCli); the child runs exactly what `apiwb` ships. */
let cli = '';

const apiwb = (args: readonly string[], env: Record<string, string> = {}): Promise<CliResult> => runCli(cli, args, env);
const assertNoSecret = (ws: SandboxWorkspace, result: CliResult): void => assertNoSecretIn(ws.secretValues, result);

void describe('apiwb run against the sandbox', () => {
  let ws: SandboxWorkspace;
  before(async () => {
    ws = await openSandboxWorkspace();
    cli = await buildCli(ws.dir);
  });
  after(async () => { await ws.close(); });

  void it('signs in from env vars, calls the Basic fundraising and the bearer engagement endpoints, exits 0', async () => {
    await fetch(`${ws.descriptor.engagement.baseUrl}/__sandbox/requests`, { method: 'DELETE' });
    const result = await apiwb(['run', join(COLLECTION, 'engagement.http'), join(COLLECTION, 'fundraising.http'), '--env', 'sandbox', '--env-file', ws.envFile], ws.secrets);
    assert.equal(result.code, 0, `exit ${result.code}; stderr: ${result.stderr}`);
    const lines = result.stdout.trim().split('\n');
    assert.match(lines[0] ?? '', /^✓ addChoiceQuestion {2}POST http:\/\/127\.0\.0\.1:\d+\/api\/SurveyApi\/AddChoiceQuestion {2}200 {2}\d+ ms/);
    assert.match(lines[1] ?? '', /^✓ ordersByCustomer {2}GET .*GetOrdersByCustomer\?ctcID=\d+&pageNumber=1&pageSize=50 {2}200 {2}\d+ ms \(server \d+ ms\) {2}50 rows$/);
    assert.match(lines[2] ?? '', /^✓ listConstituents {2}GET .*\/v1\/constituents\?limit=50 {2}200 {2}\d+ ms \(server \d+ ms\) {2}50 rows$/);
    assert.match(lines[3] ?? '', /^3 requests, 0 failed, 100 rows/);
    assert.equal((await tokenRequests(ws.descriptor)).length, 1, 'one sign-in for two engagement requests');
    assertNoSecret(ws, result);
  });

  void it('a wrong password: exit 1, the invalid_grant in words, exactly one token request, no secret printed', async () => {
    await fetch(`${ws.descriptor.engagement.baseUrl}/__sandbox/requests`, { method: 'DELETE' });
    const wrong = 'Wr0ng-Pa55word-For-Test';
    const result = await apiwb(['run', join(COLLECTION, 'engagement.http'), '--env', 'sandbox', '--env-file', ws.envFile],
      { ...ws.secrets, APIWB_SECRET_ENGAGEMENT_PASSWORD: wrong });
    assert.equal(result.code, 1);
    assert.ok(result.stdout.includes('engagement sign-in failed: invalid_grant — The user name or password is incorrect.'), 'the clear message');
    assert.equal(result.stdout.split('\n').filter((l) => l.startsWith('✗')).length, 2, 'both engagement requests fail');
    assert.equal((await tokenRequests(ws.descriptor)).length, 1, 'the refused password is sent once, never retried');
    assert.ok(!(result.stdout + result.stderr).includes(wrong), 'the wrong password is not printed either');
    assert.doesNotMatch(result.stderr, /\bat .*\.ts:\d+/, 'no stack trace');
    assertNoSecret(ws, result);
  });

  void it('a wrong service key: exit 1 with the 401 explained', async () => {
    const result = await apiwb(['run', join(COLLECTION, 'fundraising.http'), '--env', 'sandbox', '--env-file', ws.envFile],
      { ...ws.secrets, APIWB_SECRET_FUNDRAISING_SERVICE_KEY: 'sk_not_the_right_key' });
    assert.equal(result.code, 1);
    assert.match(result.stdout, /✗ listConstituents .* 401 .*a header is missing or the credentials are invalid/);
    assert.ok(!result.stdout.includes('sk_not_the_right_key'));
    assertNoSecret(ws, result);
  });

  void it('a missing secret names the variable to set', async () => {
    const result = await apiwb(['run', join(COLLECTION, 'fundraising.http'), '--env', 'sandbox', '--env-file', ws.envFile], {});
    assert.equal(result.code, 1);
    assert.match(result.stdout, /fundraising needs a service key: set the environment variable APIWB_SECRET_FUNDRAISING_SERVICE_KEY/);
  });

  void it('--name runs one request; --out writes its rows as NDJSON and CSV', async () => {
    for (const format of ['ndjson', 'csv'] as const) {
      const out = join(ws.dir, `constituents.${format}`);
      const result = await apiwb(['run', COLLECTION, '--env', 'sandbox', '--env-file', ws.envFile, '--name', 'listConstituents', '--out', out, '--format', format], ws.secrets);
      assert.equal(result.code, 0, result.stderr);
      assert.equal(result.stdout.split('\n').filter((l) => l.startsWith('✓')).length, 1);
      const lines = readFileSync(out, 'utf8').trim().split('\n');
      assert.equal(lines.length, format === 'csv' ? 51 : 50);
      if (format === 'ndjson') assert.equal(typeof (JSON.parse(lines[0] ?? '') as Record<string, unknown>), 'object');
    }
  });

  void it('--all-pages follows the pages with the paging engine and writes every row', async () => {
    const out = join(ws.dir, 'orders.ndjson');
    const result = await apiwb(['run', join(COLLECTION, 'engagement.http'), '--env', 'sandbox', '--env-file', ws.envFile, '--name', 'ordersByCustomer', '--all-pages', '--out', out], ws.secrets);
    assert.equal(result.code, 0, result.stdout + result.stderr);
    const orders = ws.descriptor.samples.ordersOfCtcID;
    assert.match(result.stdout, new RegExp(`✓ ordersByCustomer .* 200 {2}\\d+ ms {2}${orders} rows {2}${Math.ceil(orders / 50)} pages`));
    assert.equal(readFileSync(out, 'utf8').trim().split('\n').length, orders);
  });

  void it('a business failure inside a 200 and an HTTP 400 each exit 1, with the catalogue meaning', async () => {
    const failing = join(ws.dir, 'failing.http');
    writeFileSync(failing, [
      '### missing mandatory fields (the sandbox asks for them only under its required-fields choice)',
      '# @name incompleteQuestion',
      'POST {{engagement_base_url}}/api/SurveyApi/AddLabelQuestion',
      'Authorization: Bearer {{$auth.token("engagement")}}',
      'Content-Type: application/json',
      'X-Sandbox-Choice: required-fields',
      '',
      '{ "OpCode": 1, "QuestionLabel": "Hi" }',
      '',
      '### page size below 1',
      '# @name badPageSize',
      'GET {{engagement_base_url}}/api/Transaction/GetOrdersByCustomer?ctcID={{ctc_id}}&pageSize=0',
      'Authorization: Bearer {{$auth.token("engagement")}}',
      '',
    ].join('\n'));
    const result = await apiwb(['run', failing, '--env', 'sandbox', '--env-file', ws.envFile], ws.secrets);
    assert.equal(result.code, 1);
    assert.match(result.stdout, /✗ incompleteQuestion .* 200 .*business failure: code 1 .*\(SurveyApi: Missing mandatory fields\)/);
    assert.match(result.stdout, /✗ badPageSize .* 400 /);
    assert.match(result.stdout, /2 requests, 2 failed/);
    assertNoSecret(ws, result);
  });

  void it('usage and input errors exit 2, a request\'s own problem 1, each naming the file and line', async () => {
    const missingEnv = await apiwb(['run', join(COLLECTION, 'fundraising.http')]);
    assert.equal(missingEnv.code, 2);
    assert.match(missingEnv.stderr, /--env NAME is required/);

    const unknownEnv = await apiwb(['run', join(COLLECTION, 'fundraising.http'), '--env', 'production', '--env-file', ws.envFile]);
    assert.equal(unknownEnv.code, 2);
    assert.match(unknownEnv.stderr, /http-client\.env\.json: environment 'production': no environment named 'production' \(environments in this file: 'sandbox'\)/);

    const bad = join(ws.dir, 'bad.http');
    writeFileSync(bad, '### ok\nGET {{fundraising_base_url}}/v1/constituents\n\n### typo\nGET {{fundraising_base_ulr}}/v1/constituents\n');
    const undefinedVariable = await apiwb(['run', bad, '--env', 'sandbox', '--env-file', ws.envFile], ws.secrets);
    // That request's problem: it is not run, named by file and line; the request beside it runs; exit 1.
    assert.equal(undefinedVariable.code, 1, undefinedVariable.stderr);
    assert.match(undefinedVariable.stdout, /not run \(API Workbench\) at \S*bad\.http:5: \{\{fundraising_base_ulr\}\}: The variable 'fundraising_base_ulr' is not defined/);
    assert.match(undefinedVariable.stdout, /^✗ ok {2}GET http:\/\/127\.0\.0\.1:\d+\/v1\/constituents {2}401/m, 'the request without the typo was sent (no credentials: 401)');

    const include = join(ws.dir, 'include.http');
    writeFileSync(include, '### from a file\nPOST {{fundraising_base_url}}/v1/constituents\nContent-Type: application/json\n\n< ./missing.json\n');
    const missingInclude = await apiwb(['run', include, '--env', 'sandbox', '--env-file', ws.envFile], ws.secrets);
    assert.equal(missingInclude.code, 1, missingInclude.stderr);
    assert.match(missingInclude.stdout, /not run \(API Workbench\) at \S*include\.http:2: < \.\/missing\.json: no such file next to /);
    assert.doesNotMatch(missingInclude.stdout, /^✓/m, 'nothing else to send');

    const badDirective = join(ws.dir, 'directive.http');
    writeFileSync(badDirective, '### walk\n# @paging sideways\nGET {{booking_base_url}}/bookings\n');
    const unreadableDirective = await apiwb(['run', badDirective, '--env', 'sandbox', '--env-file', ws.envFile, '--all-pages'], ws.secrets);
    assert.equal(unreadableDirective.code, 1, unreadableDirective.stderr);
    assert.match(unreadableDirective.stdout, /not run \(API Workbench\) at \S*directive\.http:3: # @paging: /);

    const badEnv = join(ws.dir, 'broken.env.json');
    writeFileSync(badEnv, '{\n  "sandbox": {\n    "a": "b",,\n  }\n}\n');
    const brokenEnv = await apiwb(['run', join(COLLECTION, 'fundraising.http'), '--env', 'sandbox', '--env-file', badEnv]);
    assert.equal(brokenEnv.code, 2);
    assert.match(brokenEnv.stderr, /broken\.env\.json:3:\d+: not valid JSON/);

    const unknownOption = await apiwb(['run', COLLECTION, '--env', 'sandbox', '--colour']);
    assert.equal(unknownOption.code, 2);
    assert.match(unknownOption.stderr, /Unknown option '--colour'/);
  });

  void it('--help lists the options and the APIWB_SECRET_* variables', async () => {
    const result = await apiwb(['run', '--help']);
    assert.equal(result.code, 0);
    for (const text of ['--env NAME', '--env-file PATH', '--name REQUEST', '--all-pages', '--out FILE', '--format', '--max-pages', '--timeout MS', '--insecure', 'APIWB_SECRET_<AUTH ID>_<FIELD>', 'APIWB_SECRET_ENGAGEMENT_PASSWORD']) {
      assert.ok(result.stdout.includes(text), `help mentions ${text}`);
    }
  });
});
