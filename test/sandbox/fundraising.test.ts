// Contract tests of the fundraising service (seed 001 §2, §4, §5, §7, §8, §9) over real HTTP.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type RunningSandbox, startSandbox } from '../../src/sandbox';
import type { SandboxDescriptor } from '../../src/sandbox/descriptor';
import { type Json, basicHeaders, fundraising } from './helpers';

let sandbox: RunningSandbox;
let d: SandboxDescriptor;
let clock = Date.UTC(2026, 0, 1, 12);

before(async () => {
  sandbox = await startSandbox({ constituents: 130, transactions: 240, now: () => clock });
  d = sandbox.descriptor;
});
after(() => sandbox.close());

const jwtHeaders = (token: string): Record<string, string> => ({ authorization: `Bearer ${token}`, 'content-type': 'application/json' });
async function mint(sub: string, expiresInSeconds?: number): Promise<string> {
  const response = await fetch(d.credentials.fundraising.jwt.mintUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ sub, expiresInSeconds }) });
  return ((await response.json()) as Json)['token'] as string;
}

void describe('fundraising authentication (seed 001 §5, §7)', () => {
  void it('001 §5.1: Basic permission:serviceKey with the X-API-Key tenant code is accepted (rule 001-5.1-basic-credentials)', async () => {
    assert.equal((await fundraising(d, '/v1/constituents?limit=1')).status, 200);
  });

  void it('001 §5.1 rule 4: a missing X-API-Key or Authorization header is 401 (rule 001-5.1-missing-credentials)', async () => {
    const { 'x-api-key': _key, ...noTenant } = basicHeaders(d);
    const { authorization: _auth, ...noAuth } = basicHeaders(d);
    assert.equal((await fundraising(d, '/v1/constituents', { headers: noTenant })).status, 401);
    assert.equal((await fundraising(d, '/v1/constituents', { headers: noAuth })).status, 401);
  });

  void it('001 §5.1 rule 4: a wrong tenant code or service key is 401', async () => {
    const full = d.credentials.fundraising.fullAccess;
    assert.equal((await fundraising(d, '/v1/constituents', { headers: basicHeaders(d, full, 'TENANT-NOPE') })).status, 401);
    assert.equal((await fundraising(d, '/v1/constituents', { headers: basicHeaders(d, { ...full, serviceKey: 'sk_wrong' }) })).status, 401);
  });

  void it('001 §5.1 rule 5: a read-only permission may read but a POST is 403 (rule 001-5.1-permission)', async () => {
    const readOnly = basicHeaders(d, d.credentials.fundraising.readOnly);
    assert.equal((await fundraising(d, '/v1/constituents', { headers: readOnly })).status, 200);
    const post = await fundraising(d, '/v1/lists', { method: 'POST', headers: readOnly, body: { name: 'Denied' } });
    assert.equal(post.status, 403);
  });

  void it('001 §5.1 rule 3: a record limited to an IP range that excludes the caller is 403 even with valid credentials (rule 001-5.1-ip-range)', async () => {
    const record = d.credentials.fundraising.ipRestricted;
    assert.equal(record.allowedRange, '10.0.0.0/8');
    const { status, body } = await fundraising(d, '/v1/constituents', { headers: basicHeaders(d, record) });
    assert.equal(status, 403);
    assert.match(String(body['detail']), /outside the range/);
  });

  void it('001 §5.2: a JWT bearer acts for the user; the role decides (viewer may not create) (rule 001-5.2-jwt)', async () => {
    assert.equal((await fundraising(d, '/v1/constituents?limit=1', { headers: jwtHeaders(d.credentials.fundraising.jwt.token) })).status, 200);
    const viewer = await mint('vic.viewer@sandbox.test');
    assert.equal((await fundraising(d, '/v1/constituents?limit=1', { headers: jwtHeaders(viewer) })).status, 200);
    assert.equal((await fundraising(d, '/v1/lists', { method: 'POST', headers: jwtHeaders(viewer), body: { name: 'x' } })).status, 403);
  });

  void it('001 §5.2: an expired or tampered JWT is 401 (exp honoured)', async () => {
    const short = await mint('alex.fundraiser@sandbox.test', 60);
    assert.equal((await fundraising(d, '/v1/lookup-types', { headers: jwtHeaders(short) })).status, 200);
    clock += 61_000;
    assert.equal((await fundraising(d, '/v1/lookup-types', { headers: jwtHeaders(short) })).status, 401);
    const [h, , s] = d.credentials.fundraising.jwt.token.split('.');
    const forged = `${h}.${Buffer.from(JSON.stringify({ sub: 'x', tenant: d.credentials.fundraising.tenantCode, role: 'fundraiser', exp: 9e9 })).toString('base64url')}.${s}`;
    assert.equal((await fundraising(d, '/v1/lookup-types', { headers: jwtHeaders(forged) })).status, 401);
  });
});

void describe('fundraising endpoints, later release shapes (seed 001 §2, §4, §9)', () => {
  void it('001 §4: POST /v1/constituents returns 201, a Location header and the single-read shape with channelPreferences only (rule 001-4-create-constituent)', async () => {
    const { status, body, headers } = await fundraising(d, '/v1/constituents', { method: 'POST', body: { firstName: 'Nia', lastName: 'Okoro', email: 'nia@example.test' } });
    assert.equal(status, 201);
    assert.equal(headers.get('location'), `${d.fundraising.baseUrl}/v1/constituents/${String(body['constituentId'])}`);
    assert.ok(Array.isArray(body['channelPreferences']));
    assert.equal('contactDetails' in body, false);
    const read = await fundraising(d, `/v1/constituents/${String(body['constituentId'])}?include=channelPreferences`);
    assert.deepEqual(read.body, body);
  });

  void it('001 §2: creating a household returns its mainContact (rule 001-2-household-main-contact)', async () => {
    const { body } = await fundraising(d, '/v1/constituents', { method: 'POST', body: { type: 'household', name: 'The Okoro Household', mainContact: { firstName: 'Nia', lastName: 'Okoro' } } });
    assert.equal((body['mainContact'] as Json)['lastName'], 'Okoro');
    assert.equal(typeof (body['mainContact'] as Json)['constituentNumber'], 'string');
  });

  void it('001 §4: GET /v1/constituents/{id} honours the four include values and rejects others (rule 001-4-constituent-includes)', async () => {
    const { body } = await fundraising(d, `/v1/constituents/${d.samples.constituentId}?include=channelPreferences,trackingCodes&include=contactDetails,givingSummary`);
    for (const key of ['channelPreferences', 'trackingCodes', 'contactDetails', 'givingSummary']) assert.ok(key in body, key);
    assert.equal((await fundraising(d, `/v1/constituents/${d.samples.constituentId}?include=softCredits`)).status, 400);
    assert.equal((await fundraising(d, '/v1/constituents/99999999')).status, 404);
  });

  void it('001 §4: duplicate-check matches carry constituentNumber (rule 001-4-duplicate-check)', async () => {
    const existing = (await fundraising(d, `/v1/constituents/${d.samples.constituentId}`)).body;
    const { body } = await fundraising(d, '/v1/constituents/duplicate-check', { method: 'POST', body: { email: existing['email'] as unknown } });
    const matches = body['matches'] as Json[];
    assert.ok(matches.length >= 1);
    assert.equal(matches[0]?.['constituentNumber'], existing['constituentNumber']);
  });

  void it('001 §4: GET /v1/transactions/{id} always carries allocations; trackingCodes and softCredits on include (rule 001-4-transaction-read)', async () => {
    const plain = await fundraising(d, `/v1/transactions/${d.samples.transactionId}`);
    assert.ok(Array.isArray(plain.body['allocations']));
    assert.equal('trackingCodes' in plain.body, false);
    const expanded = await fundraising(d, `/v1/transactions/${d.samples.transactionId}?include=trackingCodes,softCredits`);
    assert.ok('trackingCodes' in expanded.body && 'softCredits' in expanded.body);
    assert.ok('giftAidStatusDetails' in plain.body && 'dateAdded' in plain.body && 'dateChanged' in plain.body);
  });

  void it('001 §4: POST /v1/transactions accepts giftAid, canRecoverTax and utm fields; 201 + Location + the full payment without mainContactConstituentId or giftAidDeclarationId (rule 001-4-create-payment)', async () => {
    const { status, body, headers } = await fundraising(d, '/v1/transactions', {
      method: 'POST',
      body: {
        constituentId: Number(d.samples.constituentId), amount: 25,
        allocations: [{ fundCode: 'GENERAL', amount: 25, canRecoverTax: true }],
        giftAid: { addDeclaration: true, declarationMethod: 'Online' },
        utmSource: 'newsletter', utmMedium: 'email', utmCampaign: 'spring',
      },
    });
    assert.equal(status, 201);
    assert.equal(headers.get('location'), `${d.fundraising.baseUrl}/v1/transactions/${String(body['transactionId'])}`);
    assert.equal((body['allocations'] as Json[])[0]?.['canRecoverTax'], true);
    assert.equal('mainContactConstituentId' in body, false);
    assert.equal('giftAidDeclarationId' in body, false);
    const read = await fundraising(d, `/v1/transactions/${String(body['transactionId'])}`);
    assert.deepEqual(read.body, body, 'the create answer is the single-read shape');
    const tracked = await fundraising(d, `/v1/transactions/${String(body['transactionId'])}?include=trackingCodes`);
    assert.equal((tracked.body['trackingCodes'] as Json)['utmSource'], 'newsletter');
  });

  void it('001 §4: GET /v1/transactions filters on dateAdded and dateChanged, and include=allocations expands the list (rule 001-4-transaction-list)', async () => {
    const all = await fundraising(d, '/v1/transactions?limit=500');
    const since = String(((all.body['value'] as Json[])[100] as Json)['dateAdded']);
    const filtered = await fundraising(d, `/v1/transactions?limit=500&dateAdded=${encodeURIComponent(since)}`);
    assert.ok((filtered.body['count'] as number) < (all.body['count'] as number));
    assert.ok((filtered.body['value'] as Json[]).every((t) => String(t['dateAdded']) >= since));
    const changed = await fundraising(d, `/v1/transactions?limit=500&dateChanged=${encodeURIComponent(since)}`);
    assert.ok((changed.body['value'] as Json[]).every((t) => String(t['dateChanged']) >= since));
    assert.equal('allocations' in ((all.body['value'] as Json[])[0] ?? {}), false);
    const expanded = await fundraising(d, '/v1/transactions?limit=5&include=allocations');
    assert.ok((expanded.body['value'] as Json[]).every((t) => Array.isArray(t['allocations'])));
    assert.equal((await fundraising(d, '/v1/transactions?dateAdded=yesterday')).status, 400);
  });

  void it('001 §4: POST /v1/lists returns the definition with listDefinitionId and a Location header; GET reads it (rule 001-4-create-list)', async () => {
    const { status, body, headers } = await fundraising(d, '/v1/lists', { method: 'POST', body: { name: 'Major donors' } });
    assert.equal(status, 201);
    assert.equal(headers.get('location'), `${d.fundraising.baseUrl}/v1/lists/${String(body['listDefinitionId'])}`);
    assert.deepEqual((await fundraising(d, `/v1/lists/${String(body['listDefinitionId'])}`)).body, body);
    assert.equal((await fundraising(d, `/v1/lists/${d.samples.listDefinitionId}`)).status, 200);
  });

  void it('001 §4: the lookup-types language filter matches the language code exactly (rule 001-4-lookup-language)', async () => {
    const en = await fundraising(d, '/v1/lookup-types?language=en');
    const enGb = await fundraising(d, '/v1/lookup-types?language=en-GB');
    assert.ok((en.body['value'] as Json[]).every((t) => t['language'] === 'en'));
    assert.ok((enGb.body['value'] as Json[]).every((t) => t['language'] === 'en-GB'));
    assert.ok((en.body['count'] as number) > 0 && (enGb.body['count'] as number) > (en.body['count'] as number));
  });

  void it('001 §4: /openapi/v1.json describes exactly the served endpoints, the paging parameters and the security schemes (rule 001-4-openapi)', async () => {
    const response = await fetch(`${d.fundraising.baseUrl}/openapi/v1.json`);
    const doc = (await response.json()) as Json;
    assert.equal(doc['openapi'], '3.0.3');
    const paths = doc['paths'] as Record<string, Json>;
    const operations = Object.entries(paths).flatMap(([p, m]) => Object.keys(m).map((method) => `${method.toUpperCase()} ${p}`)).sort();
    assert.deepEqual(operations, [
      'GET /v1/constituents', 'GET /v1/constituents/{constituentId}', 'GET /v1/lists/{listDefinitionId}', 'GET /v1/lookup-types',
      'GET /v1/transactions', 'GET /v1/transactions/{transactionId}', 'POST /v1/constituents', 'POST /v1/constituents/duplicate-check',
      'POST /v1/lists', 'POST /v1/transactions',
    ]);
    const listParams = ((paths['/v1/constituents'] as Json)['get'] as Json)['parameters'] as Json[];
    assert.deepEqual(listParams.map((p): unknown => p['name']), ['limit', 'offset']);
    assert.deepEqual(Object.keys((doc['components'] as Json)['securitySchemes'] as Json).sort(), ['basicAuth', 'bearerAuth', 'tenantCode']);
    const page = await fetch(`${d.fundraising.baseUrl}/swagger/index.html`);
    assert.match(await page.text(), /GET \/v1\/transactions/);
  });
});

void describe('fundraising list paging and rate limit (seed 001 §4, §8; names chosen by the sandbox)', () => {
  void it('generic walk: limit/offset with {count, value, next_link} until next_link is null (rule 001-4-list-conventions)', async () => {
    const seen = new Set<number>();
    let url: string | null = `${d.fundraising.baseUrl}/v1/constituents?limit=50`;
    let pages = 0;
    let count = 0;
    while (url) {
      const { body } = await fundraising(d, url);
      pages++;
      count = body['count'] as number;
      (body['value'] as Json[]).forEach((c) => seen.add(c['constituentId'] as number));
      url = body['next_link'] as string | null;
    }
    assert.equal(seen.size, count);
    assert.ok(count >= d.samples.constituents);
    assert.equal(pages, Math.ceil(count / 50));
  });

  void it('limit outside 1..500 is 400', async () => {
    assert.equal((await fundraising(d, '/v1/constituents?limit=501')).status, 400);
    assert.equal((await fundraising(d, '/v1/constituents?limit=0')).status, 400);
  });

  void it('001 §8: rate limiting answers 429 with Retry-After when --rate-limit is set (rule 001-8-rate-limit)', async () => {
    let now = Date.UTC(2026, 0, 1);
    const limited = await startSandbox({ rateLimitPerSecond: 2, now: () => now });
    try {
      const ld = limited.descriptor;
      const statuses = [];
      for (let i = 0; i < 3; i++) statuses.push((await fundraising(ld, '/v1/lookup-types')).status);
      assert.deepEqual(statuses, [200, 200, 429]);
      const refused = await fundraising(ld, '/v1/lookup-types');
      assert.equal(refused.headers.get('retry-after'), '1');
      now += 1000;
      assert.equal((await fundraising(ld, '/v1/lookup-types')).status, 200);
    } finally {
      await limited.close();
    }
  });
});
