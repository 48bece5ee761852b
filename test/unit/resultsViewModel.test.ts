// The results view-model builder: redaction asserted, rows found, body cut for display, banner worded.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { HttpResponse } from '../../src/core/http/types';
import { buildResultsViewModel, type ResultsInput } from '../../src/core/results/viewModel';
import { UnredactedSecretError } from '../../src/core/results/redaction';
import { ResultsViewModelWireSchema } from '../../src/protocol/webviewMessages';
import { encodeViewModel } from '../../src/core/results/wire';
import { prettyJsonPrefix } from '../../src/core/results/prettyJson';
import { meaningsOf } from '../../src/core/catalog/errorCatalogues';

function response(body: unknown, overrides: Partial<HttpResponse> = {}): HttpResponse {
  const bodyText = typeof body === 'string' ? body : JSON.stringify(body);
  return {
    status: 200,
    statusText: 'OK',
    headers: { 'content-type': 'application/json' },
    bodyText,
    timing: { startedAt: Date.UTC(2026, 10, 22, 10, 0, 0), firstByteMs: 12, totalMs: 42 },
    sizeBytes: Buffer.byteLength(bodyText),
    ...overrides,
  };
}

function input(body: unknown, overrides: Partial<ResultsInput> = {}): ResultsInput {
  return {
    requestKey: 'demo.http#orders',
    request: { method: 'POST', url: 'http://127.0.0.1:1/api/Transaction/GetOrdersByCustomer', headers: { Authorization: 'Bearer ***' } },
    response: response(body),
    id: 'fixed-id',
    ...overrides,
  };
}

void test('a view model validates against the protocol schema and carries status, timing and size', () => {
  const vm = buildResultsViewModel(input([{ OrderID: 1 }]));
  assert.ok(ResultsViewModelWireSchema.safeParse(encodeViewModel(vm)).success);
  assert.equal(vm.status, 200);
  assert.equal(vm.statusClass, 'success');
  assert.equal(vm.timing.text, '42 ms');
  assert.equal(vm.size.text, '15 B');
  assert.equal(vm.receivedAt, '2026-11-22T10:00:00.042Z');
});

void test('an unredacted Authorization or X-API-Key header is refused, and the error does not repeat the value', () => {
  const cases: Record<string, string>[] = [{ Authorization: 'Bearer eyJhbGciOiJIUzI1NiJ9.secret' }, { 'X-API-Key': 'tenant-secret-code' }, { authorization: 'Basic dXNlcjpwYXNz' }];
  for (const headers of cases) {
    assert.throws(
      () => buildResultsViewModel(input([], { request: { method: 'GET', url: 'http://127.0.0.1:1/v1/x', headers } })),
      (e: unknown) => e instanceof UnredactedSecretError && !e.message.includes(Object.values(headers)[0]!.split(' ').pop()!),
    );
  }
});

void test('redacted credential headers pass; cookies, secret query parameters and token fields are masked', () => {
  const vm = buildResultsViewModel(
    input(
      { access_token: 'abc.def.ghi', token_type: 'bearer', Rows: [{ Id: 1, password: 'hunter22' }] },
      {
        request: { method: 'GET', url: 'http://127.0.0.1:1/v1/x?api_key=k3y-value&page=2', headers: { Authorization: 'Basic ***', 'X-API-Key': '***' } },
        response: response({ access_token: 'abc.def.ghi', token_type: 'bearer', Rows: [{ Id: 1, password: 'hunter22' }] }, {
          headers: { 'content-type': 'application/json', 'set-cookie': 'session=s3cr3t' },
        }),
      },
    ),
  );
  const all = JSON.stringify(vm);
  for (const secret of ['abc.def.ghi', 'hunter22', 's3cr3t', 'k3y-value']) assert.ok(!all.includes(secret), `${secret} leaked`);
  assert.match(vm.request.url, /page=2/);
  assert.equal(vm.headers.find((h) => h.name === 'set-cookie')?.value, '***');
  assert.deepEqual(vm.table?.rows, [{ Id: 1, password: '***' }]);
});

void test('every secret name of the shared vocabulary is masked in the Raw JSON and the table, in any case and nesting, also in a body that is not valid JSON', () => {
  const body = {
    Rows: [{ Id: 1, db_password: 'pw-leak-1', ClientSecret: 'cs-leak-2', aws_secret_access_key: 'aws-leak-3', passwd: 'pwd-leak-4', Session: { pin: 1 }, nextPageToken: 'cursor-2' }],
    auth: { X_Auth_Token: 'tok-leak-5', pwd: 1234567 },
  };
  const vm = buildResultsViewModel(input(body));
  const all = JSON.stringify(vm);
  for (const secret of ['pw-leak-1', 'cs-leak-2', 'aws-leak-3', 'pwd-leak-4', 'tok-leak-5', '1234567', '"pin"']) assert.ok(!all.includes(secret), `${secret} leaked`);
  assert.deepEqual(vm.table?.rows, [{ Id: 1, db_password: '***', ClientSecret: '***', aws_secret_access_key: '***', passwd: '***', Session: '***', nextPageToken: 'cursor-2' }]);
  assert.match(vm.body.text, /"nextPageToken": "cursor-2"/, 'a paging cursor is not a secret');
  const broken = buildResultsViewModel(input('{"Rows": [{"db_password": "pw-leak-6", "ClientSecret" : "cs-leak-7", "name": "ann"'));
  assert.doesNotMatch(JSON.stringify(broken), /pw-leak-6|cs-leak-7/);
  assert.match(broken.body.text, /"name": "ann"/);
});

void test('rows: a top-level array of objects, with the union of keys as columns in first-seen order', () => {
  const vm = buildResultsViewModel(input([{ a: 1, b: { x: 1 } }, { a: 2, c: [1, 2] }]));
  assert.equal(vm.table?.source, '$');
  assert.equal(vm.table?.kind, 'objects');
  assert.deepEqual(vm.table?.columns.map((c) => c.key), ['a', 'b', 'c']);
  assert.equal(vm.table?.rows.length, 2);
});

void test('rows: the largest array of objects one or two levels down, or the field the paging strategy names', () => {
  const body = { Response: true, Remaining: 3, Meta: [{ k: 1 }], Result: { Items: [{ id: 1 }, { id: 2 }, { id: 3 }] } };
  assert.equal(buildResultsViewModel(input(body)).table?.source, 'Result.Items');
  assert.equal(buildResultsViewModel(input(body, { rowsPath: 'Meta' })).table?.source, 'Meta');
  assert.equal(buildResultsViewModel(input({ Response: true, Data: [] }, { rowsPath: 'Data' })).table?.rows.length, 0);
});

void test('rows: an array of primitives is one "value" column; an object without arrays has no table', () => {
  const values = buildResultsViewModel(input([1, 'two', null]));
  assert.equal(values.table?.kind, 'values');
  assert.deepEqual(values.table?.columns, [{ key: '', label: 'value' }]);
  assert.equal(buildResultsViewModel(input({ ResponseStatus: true, Name: 'x' })).table, undefined);
});

void test('a long body is cut for display with a note; the table still holds every row', () => {
  const rows = Array.from({ length: 500 }, (_, i) => ({ id: i, name: `row ${i}` }));
  const vm = buildResultsViewModel(input(rows, { bodyDisplayLimit: 1000 }));
  assert.equal(vm.body.truncated, true);
  assert.equal(vm.body.text.length, 1000);
  assert.ok(vm.body.totalChars > 1000);
  assert.match(vm.body.note ?? '', /first 1\u202f000 characters of the pretty-printed body.*the table holds every row/);
  assert.equal(vm.body.text, JSON.stringify(rows, null, 2).slice(0, 1000));
  assert.equal(vm.table?.rows.length, 500);
});

void test('malformed JSON is shown as received with a note, and an empty body says so', () => {
  const bad = buildResultsViewModel(input('{"Data": [1, 2', {}));
  assert.equal(bad.body.language, 'text');
  assert.equal(bad.body.text, '{"Data": [1, 2');
  assert.match(bad.body.note ?? '', /not valid JSON/);
  assert.equal(bad.table, undefined);
  // In the product's words, at its byte (not JSON.parse's "Unexpected token …, at position").
  const more = buildResultsViewModel(input('[1, 2]]', {}));
  assert.equal(more.body.note, 'The body is not valid JSON (malformed JSON at byte 6: unexpected content after the end of the body); shown as received.');
  assert.equal(bad.body.note, 'The body is not valid JSON (malformed JSON: the body ends early (after 14 bytes)); shown as received.');
  const empty = buildResultsViewModel(input('', { response: response('', { status: 204, statusText: 'No Content', headers: {} }) }));
  assert.match(empty.body.note ?? '', /no body/);
});

void test('a business failure in a 200: banner with catalogue meanings, the code-14 ambiguity and a note on the status', () => {
  const vm = buildResultsViewModel(
    input({ ResponseStatus: false, Errors: [{ ErrorCode: 14, ErrorDescription: 'Invalid' }, { ErrorCode: 13, ErrorDescription: 'Invalid CtcID' }] }, {
      catalogue: 'SurveyApi',
      businessErrors: {
        convention: 'ResponseStatus+Errors',
        failed: true,
        failures: [
          { code: 14, message: 'Invalid', meanings: meaningsOf('SurveyApi', 14), ambiguous: true },
          { code: 13, message: 'Invalid CtcID', meanings: meaningsOf('SurveyApi', 13) },
          { code: 99, message: 'Odd', meanings: [] },
        ],
      },
    }),
  );
  const banner = vm.businessErrors;
  assert.ok(banner);
  assert.match(banner.statusNote, /HTTP status was 200 OK/);
  assert.match(banner.statusNote, /inside the body/);
  const [f14, f13, f99] = banner.failures;
  assert.deepEqual(f14?.meanings, ['Invalid SessionID', 'Invalid Question ID']);
  assert.match(f14?.note ?? '', /Code 14 has 2 published meanings in the SurveyApi catalogue/);
  assert.equal(f13?.note, undefined);
  assert.match(f99?.note ?? '', /not listed/);
});

void test('no banner when the report says the call succeeded, or when there is no report', () => {
  assert.equal(buildResultsViewModel(input({ ResponseStatus: true }, { businessErrors: { convention: 'x', failed: false, failures: [] } })).businessErrors, undefined);
  assert.equal(buildResultsViewModel(input({ ResponseStatus: true })).businessErrors, undefined);
});

void test('401 and 403 are explained in words (the host may supply its own)', () => {
  const unauthorized = buildResultsViewModel(input('', { service: 'engagement', response: response('', { status: 401, statusText: 'Unauthorized' }) }));
  assert.ok(unauthorized.auth && unauthorized.auth.title.includes('401'));
  const own = buildResultsViewModel(input('', { auth: { title: 'Caller IP', explanation: 'Outside the range.' }, response: response('', { status: 403, statusText: 'Forbidden' }) }));
  assert.deepEqual(own.auth, { title: 'Caller IP', explanation: 'Outside the range.' });
  assert.equal(buildResultsViewModel(input([])).auth, undefined);
});

void test('the bounded pretty-printer matches JSON.stringify(…, null, 2) and stops at its limit', () => {
  const samples: unknown[] = [null, 1, 'x"y', [], {}, [1, [2, []], { a: null, b: { c: [true] } }], { k: 'v', list: [{}, [], 'é\n'] }];
  for (const value of samples) assert.deepEqual(prettyJsonPrefix(value, 10_000), { text: JSON.stringify(value, null, 2), complete: true });
  const big = Array.from({ length: 1000 }, (_, i) => ({ i, s: 'x'.repeat(i % 7) }));
  const cut = prettyJsonPrefix(big, 5000);
  assert.deepEqual(cut, { text: JSON.stringify(big, null, 2).slice(0, 5000), complete: false });
  const exact = JSON.stringify([1, 2], null, 2);
  assert.equal(prettyJsonPrefix([1, 2], exact.length).complete, true);
});

void test('without a report the builder runs detectBusinessErrors for a known catalogue: SurveyApi 14 in a 200', () => {
  const vm = buildResultsViewModel(
    input({ ResponseStatus: false, Errors: [{ ErrorCode: 14, ErrorDescription: 'Invalid SessionID' }] }, { catalogue: 'SurveyApi' }),
  );
  const banner = vm.businessErrors;
  assert.ok(banner);
  assert.equal(banner.catalogue, 'SurveyApi');
  assert.equal(banner.convention, 'ResponseStatus + Errors[{ErrorCode, ErrorDescription}]');
  assert.equal(banner.failures[0]?.code, 14);
  assert.deepEqual(banner.failures[0]?.meanings, ['Invalid SessionID', 'Invalid Question ID']);
  assert.match(banner.failures[0]?.note ?? '', /2 published meanings/);
  assert.match(banner.statusNote, /200 OK/);
  // A success body, or a non-engagement call without a catalogue, gets no banner.
  assert.equal(buildResultsViewModel(input({ ResponseStatus: true, Errors: [] }, { catalogue: 'SurveyApi' })).businessErrors, undefined);
  assert.equal(buildResultsViewModel(input({ Error: 'x' }, { service: 'fundraising' })).businessErrors, undefined);
});

void test('a body the exchange parsed: the same table and body as from its text, rows redacted only when read', async () => {
  const { Redactor } = await import('../../src/core/secrets/redact');
  const { tableHead, tableRowCount } = await import('../../src/core/results/tableModel');
  const redactor = new Redactor(['s3cr3t-value-42']);
  const bodies: unknown[] = [
    { Data: [{ id: 1, note: 'Bearer abcdefgh123', password: 'x' }, { id: 2, link: 'https://u:pw1234@h/x', s: 'has s3cr3t-value-42' }] },
    // Rows under a secret-named field are masked whole, as the body shows them: no table of them.
    { Sessions: [{ id: 1, who: 'a' }, { id: 2, who: 'b' }] },
    { Result: { 's3cr3t-value-42': [{ id: 1 }, { id: 2 }] } },
    [{ api_key: 'k', v: 1 }, { api_key: '', v: 2 }],
  ];
  for (const body of bodies) {
    const text = JSON.stringify(body);
    const fromText = buildResultsViewModel(input(body, { response: response(redactor.text(text)) }));
    const calls: unknown[] = [];
    const counting = { value: (v: unknown) => (calls.push(v), redactor.value(v)), text: (t: string) => redactor.text(t) };
    const fromParsed = buildResultsViewModel(input(body, { response: response(''), parsedBody: { value: JSON.parse(text), chars: text.length, redaction: counting } }));
    if (fromText.table && fromParsed.table) {
      assert.equal(tableRowCount(fromParsed.table), fromText.table.rows.length, text);
      assert.deepEqual(tableHead(fromParsed.table, 1), fromText.table.rows.slice(0, 1), text);
    }
    assert.deepEqual(fromParsed.table, fromText.table, text);
    // totalChars: the body as received (the text path counted it after redaction).
    const { text: shown, truncated, language, note } = fromParsed.body;
    assert.deepEqual({ text: shown, truncated, language, note }, { text: fromText.body.text, truncated: fromText.body.truncated, language: fromText.body.language, note: fromText.body.note }, text);
    assert.ok(calls.length > 0);
  }
  const rows = Array.from({ length: 500 }, (_, i) => ({ i }));
  const calls: unknown[] = [];
  const vm = buildResultsViewModel(input({ Data: rows }, { response: response(''), parsedBody: { value: { Data: rows }, chars: 10, redaction: { value: (v) => (calls.push(v), redactor.value(v)), text: (t) => t } } }));
  const before = calls.length;
  assert.equal(tableHead(vm.table!, 200).length, 200);
  assert.equal(calls.length - before, 200, 'the head redacts its 200 rows, not the other 300');
});
