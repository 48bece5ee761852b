// The shared preparation `apiwb run` and the extension both use (src/core/run), without a network: the
// up-front check that touches no credential, $auth values fetched through the credential service,
// directive values with variables, `< file` bodies through the port, and every fault returned in words.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CredentialService } from '../../src/core/auth/credentials';
import { parseEnvFile } from '../../src/core/env/loadEnvFile';
import { selectEnvironment } from '../../src/core/env/session';
import { parseHttpFile } from '../../src/core/httpfile/parser';
import { dynamicVariables } from '../../src/core/run/dynamicVariables';
import { pagingPlanFor } from '../../src/core/run/pagingPlan';
import { authReferencesOf, authSchemeOf, checkRequest, prepareRequest, requestTexts, type PrepareContext } from '../../src/core/run/prepareRequest';
import { findAuthReferences } from '../../src/core/auth/authVariables';
import { headerValue } from '../../src/core/http/types';
import type { ResolvedText } from '../../src/core/httpfile/resolve';
import { createCatalog } from '../../src/core/catalog/index';
import { MemorySecretStore } from '../../src/core/secrets/secretStore';

const ENV = selectEnvironment(parseEnvFile(JSON.stringify({
  dev: {
    base: 'http://127.0.0.1:9', tenant: 'T-1', rows: '1000',
    ApiWorkbench: { Auth: { fund: { Type: 'Basic+X-API-Key', 'Permission Name': 'perm', 'Tenant Code': '{{tenant}}' } } },
  },
}), 'http-client.env.json'), 'dev');

const FILE = parseHttpFile([
  '### export',
  '# @name exportRows',
  '# @paging export-ordinal pageRows={{rows}}',
  'POST {{base}}/api/Selection/GetSelectionResult_Ext',
  'Authorization: Basic {{$auth.token("fund")}}',
  'X-Request-Id: {{$uuid}}',
  '',
  '{ "OFFSET": 1, "TableName": "" }',
  '',
  '### unknown auth',
  'GET {{base}}/v1/constituents',
  'Authorization: Bearer {{$auth.token("nobody")}}',
  '',
  '### typo',
  'GET {{bsae}}/v1/constituents',
  '',
  '### from a file',
  'POST {{base}}/v1/constituents',
  '',
  '< ./body.json',
  '',
  '### file with variables',
  'POST {{base}}/v1/constituents',
  'Authorization: Basic {{$auth.token("fund")}}',
  '',
  '<@ ./template.json',
  '',
  '### earlier response',
  'GET {{base}}/v1/constituents/{{exportRows.response.body.$.id}}',
  '',
].join('\n'));

function context(secrets: Record<string, string>, files: Record<string, string> = {}): PrepareContext & { sent: number } {
  const ctx = {
    sent: 0,
    environment: ENV,
    credentials: new CredentialService(ENV, {
      secrets: new MemorySecretStore(secrets),
      send: () => { ctx.sent++; return Promise.reject(new Error('no network in this test')); },
    }),
    responses: new Map(),
    dynamic: dynamicVariables(),
    readInclude: (path: string) => (path in files ? Promise.resolve(files[path] ?? '') : Promise.reject(new Error('ENOENT: no such file'))),
  };
  return ctx;
}

void describe('core/run: check and prepare a request', () => {
  void it('checks before sending: undeclared $auth ids and undefined variables, named responses left for the run', () => {
    assert.equal(checkRequest(FILE, 0, ENV).ok, true);
    const unknownAuth = checkRequest(FILE, 1, ENV);
    assert.equal(unknownAuth.ok, false);
    assert.match(!unknownAuth.ok ? unknownAuth.problem : '', /\{\{\$auth\.token\("nobody"\)\}\}: environment 'dev' has no auth entry 'nobody' \(it has: fund\)/);
    const typo = checkRequest(FILE, 2, ENV);
    assert.match(!typo.ok ? typo.problem : '', /\{\{bsae\}\}: The variable 'bsae' is not defined in environment 'dev'/);
    assert.equal(checkRequest(FILE, 5, ENV).ok, true, 'a named response is not known before the run');
    assert.equal(checkRequest(FILE, 9, ENV).ok, false);
  });

  void it('resolves # @ directive values, and the paging plan follows them', () => {
    const checked = checkRequest(FILE, 0, ENV);
    assert.ok(checked.ok);
    assert.equal(checked.resolved.directives['paging'], 'export-ordinal pageRows=1000');
    const lookup = pagingPlanFor(checked.resolved, checked.resolved.directives, createCatalog());
    assert.deepEqual(lookup.ok && lookup.plan, { style: 'export-ordinal', options: { pageRows: '1000' }, source: 'directive' });
    const bad = pagingPlanFor(checked.resolved, { paging: 'sideways' }, createCatalog());
    assert.equal(bad.ok, false);
  });

  void it('prepares: $auth from the credential service (its value to redact), dynamic variables, scheme', async () => {
    const ctx = context({ 'fund.service_key': 'sk-secret-1' });
    const prepared = await prepareRequest(FILE, 0, ctx);
    assert.ok(prepared.ok);
    const basic = Buffer.from('perm:sk-secret-1').toString('base64');
    assert.equal(prepared.request.headers['Authorization'], `Basic ${basic}`);
    assert.match(prepared.request.headers['X-Request-Id'] ?? '', /^[0-9a-f-]{36}$/);
    assert.deepEqual(prepared.secretValues, [basic]);
    assert.equal(prepared.scheme, 'basic-api-key');
    assert.equal(ctx.sent, 0);
  });

  void it('returns faults in words: a missing secret, an undeclared id, a missing < file, a missing named response', async () => {
    const missing = await prepareRequest(FILE, 0, context({}));
    assert.deepEqual(missing.ok ? undefined : [missing.kind, missing.authId], ['auth', 'fund']);
    const undeclared = await prepareRequest(FILE, 1, context({}));
    assert.equal(undeclared.ok ? undefined : undeclared.kind, 'unresolved');
    const noFile = await prepareRequest(FILE, 3, context({}));
    assert.match(noFile.ok ? '' : noFile.problem, /^< \.\/body\.json: ENOENT/);
    const withFile = await prepareRequest(FILE, 3, context({}, { './body.json': '{"a":1}' }));
    assert.equal(withFile.ok && withFile.request.body, '{"a":1}');
    const noResponse = await prepareRequest(FILE, 5, context({}));
    assert.equal(noResponse.ok ? undefined : noResponse.kind, 'unresolved');
  });

  void it('<@ file: the file\'s variables and $auth are substituted, and an undefined one is named', async () => {
    const secrets = { 'fund.service_key': 'sk-secret-1' };
    const good = await prepareRequest(FILE, 4, context(secrets, { './template.json': '{"tenant":"{{tenant}}","key":"{{$auth.token(\"fund\")}}"}' }));
    assert.ok(good.ok);
    assert.equal(good.request.body, `{"tenant":"T-1","key":"${Buffer.from('perm:sk-secret-1').toString('base64')}"}`);
    const bad = await prepareRequest(FILE, 4, context(secrets, { './template.json': '{"x":"{{nope}}"}' }));
    assert.match(bad.ok ? '' : bad.problem, /^<@ \.\/template\.json: \{\{nope\}\}: The variable 'nope' is not defined/);
    const undeclared = await prepareRequest(FILE, 4, context(secrets, { './template.json': '{{$auth.token("other")}}' }));
    assert.match(undeclared.ok ? '' : undeclared.problem, /^<@ \.\/template\.json: .*no auth entry 'other'/);
  });

  void it('the auth scheme comes from the $auth entry, else the Authorization header, else the URL', () => {
    const environment = { name: 'e', variables: {}, auth: {} };
    assert.equal(authSchemeOf([], environment, 'http://h/v1/constituents', { Authorization: 'Bearer eyJ.x.y' }), 'jwt-bearer');
    assert.equal(authSchemeOf([], environment, 'http://h/v1/constituents', { authorization: 'Basic cDpr' }), 'basic-api-key');
    assert.equal(authSchemeOf([], environment, 'http://h/v1/constituents'), 'basic-api-key');
    assert.equal(authSchemeOf([], environment, 'http://h/api/SurveyApi/AddLabelQuestion'), 'password-grant');
    assert.equal(authSchemeOf([], environment, 'http://h/bookings'), 'unknown');
  });

  void it('a request\'s $auth references are found once and are those of its texts', () => {
    for (const block of FILE.blocks) {
      const node = block.request;
      if (!node) continue;
      const first = authReferencesOf(node);
      assert.deepEqual(first, findAuthReferences(requestTexts(node)));
      assert.equal(authReferencesOf(node), first, 'the same list the second time');
      assert.ok(Object.isFrozen(first), 'no caller can change what the next one reads');
    }
    assert.deepEqual(authReferencesOf(FILE.blocks.find((b) => b.request)!.request!), [{ kind: 'token', authId: 'fund' }]);
  });

  void it('a run checks its requests with one memo of resolved texts: each gets the answer it gets alone, file variables never shared', () => {
    const memo = new Map<string, ResolvedText>();
    const indexes = FILE.requests.map((r) => r.index);
    for (const pass of [1, 2]) {
      for (const i of indexes) assert.deepEqual(checkRequest(FILE, i, ENV, memo), checkRequest(FILE, i, ENV), `request ${i}, pass ${pass}`);
    }
    assert.ok(memo.size > 0 && memo.size < 20, `the texts with references, once each (${memo.size})`);
    const withVariables = parseHttpFile('@v = one\n### a\nGET http://x/{{v}}/{{base}}\n\n### b\n@v = two\nGET http://x/{{v}}/{{base}}\n');
    const shared = new Map<string, ResolvedText>();
    const urls = withVariables.requests.map((r) => {
      const checked = checkRequest(withVariables, r.index, ENV, shared);
      return checked.ok ? checked.resolved.url : checked.problem;
    });
    assert.deepEqual(urls, ['http://x/one/http://127.0.0.1:9', 'http://x/two/http://127.0.0.1:9'], 'the same text, another file variable');
  });

  void it('headerValue answers as a scan of every name lower-cased does, names of any case and alphabet', () => {
    const parts = ['x', 'X', 'total', 'TOTAL', '-', 'İ', 'i̇', 'K', 'k', 'ß', 'SS', 'é', 'É'];
    let seed = 11;
    const pick = (): string => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return parts[seed % parts.length]!;
    };
    const scan = (headers: Record<string, string>, name: string): string | undefined => Object.keys(headers).find((k) => k.toLowerCase() === name.toLowerCase());
    for (let n = 0; n < 3000; n++) {
      const headers: Record<string, string> = {};
      for (let h = 0; h < 4; h++) headers[pick() + pick()] = `v${h}`;
      const asked = pick() + pick();
      const key = scan(headers, asked);
      assert.equal(headerValue(headers, asked), key === undefined ? undefined : headers[key], `${JSON.stringify(headers)} ${asked}`);
    }
  });

  void it('headerValue: the first header whose name matches, in any case, or nothing', () => {
    const headers = { Accept: 'a', 'X-Total': '1', 'x-total': '2' };
    assert.equal(headerValue(headers, 'x-TOTAL'), '1');
    assert.equal(headerValue(headers, 'accept'), 'a');
    assert.equal(headerValue(headers, 'link'), undefined);
    assert.equal(headerValue(JSON.parse('{"__proto__":"own"}') as Record<string, string>, '__PROTO__'), 'own');
  });

  void it('a request its directives refuse (@loop, @paging after the request line) is not prepared by any sender', async () => {
    const refused = parseHttpFile('# @loop for 3\nPOST {{base}}/a\n\n###\nGET {{base}}/b\n# @paging generic next=n\n\n###\n# @name fine\nGET {{base}}/c\n');
    const loop = await prepareRequest(refused, 0, context({}));
    assert.equal(loop.ok, false);
    assert.match(!loop.ok ? loop.problem : '', /^line 1: @loop \(httpYac\)/);
    const misplaced = await prepareRequest(refused, 1, context({}));
    assert.match(!misplaced.ok ? misplaced.problem : '', /^line 6: @paging after the request line is not read/);
    assert.equal((await prepareRequest(refused, 2, context({}))).ok, true);
  });

  void it("a multipart body's '< ./file' line is that file's content, read through the port", async () => {
    const multipart = parseHttpFile('POST {{base}}/up\nContent-Type: multipart/form-data; boundary=B\n\n--B\nContent-Disposition: form-data; name="f"\n\n< ./a.txt\n--B--\n');
    const prepared = await prepareRequest(multipart, 0, context({}, { './a.txt': 'A {{tenant}}' }));
    assert.equal(prepared.ok ? prepared.request.body : prepared.problem, '--B\r\nContent-Disposition: form-data; name="f"\r\n\r\nA {{tenant}}\r\n--B--');
  });
});
