// Contract fidelity, written as rules: for each point, what the contract publishes (or that it says
// "not shown"), what the catalog says, and what the sandbox answers over real HTTP on 127.0.0.1. A
// point the contract leaves open is answered permissively, or by a labelled sandbox choice
// (X-Sandbox-Choice) that can be switched; the language server mentions it as information at most.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createCatalog, type Operation } from '../../src/core/catalog';
import { jsonSchemaOf, requestBodyJsonSchema } from '../../src/core/catalog/jsonSchema';
import { engagementService } from '../../src/core/catalog/engagement';
import { type RunningSandbox, startSandbox } from '../../src/sandbox';
import type { SandboxDescriptor } from '../../src/sandbox/descriptor';
import { diagnostics, hoverText, survey } from '../unit/languageServiceFixture';
import { type Json, bearer, engagementGet, engagementPost, fundraising, signIn, tokenRequest, startSignedIn } from './helpers';

const catalog = createCatalog();
let sandbox: RunningSandbox;
let d: SandboxDescriptor;
let token: string;

before(async () => ({ sandbox, d, token } = await startSignedIn({ orders: 10, leads: 30, facts: 7, bidwTransientEvery: 0 })));
after(() => sandbox.close());

const base = { ErrorMessage: 'Please answer', OpCode: 42, QuestionLabel: 'How was your stay?', QuestionSubType: 'Single', QuestionType: 'Choice' };
const add = (operation: string, body: unknown, extra: Record<string, string> = {}) => engagementPost(d, token, `/api/SurveyApi/${operation}`, body, extra);
const choicesOf = (headers: Headers): string[] => (headers.get('x-sandbox-choice') ?? '').split(',').map((c) => c.trim()).filter((c) => c !== '');
const op = (id: string): Operation => {
  const found = catalog.operationById(id);
  assert.ok(found, id);
  return found;
};
const survey$ = (name: string): Operation => op(`engagement/SurveyApi/${name}`);

/** Every sentence the catalog says: summaries, not-shown lists, field descriptions of every schema. */
function catalogTexts(): string[] {
  const texts: string[] = [];
  const walk = (value: unknown): void => {
    if (typeof value === 'string') texts.push(value);
    else if (Array.isArray(value)) value.forEach(walk);
    else if (typeof value === 'object' && value !== null) Object.values(value).forEach(walk);
  };
  for (const service of catalog.services) {
    walk([service.summary, service.notShown, service.tokenEndpoint?.notShown, service.release]);
    if (service.tokenEndpoint) walk(jsonSchemaOf(service.tokenEndpoint.responseBody));
    for (const family of service.families) {
      walk([family.summary, family.notShown]);
      for (const operation of family.operations) {
        walk([operation.summary, operation.notShown, operation.query]);
        if (operation.requestBody) walk(jsonSchemaOf(operation.requestBody));
        if (operation.responseBody) walk(jsonSchemaOf(operation.responseBody));
      }
    }
  }
  return texts;
}

void describe('Why 1: enum lists are not treated as complete (seed 000 §2.2)', () => {
  void it('rule 000-2.2-enums-open: completeness not shown → the catalog and the sandbox accept ScoreRange 2, KnownType 7, OptinChannels [4]', async () => {
    const cases: [string, Json][] = [
      ['AddFeedbackScoreQuestion', { ...base, ScoreRange: 2 }],
      ['AddKnownQuestion', { ...base, KnownType: 7 }],
      ['AddMultiChannelsOptinQuestion', { ...base, OptinChannels: [4] }],
    ];
    for (const [operation, body] of cases) {
      assert.ok(survey$(operation).requestBody?.safeParse(body).success, `catalog accepts ${JSON.stringify(body)}`);
      const { status, body: out } = await add(operation, body);
      assert.equal(status, 200, operation);
      assert.equal(out['ResponseStatus'], true, `${operation}: ${JSON.stringify(out)}`);
      assert.deepEqual(out['Errors'], []);
      const found = diagnostics(survey(operation, JSON.stringify(body)));
      assert.deepEqual(found.filter((x) => x.severity === 1 || x.severity === 2), [], 'no warning or error from the language server');
    }
  });

  void it('rule 000-2.1-question-type-values: allowed QuestionType and QuestionSubType values are not shown → any string is accepted', async () => {
    const { body } = await add('AddLabelQuestion', { ...base, QuestionType: 'Anything at all', QuestionSubType: '¿?' });
    assert.equal(body['ResponseStatus'], true);
  });

  void it('rule 000-2.2-contact-fields: ContactInformationField fields and fields after PrivacyPolicyText are not shown → accepted', async () => {
    const { body } = await add('AddNameAndAddressQuestion', { ...base, ContactInformationFields: [{ Field: 'Email', Required: true }], PrivacyPolicyText: 'x', ShowMap: true });
    assert.equal(body['ResponseStatus'], true);
  });
});

void describe('Why 2: required fields are not asserted (seed 000 §4.1: not shown)', () => {
  void it('rule 000-4.1-required-fields: by default no code 1; the required-fields choice (run option or request header) answers code 1, labelled; the language server only informs', async () => {
    const bare = { Choices: [{ ID: 1 }, { ID: 2, Label: '' }] };
    const permissive = await add('AddChoiceQuestion', bare);
    assert.equal(permissive.status, 200);
    assert.equal(permissive.body['ResponseStatus'], true, JSON.stringify(permissive.body));
    assert.ok(!choicesOf(permissive.headers).includes('required-fields'));
    assert.equal(d.choices['required-fields'], false, 'off by default');

    const chosen = await add('AddChoiceQuestion', bare, { 'x-sandbox-choice': 'required-fields=on' });
    assert.equal(chosen.status, 200);
    assert.equal(chosen.body['ResponseStatus'], false);
    const [error] = chosen.body['Errors'] as Json[];
    assert.equal(error?.['ErrorCode'], 1);
    assert.equal(error?.['ErrorDescription'], 'Missing mandatory fields: ErrorMessage, OpCode, QuestionLabel, QuestionSubType, QuestionType, Choices[0].Label');
    assert.ok(choicesOf(chosen.headers).includes('required-fields'), 'the answer names the choice');
    const emptyStrings = await add('AddChoiceQuestion', { ...base, QuestionLabel: '', Choices: [{ Label: '' }] }, { 'x-sandbox-choice': 'required-fields' });
    assert.equal(emptyStrings.body['ResponseStatus'], true, 'an empty string is a value, not a missing field');

    const run = await startSandbox({ choices: { 'required-fields': true } });
    try {
      const runToken = await signIn(run.descriptor);
      const answer = await engagementPost(run.descriptor, runToken, '/api/SurveyApi/AddLabelQuestion', { OpCode: 1 });
      assert.equal((answer.body['Errors'] as Json[])[0]?.['ErrorCode'], 1);
      const off = await engagementPost(run.descriptor, runToken, '/api/SurveyApi/AddLabelQuestion', { OpCode: 1 }, { 'x-sandbox-choice': 'required-fields=off' });
      assert.equal(off.body['ResponseStatus'], true, 'a request switches it off for itself');
    } finally {
      await run.close();
    }

    const found = diagnostics(survey('AddChoiceQuestion', JSON.stringify(bare)));
    assert.ok(found.every((x) => x.severity === 3 || x.code === 'wrong-type'), JSON.stringify(found));
    const info = found.find((x) => x.code === 'missing-mandatory');
    assert.equal(info?.severity, 3, 'information, never a warning');
    assert.match(info?.message ?? '', /not shown \(customer-engagement contract §4\.1\).*required-fields choice/);
    assert.doesNotMatch(hoverText(`POST {{engagement_base_url}}/api/SurveyApi/AddLabelQuestion\nContent-Type: application/json\n\n{ "Op|Code": 1 }\n`), /Treated as mandatory|the service answers code 1/);
  });
});

void describe('Why 3: code meanings are not stretched (seed 000 §7.1–7.3)', () => {
  void it('rule 000-7.3-code-meanings: a wrongly typed field is not code 16, duplicate choice ids are not code 17', async () => {
    const wrong = await add('AddLabelQuestion', { ...base, OpCode: 'forty-two' });
    assert.equal(wrong.status, 404, 'the published meaning of 404: invalid parameters');
    assert.deepEqual(choicesOf(wrong.headers), ['invalid-parameters', 'error-bodies']);
    assert.match(String(wrong.body['Message']), /OpCode/);
    const duplicates = await add('AddChoiceQuestion', { ...base, Choices: [{ ID: 1, Label: 'a' }, { ID: 1, Label: 'b' }] });
    assert.equal(duplicates.body['ResponseStatus'], true, JSON.stringify(duplicates.body));
    for (const answer of [wrong, duplicates]) {
      const codes = ((answer.body['Errors'] ?? []) as Json[]).map((e): unknown => e['ErrorCode']);
      assert.ok(!codes.includes(16) && !codes.includes(17), JSON.stringify(answer.body));
    }
  });

  void it('rule 000-2.1-field-types: the published types are read as the catalog types them; a wrong type is the invalid-parameters choice, switchable off', async () => {
    const nulls = await add('AddLabelQuestion', { ...base, IsMandatory: null, PageID: null, QuestionID: null, QuestionPosition: null });
    assert.equal(nulls.body['ResponseStatus'], true, 'nullable fields accept null');
    for (const body of [{ ...base, IsMandatory: 'yes' }, { ...base, PageID: 1.5 }, [1, 2], '{"OpCode":']) {
      const answer = await add('AddLabelQuestion', body);
      assert.equal(answer.status, 404, JSON.stringify(body));
      assert.ok(choicesOf(answer.headers).includes('invalid-parameters'));
    }
    const off = await add('AddLabelQuestion', { ...base, IsMandatory: 'yes' }, { 'x-sandbox-choice': 'invalid-parameters=off' });
    assert.equal(off.status, 200);
    assert.equal(off.body['ResponseStatus'], true);
    assert.ok(!survey$('AddLabelQuestion').requestBody?.safeParse({ ...base, IsMandatory: 'yes' }).success, 'the same schema the sandbox uses rejects the type');
  });

  void it('rule 000-7.2-catalogue-per-family: GetOrdersByCustomer never answers "Invalid CtcID"; an unknown customer has no history (a successful empty list)', async () => {
    const { status, body } = await engagementGet(d, token, `/api/Transaction/GetOrdersByCustomer?ctcID=${d.samples.unknownCtcID}`);
    assert.equal(status, 200);
    assert.equal(body['Response'], true);
    assert.deepEqual(body['Orders'], []);
    assert.deepEqual(body['Errors'], []);
    assert.equal(op('engagement/Transaction/GetOrdersByCustomer').errorCatalogue, undefined, 'no catalogue is published for it');
  });

  void it('rule 000-7.1-brand-denial: GetLeads never answers a brand denial with 403; the labelled brand-denial choice borrows the published 200 + code 3, and can be switched off', async () => {
    const request = { CtcID: d.samples.ctcID, BrandID: d.samples.deniedBrandID, PageSize: 10, Offset: 0 };
    const denied = await engagementPost(d, token, '/api/SalesLeads/GetLeads', request);
    assert.equal(denied.status, 200);
    assert.equal(denied.body['ResponseStatus'], false);
    assert.deepEqual(denied.body['Errors'], [{ ErrorCode: 3, ErrorDescription: 'Not authorized to use the brand requested or brand id is missing' }]);
    assert.ok(choicesOf(denied.headers).includes('brand-denial'));
    const unchecked = await engagementPost(d, token, '/api/SalesLeads/GetLeads', request, { 'x-sandbox-choice': 'brand-denial=off' });
    assert.equal(unchecked.status, 200);
    assert.ok(Array.isArray(unchecked.body['_Leads']));
    assert.equal(unchecked.body['ResponseStatus'], undefined);
  });

  void it('rule 000-4.1-error-bodies: bodies of 401/403/404/500 are not shown → the {Message} body is a labelled choice; off gives an empty body', async () => {
    const labelled = await fetch(`${d.engagement.baseUrl}/api/LoyaltyProgram/Get`);
    assert.equal(labelled.status, 401);
    assert.deepEqual(choicesOf(labelled.headers), ['error-bodies']);
    assert.ok(((await labelled.json()) as Json)['Message']);
    const empty = await fetch(`${d.engagement.baseUrl}/api/LoyaltyProgram/Get`, { headers: { 'x-sandbox-choice': 'error-bodies=off' } });
    assert.equal(empty.status, 401);
    assert.equal(await empty.text(), '');
    assert.equal(empty.headers.get('x-sandbox-choice'), null);
  });
});

void describe('Why 4: no statement the contracts do not make', () => {
  void it('rule 000-7.4-token-error-layout: token error status and layout are not shown → no error schema in the catalog; the sandbox labels its 400 layout', async () => {
    const endpoint = engagementService.tokenEndpoint;
    assert.ok(endpoint);
    assert.ok(!('errorBody' in endpoint), 'no token error body schema');
    assert.ok(endpoint.notShown.some((n) => /HTTP status and body layout of token errors: not shown/.test(n)));
    const response = await tokenRequest(d, { grant_type: 'password', username: d.credentials.engagement.username, password: 'wrong' });
    assert.equal(response.status, 400);
    assert.ok(choicesOf(response.headers).includes('token-errors'));
    assert.equal(((await response.json()) as Json)['error'], 'invalid_grant', 'the published error value');
  });

  void it('rule 000-5.1-expires-in-unit: the unit of expires_in is not stated → the catalog does not say seconds; the sandbox labels its seconds', async () => {
    const response = await tokenRequest(d, { grant_type: 'password', username: d.credentials.engagement.username, password: d.credentials.engagement.password });
    assert.equal(response.status, 200);
    assert.deepEqual(choicesOf(response.headers), ['expires-in-seconds']);
    assert.doesNotMatch(catalogTexts().join('\n'), /in seconds/i);
  });

  void it('rule 000-5.3-lifetime: the default token lifetime is 72 hours (reported in the sandbox\'s seconds)', async () => {
    const response = await tokenRequest(d, { grant_type: 'password', username: d.credentials.engagement.username, password: d.credentials.engagement.password });
    assert.equal(((await response.json()) as Json)['expires_in'], 72 * 3600);
  });

  void it('rule 001-8-rate-limit: rate-limit values are not shown and nothing says to honour Retry-After → no 429 by default; with --rate-limit the 429 is labelled', async () => {
    assert.doesNotMatch(catalogTexts().join('\n'), /honou?r Retry-After/i);
    const burst = await Promise.all(Array.from({ length: 12 }, () => fundraising(d, '/v1/lookup-types')));
    assert.deepEqual([...new Set(burst.map((r) => r.status))], [200]);
    assert.equal(d.choices['rate-limit'], false);
    const limited = await startSandbox({ rateLimitPerSecond: 1, now: () => 1_000 });
    try {
      await fundraising(limited.descriptor, '/v1/lookup-types');
      const second = await fundraising(limited.descriptor, '/v1/lookup-types');
      assert.equal(second.status, 429);
      assert.ok(choicesOf(second.headers).includes('rate-limit'));
    } finally {
      await limited.close();
    }
  });

  void it('rule 000-4.2-extraction-end: how an extraction ends is not published → the catalog does not say "an empty list is the end"; the sandbox labels its empty final list', async () => {
    assert.doesNotMatch(catalogTexts().join('\n'), /empty list is the end/i);
    const own = await signIn(d);
    let last: Awaited<ReturnType<typeof engagementPost>> | undefined;
    for (let call = 0; call < 5; call++) {
      last = await engagementPost(d, own, '/api/BIDWHouse/GetFactTransactions', { PageSize: 5 });
      if ((last.body['FactTransactions'] as Json[]).length === 0) break;
      assert.ok(!choicesOf(last.headers).includes('extraction-end'));
    }
    assert.deepEqual(last?.body['FactTransactions'], []);
    assert.ok(choicesOf(last?.headers ?? new Headers()).includes('extraction-end'));
  });

  void it('rule 000-4.2-paths-not-shown: the paging operations\' paths are not shown → the catalog marks them inferred, the language server informs, the sandbox labels its answers', async () => {
    for (const id of ['engagement/SalesLeads/GetLeads', 'engagement/Selection/GetSelectionResult_Ext', 'engagement/CustomerAsset/GetAssets', 'engagement/BIDWHouse/GetFactTransactions']) {
      assert.equal(op(id).pathStatus, 'inferred', id);
    }
    const request = 'POST {{engagement_base_url}}/api/SalesLeads/GetLeads\nContent-Type: application/json\n\n{ "PageSize": 10, "Offset": 0 }\n';
    // Said once per request (a CodeLens and the request-line hover), never as a warning or error.
    assert.deepEqual(diagnostics(request), []);
    assert.match(hoverText(request.replace('POST', 'PO|ST')), /\*\*Contract not published\*\* \(customer-engagement contract §4\.2\):\n- The path of SalesLeads\/GetLeads is not shown/);
    const answer = await engagementPost(d, token, '/api/SalesLeads/GetLeads', { CtcID: d.samples.ctcID, BrandID: d.samples.brandID, PageSize: 5, Offset: 0 });
    assert.equal(answer.status, 200);
    assert.deepEqual(choicesOf(answer.headers), ['inferred-paths']);
    const unusable = await engagementPost(d, token, '/api/SalesLeads/GetLeads', { CtcID: d.samples.ctcID, BrandID: d.samples.brandID, PageSize: 0 });
    assert.equal(unusable.status, 400);
    assert.deepEqual(choicesOf(unusable.headers), ['inferred-paths']);
  });

  void it('rule 001-4-list-conventions: list parameter names and layout are not shown → every answer using the sandbox\'s names is labelled', async () => {
    const list = await fundraising(d, '/v1/constituents?limit=2');
    assert.deepEqual(Object.keys(list.body), ['count', 'value', 'next_link']);
    assert.ok(choicesOf(list.headers).includes('fundraising-conventions'));
    assert.ok(op('fundraising/Constituents/ListConstituents').notShown.some((n) => /Names of the pagination.*not shown/.test(n)));
  });
});

void describe('Why 5: PostOrder answers as a supported operation (seed 000 §9)', () => {
  void it('rule 000-9-post-order: PostOrder is supported and distinct from Post; bodies not shown → HTTP 200 with an empty body, labelled; Post stays deprecated', async () => {
    const postOrder = op('engagement/Transaction/PostOrder');
    assert.equal(postOrder.deprecated, undefined);
    assert.ok(postOrder.notShown.includes('Request and response bodies: not shown.'));
    for (const body of ['{"anything": [1, 2]}', '']) {
      const response = await fetch(`${d.engagement.baseUrl}/api/Transaction/PostOrder`, { method: 'POST', headers: bearer(token), body });
      assert.equal(response.status, 200);
      assert.deepEqual(choicesOf(response.headers), ['unpublished-body']);
      assert.equal(await response.text(), '');
    }
    assert.equal((await fetch(`${d.engagement.baseUrl}/api/Transaction/PostOrder`, { method: 'POST', body: '{}' })).status, 401, 'a token is still needed');
    const post = await fetch(`${d.engagement.baseUrl}/api/Transaction/Post`, { method: 'POST', headers: bearer(token), body: '{}' });
    assert.equal(post.status, 404);
    assert.equal(post.headers.get('deprecation'), 'true');
  });
});

void describe('Why 6: release facts are shown where they matter', () => {
  void it('rule 000-9-release: the engagement contract is release 1.34.0.0, non-production runs 1.35, compatibility unverified; the service and every engagement hover say so', () => {
    const release = catalog.service('engagement').release;
    assert.ok(release);
    assert.match(release.summary, /release 1\.34\.0\.0 \(non-production runs 1\.35; compatibility unverified\)/);
    assert.deepEqual(release.source, { seed: '000', section: '9' });
    const hover = hoverText('GET {{engagement_base_url}}/api/Transaction/GetOrd|ersByCustomer?ctcID=1\n');
    assert.match(hover, /release 1\.34\.0\.0/);
    assert.match(hover, /1\.35; compatibility unverified/);
  });

  void it('rule 001-9-releases: changes are identified by production release date, same-day releases combined; operations and fields carry their release', () => {
    const release = catalog.service('fundraising').release;
    assert.ok(release);
    assert.ok(release.facts.some((f) => /production release date/.test(f)));
    assert.ok(release.facts.some((f) => /same day are combined/.test(f)));
    assert.ok(release.facts.some((f) => /dates are not shown/.test(f)), 'no date is invented');
    assert.equal(op('fundraising/Transactions/ListTransactions').release?.introduced?.label, 'later release');
    assert.equal(op('fundraising/Transactions/GetTransaction').release?.introduced?.label, 'later release');
    assert.equal(op('fundraising/Constituents/ListConstituents').release?.introduced?.label, 'first public release');
    const create = op('fundraising/Transactions/CreateTransaction');
    assert.equal(create.release?.changed?.label, 'later release');
    assert.deepEqual(create.release?.removedResponseFields?.map((f) => f.name), ['mainContactConstituentId', 'giftAidDeclarationId']);
    const utm = (requestBodyJsonSchema(create)?.properties?.['utmSource'] ?? {}) as Json;
    assert.equal((utm['release'] as { introduced?: { label?: string } } | undefined)?.introduced?.label, 'later release');
    const opHover = hoverText('GET {{fundraising_base_url}}/v1/transac|tions\n');
    assert.match(opHover, /introduced in the later release \(fundraising contract §9\.3; dates not shown\)/);
    const fieldHover = hoverText('POST {{fundraising_base_url}}/v1/transactions\nContent-Type: application/json\n\n{ "utmSo|urce": "mail" }\n');
    assert.match(fieldHover, /introduced in the later release/);
  });
});

void describe('the request log names the rules and choices of each answer', () => {
  void it('GET /__sandbox/requests: rules carry their seed section, choices the same ids as X-Sandbox-Choice', async () => {
    await fetch(`${d.engagement.baseUrl}/__sandbox/requests`, { method: 'DELETE' });
    await add('AddLabelQuestion', { ...base, OpCode: 'x' });
    await add('AddLabelQuestion', {});
    const log = (await (await fetch(`${d.engagement.baseUrl}/__sandbox/requests`)).json()) as Json[];
    assert.deepEqual(log.map((e): unknown => e['choices']), [['invalid-parameters', 'error-bodies'], undefined]);
    assert.ok((log[0]?.['rules'] as string[]).includes('seed 000 §7.1: 404: invalid parameters'));
    assert.ok((log[1]?.['rules'] as string[]).includes('seed 000 §4.1: an empty input parameter gives code 12'));
  });

  void it('an unknown or fixed choice in X-Sandbox-Choice is a 400 saying what is accepted', async () => {
    const unknown = await add('AddLabelQuestion', base, { 'x-sandbox-choice': 'be-nice' });
    assert.equal(unknown.status, 400);
    assert.match(String(unknown.body['Message']), /required-fields/);
    const fixed = await add('AddLabelQuestion', base, { 'x-sandbox-choice': 'token-errors=off' });
    assert.equal(fixed.status, 400);
    assert.match(String(fixed.body['Message']), /cannot be switched/);
  });
});
