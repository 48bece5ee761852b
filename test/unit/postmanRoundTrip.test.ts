// Postman collection v2.1 import and export on real collection files (test/fixtures/postman) and the
// sample .http collections: import → .http → export sends the same requests; .http → export → import
// gives the same .http requests; no secret survives either direction (asserted with the fixtures'
// sample secret values); bad files give errors naming the file.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseHttpFile, type HttpFile } from '../../src/core/httpfile';
import { envFileWithImport, exportPostmanCollection, importPostmanCollection } from '../../src/core/interop';
import { PostmanImportError, type PostmanCollection } from '../../src/core/interop/postman/model';
import type { PostmanImport } from '../../src/core/interop/postman/importCollection';
import { effectiveRequests } from '../fixtures/postman/effective';

const ROOT = join(import.meta.dirname, '..', '..');
const POSTMAN = join(ROOT, 'test', 'fixtures', 'postman');
const read = (path: string): string => readFileSync(path, 'utf8');

/** Every literal secret the fixtures hold. */
const SECRETS = [
  'sk_live_FUNDRAISING_9f8e7d6c5b4a', 'ENGAGEMENT_BEARER_SECRET', 'Hunter2-Engagement!', 'Hunter2-Engagement%21', 'LITERAL_HEADER_SECRET',
  'bk_live_BOOKING_KEY_123456', 'bk_query_LITERAL_KEY_987', 'COOKIE_SECRET_abc123',
];

function assertNoSecret(where: string, text: string): void {
  for (const secret of SECRETS) assert.equal(text.includes(secret), false, `${where} holds ${secret.slice(0, 6)}…`);
}

function importFixture(name: string): { imported: PostmanImport; original: PostmanCollection } {
  const path = join(POSTMAN, name);
  const text = read(path);
  return { imported: importPostmanCollection(text, path), original: JSON.parse(text) as PostmanCollection };
}

function reexport(imported: PostmanImport): ReturnType<typeof exportPostmanCollection> {
  return exportPostmanCollection(imported.files.map((f) => ({ path: f.path, text: f.text, folder: f.folder })), { name: imported.name, environment: imported.environment.variables });
}

function assertSecretFree(imported: PostmanImport, exported: ReturnType<typeof exportPostmanCollection>): void {
  for (const file of imported.files) {
    assertNoSecret(file.path, file.text);
    assert.deepEqual(parseHttpFile(file.text).diagnostics, [], `${file.path} parses cleanly`);
  }
  assertNoSecret('environment', envFileWithImport(imported));
  assertNoSecret('report', JSON.stringify([imported.dropped, imported.warnings, exported.dropped, exported.warnings]));
  assertNoSecret('exported collection', exported.text);
}

void describe('Postman → .http → Postman', () => {
  void it('fundraising: folders, nested folder, inherited basic auth, variables; the same requests come back', () => {
    const { imported, original } = importFixture('fundraising.postman_collection.json');
    assert.deepEqual(imported.files.map((f) => [f.path, f.folder, f.requests]), [['Constituents.http', 'Constituents', 2], ['Transactions.http', 'Transactions', 2]]);
    const constituents = imported.files[0]!.text;
    assert.match(constituents, /^### List constituents\n# First page; follow next_link for the rest\.\n# disabled query: include=givingSummary\n# @name listConstituents\nGET \{\{fundraising_base_url\}\}\/v1\/constituents\?limit=50&offset=0\nAuthorization: Basic \{\{permission_name\}\}:\{\{service_key\}\}\nX-API-Key: \{\{tenant_code\}\}\nAccept: application\/json$/m);
    assert.match(constituents, /# disabled: X-Debug: 1/);
    assert.match(constituents, /Content-Type: application\/json\n\n\{\n {2}"type": "household",\n {2}"name": "The O'Brien household",/);
    assert.match(imported.files[1]!.text, /### Create a payment with Gift Aid\n# @name createAPaymentWithGiftAid\n# @folder Gift Aid\nPOST /);
    assert.equal(parseHttpFile(constituents).diagnostics.length, 0);
    assert.deepEqual(imported.environment, { name: 'postman', variables: { fundraising_base_url: 'https://fundraising.example.test', tenant_code: 'TENANT-25B79C', permission_name: 'apiwb-integration' } });
    assert.deepEqual(imported.dropped, [{ where: 'collection variables', what: 'variable service_key' }]);

    const exported = reexport(imported);
    assert.deepEqual(effectiveRequests(exported.collection), effectiveRequests(original));
    const debug = exported.collection.item[0]?.item?.[1]?.request;
    assert.ok(typeof debug === 'object' && Array.isArray(debug.header) && debug.header.some((h) => h.key === 'X-Debug' && h.disabled === true), 'disabled header kept disabled');
    const list = exported.collection.item[0]?.item?.[0]?.request;
    assert.ok(typeof list === 'object' && typeof list.url === 'object' && list.url.query?.some((q) => q.key === 'include' && q.disabled === true), 'disabled query kept disabled');
    assertSecretFree(imported, exported);
  });

  void it('engagement: literal bearer and password are dropped and reported; requests otherwise the same', () => {
    const { imported, original } = importFixture('engagement.postman_collection.json');
    assert.deepEqual(imported.files.map((f) => [f.path, f.folder]), [['Customer-engagement.http', null], ['SurveyApi.http', 'SurveyApi'], ['Transaction.http', 'Transaction']]);
    assert.match(imported.files[1]!.text, /Authorization: Bearer \{\{\$auth\.token\("customer-engagement"\)\}\}/);
    assert.match(imported.files[0]!.text, /grant_type=password&username=\{\{username\}\}&password=\{\{password\}\}/);
    assert.deepEqual(imported.dropped.map((d) => `${d.where}: ${d.what}${d.replacedBy ? ` → ${d.replacedBy}` : ''}`).sort(), [
      'Sign in (password grant): body field password → {{password}}',
      'SurveyApi / Add a choice question: bearer token → {{$auth.token("customer-engagement")}}',
      'Transaction / Leads (offset paging): bearer token → {{$auth.token("customer-engagement")}}',
      'Transaction / Orders of a customer: bearer token → {{$auth.token("customer-engagement")}}',
      'Transaction / Orders of a customer: disabled header Authorization → Bearer {{$auth.token("customer-engagement")}}',
      'collection variables: variable password',
    ]);
    assert.ok(imported.warnings.some((w) => /Sign in.*1 script\(s\) not imported/.test(w)));
    assert.ok(imported.warnings.some((w) => /Orders of a customer: 1 saved response/.test(w)));
    const exported = reexport(imported);
    assert.deepEqual(effectiveRequests(exported.collection, true), effectiveRequests(original, true));
    assertSecretFree(imported, exported);
  });

  void it('booking: API key auth on a folder, in the query, a Cookie and a root request without auth', () => {
    const { imported, original } = importFixture('booking.postman_collection.json');
    assert.deepEqual(imported.files.map((f) => [f.path, f.folder]), [['Bookings.http', 'Bookings'], ['Booking-lists.http', null]]);
    const bookings = imported.files[0]!.text;
    assert.match(bookings, /GET \{\{booking_base_url\}\}\/bookings\?page=2\nX-API-Key: \{\{booking_api_key\}\}\nAccept: application\/json/);
    assert.match(bookings, /# disabled: If-None-Match: "etag-42"/);
    assert.match(bookings, /GET \{\{booking_base_url\}\}\/bookings\?page=1&api_key=\{\{api_key\}\}\nCookie: \{\{cookie\}\}/);
    assert.match(imported.files[1]!.text, /GET \{\{booking_base_url\}\}\/health\n/);
    assert.deepEqual(Object.keys(imported.environment.variables), ['booking_base_url', 'client_secret']);
    assert.equal(imported.environment.variables['client_secret'], '');
    const exported = reexport(imported);
    assert.deepEqual(effectiveRequests(exported.collection, true), effectiveRequests(original, true));
    assertSecretFree(imported, exported);
  });
});

interface Comparable { name?: string; method: string; url: string; headers: string[]; body?: string }

function comparable(file: HttpFile): Comparable[] {
  return file.blocks.flatMap((block) => {
    const r = block.request;
    if (!r) return [];
    return [{
      name: block.directives.find((d) => d.key === 'name')?.value,
      method: r.requestLine.method,
      url: r.requestLine.url + r.queryContinuations.map((q) => q.text.trim()).join(''),
      headers: r.headers.map((h) => `${h.name}: ${h.value}`),
      ...(r.body?.kind === 'inline' ? { body: r.body.text.replace(/\r\n?/g, '\n').trim() } : {}),
    }];
  });
}

void describe('.http → Postman → .http', () => {
  const samples = [
    join(ROOT, 'samples', 'collections', 'engagement.http'),
    join(ROOT, 'samples', 'collections', 'fundraising.http'),
    join(ROOT, 'test', 'fixtures', 'http', 'jetbrains-fundraising.http'),
  ];

  void it('the sample collections come back as the same requests', () => {
    const files = samples.map((path) => ({ path, text: read(path) }));
    const exported = exportPostmanCollection(files, { name: 'Samples' });
    assert.deepEqual(exported.dropped, []);
    const imported = importPostmanCollection(exported.text, 'samples.postman_collection.json');
    assert.deepEqual(imported.files.map((f) => f.folder), ['engagement', 'fundraising', 'jetbrains-fundraising']);
    files.forEach((file, i) => {
      const before = comparable(parseHttpFile(file.text));
      const after = comparable(parseHttpFile(imported.files[i]!.text));
      assert.deepEqual(after.map((r) => (before.find((b) => b.url === r.url && b.method === r.method)?.name === undefined ? { ...r, name: undefined } : r)), before, file.path);
    });
    assert.ok(exported.warnings.some((w) => /response handler scripts are not exported/.test(w)));
  });

  void it('literal credentials in a .http file become {{variables}} in the export and stay variables on import', () => {
    const text = [
      '@base = https://api.example.test',
      '@service_key = sk_live_FUNDRAISING_9f8e7d6c5b4a',
      '',
      '### Literal secrets',
      '# @name literal',
      '# @paging generic next=next_link',
      'POST {{base}}/v1/x?api_key=bk_query_LITERAL_KEY_987&page=1',
      'Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.ENGAGEMENT_BEARER_SECRET.c2lnbmF0dXJl',
      'X-API-Key: bk_live_BOOKING_KEY_123456',
      'Content-Type: application/json',
      '',
      '{ "user": "demo", "password": "Hunter2-Engagement!" }',
      '',
    ].join('\n');
    const exported = exportPostmanCollection([{ path: 'secrets.http', text, folder: null }], { name: 'S', knownSecrets: ['COOKIE_SECRET_abc123'] });
    assertNoSecret('export', exported.text);
    assert.deepEqual(exported.dropped.map((d) => `${d.what} → ${d.replacedBy ?? ''}`), [
      'variable service_key → ', 'header Authorization → Bearer {{bearer_token}}', 'header X-API-Key → {{x_api_key}}',
      'query parameter api_key → {{api_key}}', 'body field password → {{password}}',
    ]);
    assert.deepEqual(exported.collection.variable?.map((v) => [v.key, v.value]), [
      ['base', 'https://api.example.test'], ['service_key', ''], ['bearer_token', ''], ['x_api_key', ''], ['api_key', ''], ['password', ''],
    ]);
    const item = exported.collection.item[0]!;
    assert.deepEqual(item['x-apiwb'], { name: 'literal', directives: [{ key: 'paging', value: 'generic next=next_link' }] });
    const back = importPostmanCollection(exported.text, 'S.json');
    assertNoSecret('import', back.files.map((f) => f.text).join('\n'));
    assert.match(back.files[0]!.text, /# @name literal\n# @paging generic next=next_link\nPOST \{\{base\}\}\/v1\/x\?api_key=\{\{api_key\}\}&page=1\nAuthorization: Bearer \{\{bearer_token\}\}\nX-API-Key: \{\{x_api_key\}\}/);
    assert.match(back.files[0]!.text, /"password": "\{\{password\}\}"/);
  });
});

void describe('Postman bodies beyond raw and urlencoded', () => {
  void it('a GraphQL body becomes the JSON Postman sends; form-data is reported, not guessed', () => {
    const collection = {
      info: { name: 'G', schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json' },
      item: [
        { name: 'Query', request: { method: 'POST', url: 'https://g.test/graphql', body: { mode: 'graphql', graphql: { query: 'query { me { id } }', variables: '{"first": 2}' } } } },
        { name: 'Upload', request: { method: 'POST', url: 'https://g.test/upload', body: { mode: 'formdata', formdata: [{ key: 'file', type: 'file', src: '/tmp/x' }] } } },
      ],
    };
    const imported = importPostmanCollection(JSON.stringify(collection), 'g.json');
    const requests = parseHttpFile(imported.files[0]!.text).requests;
    assert.equal(requests[0]?.headers[0]?.value, 'application/json');
    assert.deepEqual(JSON.parse(requests[0]?.body?.kind === 'inline' ? requests[0].body.text : ''), { query: 'query { me { id } }', variables: { first: 2 } });
    assert.equal(requests[1]?.body, undefined);
    assert.deepEqual(imported.warnings, ["Upload: a 'formdata' body is not imported; write it in the .http file by hand."]);
  });
});

void describe('Postman urlencoded bodies', () => {
  void it('are form-encoded except their {{references}}; a {{ that closes nothing is text, encoded', () => {
    const collection = {
      info: { name: 'F', schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json' },
      item: [{ name: 'Form', request: { method: 'POST', url: 'https://f.test/form', body: { mode: 'urlencoded', urlencoded: [{ key: 'q', value: 'a b&{{user}}/{{ x }}' }, { key: 'note', value: '{{open' }] } } }],
    };
    const imported = importPostmanCollection(JSON.stringify(collection), 'f.json');
    const body = parseHttpFile(imported.files[0]!.text).requests[0]?.body;
    assert.equal(body?.kind === 'inline' ? body.text : '', 'q=a%20b%26{{user}}%2F{{ x }}&note=%7B%7Bopen');
  });
});

void describe('bad Postman files name the file', () => {
  const cases: ReadonlyArray<[string, string, RegExp]> = [
    ['empty.json', '', /empty\.json: the file is empty/],
    ['broken.json', '{ "info": ', /broken\.json: not valid JSON: .* at line 1/],
    ['env.json', '{ "id": "x", "name": "Sandbox", "values": [] }', /env\.json: not a Postman collection: no 'info' object/],
    ['v20.json', '{ "info": { "name": "old", "schema": "https://schema.getpostman.com/json/collection/v2.0.0/collection.json" }, "item": [] }', /v20\.json: a collection in format v2\.0\.0; export it from Postman as Collection v2\.1/],
    ['noitems.json', '{ "info": { "name": "x", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json" } }', /noitems\.json: the collection has no 'item' list/],
  ];
  for (const [name, text, pattern] of cases) {
    void it(name, () => {
      assert.throws(() => importPostmanCollection(text, name), (e: unknown) => e instanceof PostmanImportError && pattern.test(e.message));
    });
  }
});
