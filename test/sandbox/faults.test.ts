// The sandbox's observability and fault injection (issue 3): request logs with secrets redacted,
// X-Sandbox-Fault on any request, and armed faults on the Nth page of a paging walk.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type RunningSandbox } from '../../src/sandbox';
import type { SandboxDescriptor } from '../../src/sandbox/descriptor';
import { type Json, basicHeaders, engagementGet, engagementPost, signIn, tokenRequest, startSignedIn } from './helpers';

let sandbox: RunningSandbox;
let d: SandboxDescriptor;
let token: string;

before(async () => ({ sandbox, d, token } = await startSignedIn({
  orders: 120, exportRows: 50, selectionPageRows: 20, facts: 40, bidwTransientEvery: 0, assets: 30, bookings: 30, bookingsPerPage: 10,
  failPages: ['page-headers:2:status=503'],
})));
after(() => sandbox.close());

const ordersUrl = (page = 1): string => `${d.engagement.baseUrl}/api/Transaction/GetOrdersByCustomer?ctcID=${d.samples.ctcID}&pageSize=50&pageNumber=${page}`;
const withFault = (fault: string): Record<string, string> => ({ authorization: `Bearer ${token}`, 'x-sandbox-fault': fault });
const arm = (failPage: string, origin = d.engagement.baseUrl) =>
  fetch(`${origin}/__sandbox/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ failPage }) });

void describe('request log (issue 3: observability)', () => {
  void it('each origin lists the requests it received, the token endpoint included, with Authorization, X-API-Key and the password redacted', async () => {
    await fetch(`${d.engagement.baseUrl}/__sandbox/requests`, { method: 'DELETE' });
    await fetch(`${d.fundraising.baseUrl}/__sandbox/requests`, { method: 'DELETE' });
    const { password } = d.credentials.engagement;
    await tokenRequest(d, { grant_type: 'password', username: d.credentials.engagement.username, password });
    await engagementGet(d, token, `/api/Transaction/GetOrdersByCustomer?ctcID=${d.samples.ctcID}&password=hunter2`);
    await fetch(`${d.fundraising.baseUrl}/v1/lookup-types?language=en`, { headers: basicHeaders(d) });

    const engagementLog = (await (await fetch(`${d.engagement.baseUrl}/__sandbox/requests`)).json()) as Json[];
    assert.deepEqual(engagementLog.map((e) => `${e['method']} ${e['path']}`), ['POST /auth/token', 'GET /api/Transaction/GetOrdersByCustomer']);
    assert.deepEqual(engagementLog[0]?.['form'], { grant_type: 'password', username: d.credentials.engagement.username, password: '[redacted]' });
    assert.equal((engagementLog[1]?.['headers'] as Json)['authorization'], 'Bearer [redacted]');
    assert.equal((engagementLog[1]?.['query'] as Json)['password'], '[redacted]');
    assert.equal((engagementLog[1]?.['query'] as Json)['ctcID'], String(d.samples.ctcID));

    const fundraisingLog = (await (await fetch(`${d.fundraising.baseUrl}/__sandbox/requests`)).json()) as Json[];
    assert.equal(fundraisingLog.length, 1);
    assert.equal((fundraisingLog[0]?.['headers'] as Json)['x-api-key'], '[redacted]');
    assert.equal((fundraisingLog[0]?.['headers'] as Json)['authorization'], 'Basic [redacted]');

    const everything = JSON.stringify([engagementLog, fundraisingLog]);
    for (const secret of [password, token, d.credentials.fundraising.fullAccess.serviceKey, d.credentials.fundraising.tenantCode, 'hunter2']) {
      assert.equal(everything.includes(secret), false, 'no secret in the log');
    }
  });

  void it('DELETE /__sandbox/requests clears the log', async () => {
    await fetch(`${d.booking.baseUrl}/bookings`);
    await fetch(`${d.booking.baseUrl}/__sandbox/requests`, { method: 'DELETE' });
    assert.deepEqual(await (await fetch(`${d.booking.baseUrl}/__sandbox/requests`)).json(), []);
  });
});

void describe('X-Sandbox-Fault (issue 3: faults)', () => {
  void it('drop: the answer starts, then the connection is cut mid-body', async () => {
    const response = await fetch(ordersUrl(), { headers: withFault('drop') });
    assert.equal(response.status, 200);
    await assert.rejects(response.text());
  });

  void it('drop on a streamed page: part of the rows arrive, then the connection is cut', async () => {
    const response = await fetch(`${d.engagement.baseUrl}/api/Selection/GetSelectionResult_Ext`, {
      method: 'POST', headers: { ...withFault('drop'), 'content-type': 'application/json' }, body: JSON.stringify({ OFFSET: 1, TableName: '' }),
    });
    await assert.rejects(response.text());
  });

  void it('status=500: answered before any handler runs', async () => {
    const response = await fetch(ordersUrl(), { headers: withFault('status=500') });
    assert.equal(response.status, 500);
    assert.match(String(((await response.json()) as Json)['Message']), /status=500/);
  });

  void it('delay=MS: the normal answer, later', async () => {
    const response = await fetch(ordersUrl(), { headers: withFault('delay=30') });
    assert.equal(response.status, 200);
    assert.equal(((await response.json()) as Json)['Response'], true);
  });

  void it('drip=MS: the normal answer, 1 KiB at a time', async () => {
    const response = await fetch(ordersUrl(), { headers: withFault('drip=1') });
    assert.equal(response.status, 200);
    let pieces = 0;
    let text = '';
    const decoder = new TextDecoder();
    for await (const piece of response.body ?? []) {
      pieces++;
      text += decoder.decode(piece as Uint8Array, { stream: true });
    }
    assert.ok(pieces > 1, 'the body came in several pieces');
    assert.equal((JSON.parse(text) as Json)['Response'], true);
  });

  void it('malformed-json: the body does not parse', async () => {
    const response = await fetch(ordersUrl(), { headers: withFault('malformed-json') });
    assert.equal(response.status, 200);
    const text = await response.text();
    assert.throws(() => JSON.parse(text) as unknown);
    assert.ok(text.startsWith('{"PageNumber":1'));
  });

  void it('huge-body: a valid JSON body of the requested size (default 50 MB)', async () => {
    const small = await fetch(ordersUrl(), { headers: withFault('huge-body=4096') });
    assert.equal(Number(small.headers.get('content-length')), 4096);
    assert.equal((await small.text()).length, 4096);
    const big = await fetch(ordersUrl(), { headers: withFault('huge-body') });
    assert.equal(Number(big.headers.get('content-length')), 50 * 1024 * 1024);
    await big.body?.cancel();
  });

  void it('drift: the handler answers, then the body departs from the contract (field left out, type changed, field added, codes 999)', async () => {
    const page = await fetch(ordersUrl(), { headers: withFault('drift') });
    assert.equal(page.status, 200);
    const body = (await page.json()) as Json;
    assert.equal('PageNumber' in body, false, 'the first field is left out');
    assert.equal(body['Response'], 'true', 'the last scalar field turns into a string');
    assert.equal(body['SandboxDrift'], 'not in the contract');
    assert.equal((body['Orders'] as unknown[]).length, 50, 'the rows are the handler\'s');

    const failed = await engagementPost(d, token, '/api/SurveyApi/AddChoiceQuestion', {}, { 'x-sandbox-fault': 'drift' });
    assert.deepEqual((failed.body['Errors'] as Json[]).map((e): unknown => e['ErrorCode']), [999]);

    const booking = await fetch(`${d.booking.baseUrl}/bookings`, { headers: { 'x-sandbox-fault': 'drift' } });
    assert.equal(booking.headers.get('x-pagination-total-pages'), null);
    assert.equal(booking.headers.get('x-pagination-page'), '1');
    assert.equal(((await booking.json()) as unknown[]).length, 10, 'an array body is left as it was');
  });

  void it('drift on a streamed page: the whole page arrives, then drifts', async () => {
    const response = await engagementPost(d, token, '/api/Selection/GetSelectionResult_Ext', { OFFSET: 1, TableName: '' }, { 'x-sandbox-fault': 'drift' });
    assert.equal(response.status, 200);
    assert.equal(response.body['SandboxDrift'], 'not in the contract');
    assert.equal('TableName' in response.body, false);
    assert.equal((response.body['Result'] as unknown[]).length, 20);
  });

  void it('an unknown fault is a 400 saying what is accepted', async () => {
    const response = await fetch(ordersUrl(), { headers: withFault('explode') });
    assert.equal(response.status, 400);
    assert.match(String(((await response.json()) as Json)['Message']), /drop, status=CODE, delay=MS, drip=MS, malformed-json, huge-body\[=BYTES\] or drift/);
  });
});

void describe('faults on the Nth page of a walk (issue 3: --fail-page STYLE:N:FAULT, POST /__sandbox/faults)', () => {
  void it('--fail-page page-headers:2:status=503 fails page 2 once; the retry succeeds', async () => {
    assert.equal((await fetch(`${d.booking.baseUrl}/bookings?page=1`)).status, 200);
    assert.equal((await fetch(`${d.booking.baseUrl}/bookings?page=2`)).status, 503);
    assert.equal((await fetch(`${d.booking.baseUrl}/bookings?page=2`)).status, 200);
  });

  void it('page-number:2:drop armed at run time cuts page 2 once', async () => {
    assert.equal((await arm('page-number:2:drop')).status, 201);
    assert.equal((await fetch(ordersUrl(1), { headers: withFault('delay=0') })).status, 200);
    await assert.rejects((await fetch(ordersUrl(2), { headers: { authorization: `Bearer ${token}` } })).text());
    const retry = await engagementGet(d, token, '/api/Transaction/GetOrdersByCustomer?ctcID=' + String(d.samples.ctcID) + '&pageSize=50&pageNumber=2');
    assert.equal(retry.status, 200);
  });

  void it('export-ordinal:2:status=500 fails OFFSET 2 without dropping or advancing anything, so the walk resumes', async () => {
    await arm('export-ordinal:2:status=500');
    const first = await engagementPost(d, token, '/api/Selection/GetSelectionResult_Ext', { OFFSET: 1, TableName: '' });
    const tableName: unknown = first.body['TableName'];
    assert.equal((await engagementPost(d, token, '/api/Selection/GetSelectionResult_Ext', { OFFSET: 2, TableName: tableName })).status, 500);
    let rows = (first.body['Result'] as unknown[]).length;
    for (let offset = 2; ; offset++) {
      const page = await engagementPost(d, token, '/api/Selection/GetSelectionResult_Ext', { OFFSET: offset, TableName: tableName });
      assert.equal(page.status, 200);
      rows += (page.body['Result'] as unknown[]).length;
      if ((page.body['Result'] as unknown[]).length < d.samples.selectionPageRows) break;
    }
    assert.equal(rows, d.samples.exportRows);
  });

  void it('offset-remaining, batch-cursor, stateful-extraction and generic pages can be failed the same way', async () => {
    await arm('offset-remaining:3:status=502');
    const leads = (Offset: number) => engagementPost(d, token, '/api/SalesLeads/GetLeads', { CtcID: d.samples.ctcID, BrandID: d.samples.brandID, PageSize: 10, Offset });
    assert.equal((await leads(20)).status, 502);
    assert.equal((await leads(20)).status, 200);

    await arm('batch-cursor:2:malformed-json');
    const first = await engagementPost(d, token, '/api/CustomerAsset/GetAssets', { BatchID: null, BatchSize: 10 });
    const broken = await fetch(`${d.engagement.baseUrl}/api/CustomerAsset/GetAssets`, {
      method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ BatchID: first.body['BatchID'] as unknown, BatchSize: 10 }),
    });
    const brokenText = await broken.text();
    assert.throws(() => JSON.parse(brokenText) as unknown);

    await arm('stateful-extraction:1:status=500');
    const own = await signIn(d);
    assert.equal((await engagementPost(d, own, '/api/BIDWHouse/GetFactTransactions', { PageSize: 10 })).status, 500);
    assert.equal(((await engagementPost(d, own, '/api/BIDWHouse/GetFactTransactions', { PageSize: 10 })).body['FactTransactions'] as Json[])[0]?.['FactID'], 1);

    await arm('generic:2:status=429', d.fundraising.baseUrl);
    const generic = await fetch(`${d.fundraising.baseUrl}/v1/constituents?limit=10&offset=10`, { headers: basicHeaders(d) });
    assert.equal(generic.status, 429);

    const armed = (await (await fetch(`${d.booking.baseUrl}/__sandbox/faults`)).json()) as unknown[];
    assert.deepEqual(armed, [], 'every armed fault fired once');
  });

  void it('a malformed --fail-page spec is refused with the syntax', async () => {
    const response = await arm('sideways:1:drop');
    assert.equal(response.status, 400);
    assert.match(String(((await response.json()) as Json)['error']), /page-number, page-headers/);
  });
});
