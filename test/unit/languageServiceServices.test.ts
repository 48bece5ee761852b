// Language-service fixtures for the other services and for the request line, headers, variables,
// directives, deprecations, removed fields, CodeLens, outline and folding. `|` marks the cursor.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { codes, completionLabels, completions, diagnostics, hoverText, MANDATORY, outline, survey } from './languageServiceFixture';

const orders = (query: string): string => `GET {{engagement_base_url}}/api/Transaction/GetOrdersByCustomer?${query}\nAuthorization: Bearer {{$auth.token("engagement")}}\n`;
const leads = (body: string): string => `POST {{engagement_base_url}}/api/SalesLeads/GetLeads\nContent-Type: application/json\n\n${body}\n`;
const payment = (body: string): string => `# @name pay\nPOST {{fundraising_base_url}}/v1/transactions\nX-API-Key: {{tenant_code}}\nContent-Type: application/json\n\n${body}\n`;

// ---- engagement: GetOrdersByCustomer (query, page-number paging) ----

void test('GetOrdersByCustomer: completion of query parameters not yet present', () => {
  assert.deepEqual(completionLabels(orders('ctcID=7&|')), ['pageNumber', 'pageSize']);
  assert.deepEqual(completionLabels('GET {{engagement_base_url}}/api/Transaction/GetOrdersByCustomer\n  ?ctcID=7\n  &page|'), ['pageNumber', 'pageSize']);
});

void test('GetOrdersByCustomer: hover on pageSize gives default, range and seed section', () => {
  const text = hoverText(orders('ctcID=7&page|Size=100'));
  assert.match(text, /pageSize.*default 50, minimum 1, maximum 500/);
  assert.match(text, /capped at 500/);
  assert.match(text, /customer-engagement contract §8/);
});

void test('GetOrdersByCustomer: hover on the request line names the paging style', () => {
  assert.match(hoverText(orders('ctc|ID=7').replace('ctc|ID', 'ctcID').replace('GET ', 'G|ET ')), /paging: page-number/);
});

void test('GetOrdersByCustomer: pageSize above 500, pageSize or pageNumber below 1, a non-integer', () => {
  const over = diagnostics(orders('ctcID=7&pageSize=900'));
  assert.deepEqual(over.map((d) => [d.code, d.severity]), [['out-of-range', 2]]);
  assert.match(over[0]?.message ?? '', /caps it at 500/);
  assert.deepEqual(over[0]?.range, { start: { line: 0, character: 81 }, end: { line: 0, character: 84 } });
  assert.deepEqual(diagnostics(orders('ctcID=7&pageSize=0')).map((d) => [d.code, d.severity]), [['out-of-range', 1]]);
  assert.deepEqual(codes(orders('ctcID=7&pageNumber=0')), ['out-of-range']);
  assert.deepEqual(codes(orders('ctcID=7&pageNumber=abc')), ['wrong-type']);
  assert.deepEqual(codes(orders('ctcID=7&pageNumber=2&pageSize=500')), []);
  assert.deepEqual(codes(orders('ctcID=7&pageSize={{size}}')), ['undefined-variable']);
});

void test('GetOrdersByCustomer: continuation lines are checked too', () => {
  assert.deepEqual(codes('GET {{engagement_base_url}}/api/Transaction/GetOrdersByCustomer\n  ?ctcID=7\n  &pageSize=501\n'), ['out-of-range']);
});

// ---- engagement: SalesLeads/GetLeads (body, inferred path) ----

void test('GetLeads: completion of the paging body keys', () => {
  assert.deepEqual(completionLabels(leads('{ "CtcID": 1, | }')), ['BrandID', 'PageSize', 'Offset']);
});

void test('GetLeads: hover on PageSize and Offset', () => {
  assert.match(hoverText(leads('{ "Page|Size": 10 }')), /rows per page \(positive\)[\s\S]*customer-engagement contract §4\.2/);
  assert.match(hoverText(leads('{ "Off|set": 0 }')), /forwarded as given/);
});

void test('GetLeads: PageSize must be positive; a wrong type; the inferred path is said once, by CodeLens and hover', () => {
  assert.deepEqual(codes(leads('{ "CtcID": 1, "BrandID": 2, "PageSize": 0, "Offset": 0 }')), ['out-of-range']);
  assert.deepEqual(codes(leads('{ "PageSize": "10" }')), ['wrong-type']);
  assert.deepEqual(codes(leads('{ "PageSize": 10 }')), [], 'no squiggle under {{engagement_base_url}}');
  assert.deepEqual(notesLens(leads('{ "PageSize": 10 }')), ['Contract: path inferred', 'apiWorkbench.openContractReference', [{ seed: '000', section: '4.2' }]]);
  assert.match(hoverText(leads('{ "PageSize": 10 }').replace('POST', 'PO|ST')), /\*\*Contract not published\*\* \(customer-engagement contract §4\.2\):\n- The path of SalesLeads\/GetLeads is not shown/);
});

// ---- fundraising: POST /v1/transactions (body, removed fields) ----

void test('/v1/transactions: completion of giftAid keys and allocation keys', () => {
  assert.deepEqual(completionLabels(payment('{ "giftAid": { | } }')), ['addDeclaration', 'declarationMethod', 'claimed', 'amountClaimed']);
  assert.deepEqual(completionLabels(payment('{ "allocations": [ { | } ] }')), ['canRecoverTax']);
  assert.ok(completionLabels(payment('{ | }')).includes('utmCampaign'));
});

void test('/v1/transactions: hover on canRecoverTax', () => {
  const text = hoverText(payment('{ "allocations": [ { "canRecover|Tax": true } ] }'));
  assert.match(text, /whether tax can be recovered on this allocation/);
  assert.match(text, /`boolean`/);
  assert.match(text, /fundraising contract §2/);
});

void test('/v1/transactions: wrong type; undocumented keys pass (fields beyond those named: not shown)', () => {
  assert.deepEqual(codes(payment('{ "allocations": [ { "canRecoverTax": "yes" } ] }')), ['wrong-type']);
  assert.deepEqual(codes(payment('{ "amount": 10, "allocations": [ { "fund": "x" } ] }')), []);
  assert.match(hoverText(payment('{ "amo|unt": 10 }')), /not a field the contract documents/);
});

void test('/v1/transactions: a reference to a removed response field, in a variable and in a handler', () => {
  const text = `${payment('{ }')}\n###\nGET {{fundraising_base_url}}/v1/constituents/{{pay.response.body.$.mainContactConstituentId}}\n\n> {%\n  client.global.set("d", response.body.giftAidDeclarationId);\n%}\n`;
  const removed = diagnostics(text).filter((d) => d.code === 'removed-field');
  assert.equal(removed.length, 2);
  assert.match(removed[0]?.message ?? '', /mainContactConstituentId is no longer returned by create payment \(changed in the later release\).*the main contact, read from the constituent \(fundraising contract §4, §9\.3\)/);
  assert.match(removed[1]?.message ?? '', /giftAidDeclarationId is no longer returned.*Gift Aid declaration, read from the constituent/);
  assert.deepEqual(removed[1]?.range, { start: { line: 11, character: 39 }, end: { line: 11, character: 59 } });
});

// ---- booking: ListBookings (page query, inferred path) ----

void test('booking list: completion and hover of page; the inferred path is information', () => {
  assert.deepEqual(completionLabels('GET {{booking_base_url}}/bookings?|'), ['page']);
  assert.match(hoverText('GET {{booking_base_url}}/bookings?pa|ge=2'), /results page[\s\S]*booking contract, Endpoints/);
  assert.deepEqual(codes('GET {{booking_base_url}}/bookings?page=2\n'), []);
  assert.equal(notesLens('GET {{booking_base_url}}/bookings?page=2\n')[0], 'Contract: path inferred');
  assert.match(hoverText('G|ET {{booking_base_url}}/bookings'), /paging: page-headers/);
});

// ---- request line, headers, variables, directives ----

void test('methods complete at the start of a line', () => {
  assert.deepEqual(completionLabels('PO|').slice(0, 3), ['GET', 'POST', 'PUT']);
  assert.ok(completionLabels('###\n|').includes('DELETE'));
});

void test('operation paths after the method, with the service base-url variable, filtered by method', () => {
  const items = completions('POST |');
  const choice = items.find((i) => i.label === '/api/SurveyApi/AddChoiceQuestion');
  assert.equal(choice?.textEdit && 'newText' in choice.textEdit ? choice.textEdit.newText : undefined, '{{engagement_base_url}}/api/SurveyApi/AddChoiceQuestion');
  assert.ok(items.some((i) => i.label === '/v1/transactions'));
  assert.ok(!items.some((i) => i.label === '/api/Transaction/GetOrdersByCustomer'), 'a GET operation is not offered after POST');
  const get = completions('GET {{fundraising_base_url}}/v1/con|');
  const one = get.find((i) => i.label === '/v1/constituents/{constituentId}');
  assert.equal(one?.textEdit && 'newText' in one.textEdit ? one.textEdit.newText : undefined, '{{fundraising_base_url}}/v1/constituents/${1:constituentId}');
  assert.match(completions('POST |').find((i) => i.label === '/api/Transaction/Post')?.detail ?? '', /deprecated: use POST \/api\/Transaction\/PostOrder/);
});

void test('headers: names, then values', () => {
  const names = completionLabels('GET {{booking_base_url}}/bookings\nX-|');
  assert.ok(['Authorization', 'X-API-Key', 'Content-Type'].every((h) => names.includes(h)));
  assert.deepEqual(completionLabels('POST {{fundraising_base_url}}/v1/transactions\nContent-Type: |'), ['application/json', 'application/x-www-form-urlencoded']);
  assert.ok(completionLabels('GET x\nAuthorization: |').includes('Bearer {{$auth.token("engagement")}}'));
});

void test('{{variables}}: environment names, file variables, named responses, dynamic variables', () => {
  const labels = completionLabels('@size = 10\n# @name login\nPOST {{engagement_base_url}}/x\n###\nGET {{|');
  for (const l of ['size', 'engagement_base_url', 'tenant_code', 'login.response.body.$.', 'login.response.headers.', '$auth.token']) assert.ok(labels.includes(l), l);
  const item = completions('GET {{ten|}}/x').find((i) => i.label === 'tenant_code');
  assert.equal(item?.textEdit && 'newText' in item.textEdit ? item.textEdit.newText : undefined, 'tenant_code', 'no second }}');
});

void test('directives: keys, then paging style ids', () => {
  assert.ok(completionLabels('# @pa|').includes('paging'));
  assert.deepEqual(completionLabels('# @paging exp|'), ['page-number', 'page-headers', 'offset-remaining', 'batch-cursor', 'export-ordinal', 'stateful-extraction', 'generic', 'none']);
});

void test('undefined variables wait for the environment, then are reported by name', () => {
  const text = 'GET {{engagement_base_url}}/api/LoyaltyProgram/Get?BrandID={{brand}}\nAuthorization: Bearer {{login.response.body.$.access_token}}\n';
  assert.deepEqual(diagnostics(text, 'none'), []);
  const found = diagnostics(text);
  assert.deepEqual(found.map((d) => d.message), [
    "The variable 'brand' is not defined in the active environment or the file.",
    "No request named 'login' comes before this one (# @name login).",
  ]);
});

void test('hover on a variable says where it comes from, never a value of the environment', () => {
  assert.match(hoverText('@size = 10\nGET {{engagement_base_url}}/x?a={{si|ze}}'), /File variable `size` = `10`/);
  assert.match(hoverText('GET {{engagement_base_u|rl}}/x'), /Environment variable `engagement_base_url` of the active environment \(its value stays with the editor\)/);
});

// ---- deprecated and silent operations ----

void test('deprecated: POST /api/Transaction/Post with its replacement', () => {
  const found = diagnostics('POST {{engagement_base_url}}/api/Transaction/Post\n');
  assert.equal(found[0]?.code, 'deprecated');
  assert.match(found[0]?.message ?? '', /use POST \/api\/Transaction\/PostOrder/);
  assert.deepEqual(found[0]?.tags, [2]);
});

void test('deprecated: the Contact and Survey families', () => {
  assert.match(diagnostics('GET {{engagement_base_url}}/api/Contact/GetContact\n')[0]?.message ?? '', /Contact operations are deprecated: use Customer operations/);
  assert.match(diagnostics('POST {{engagement_base_url}}/api/Survey/AddQuestion\n\n{}\n')[0]?.message ?? '', /Survey operations are deprecated: use SurveyApi operations/);
  assert.match(hoverText('POST {{engagement_base_url}}/api/Sur|vey/AddQuestion'), /deprecated: use SurveyApi operations/);
});

void test('contract not published: an operation of a known family the seed does not show; a body it does not show', () => {
  const silent = 'GET {{engagement_base_url}}/api/Customer/GetCustomer\n';
  assert.deepEqual(codes(silent), []);
  assert.equal(notesLens(silent)[0], 'Contract: operation not shown');
  assert.match(hoverText(`G|${silent.slice(1)}`), /The Customer family does not show this operation/);
  const body = 'POST {{engagement_base_url}}/api/Transaction/PostOrder\nContent-Type: application/json\n\n{ "x": 1 }\n';
  assert.deepEqual(codes(body), []);
  assert.match(notesLens(body)[0] ?? '', /body not checked/);
  // A published operation with a documented body has no note, so no third lens.
  assert.equal(outline(survey('AddLabelQuestion', `{ ${MANDATORY} }`)).lenses.length, 2);
});

void test('parse problems surface as diagnostics', () => {
  assert.deepEqual(codes('GET {{engagement_base_url/x\nbroken header\n'), ['unterminated-variable', 'malformed-header']);
});

/** The third CodeLens of a one-request text (what the contract does not show): title, command, arguments. */
function notesLens(text: string): [string | undefined, string | undefined, unknown] {
  const lens = outline(text).lenses[2];
  return [lens?.command?.title, lens?.command?.command, lens?.command?.arguments];
}

// ---- CodeLens, outline, folding ----

void test('CodeLens, symbols and folding: one set per request', () => {
  const text = '### Orders\nGET {{engagement_base_url}}/api/Transaction/GetOrdersByCustomer?ctcID=1\n\n###\n# @name add\nPOST {{engagement_base_url}}/api/SurveyApi/AddLabelQuestion\nContent-Type: application/json\n\n{\n  "OpCode": 1\n}\n';
  const { lenses, symbols, folds } = outline(text);
  assert.deepEqual(lenses.map((l) => [l.command?.title, l.command?.command, l.command?.arguments]), [
    ['Send', 'apiWorkbench.send', [{ uri: 'file:///t.http', requestIndex: 0 }]],
    ['Send and follow pages (page-number)', 'apiWorkbench.sendAndFollowPages', [{ uri: 'file:///t.http', requestIndex: 0 }]],
    ['Send', 'apiWorkbench.send', [{ uri: 'file:///t.http', requestIndex: 1 }]],
    ['Send and follow pages', 'apiWorkbench.sendAndFollowPages', [{ uri: 'file:///t.http', requestIndex: 1 }]],
  ]);
  assert.deepEqual(symbols.map((s) => [s.name, s.detail, s.selectionRange.start.line]), [
    ['Orders', 'GET {{engagement_base_url}}/api/Transaction/GetOrdersByCustomer?ctcID=1', 1],
    ['add', 'POST {{engagement_base_url}}/api/SurveyApi/AddLabelQuestion', 5],
  ]);
  assert.deepEqual(folds.map((f) => [f.startLine, f.endLine]), [[0, 1], [3, 10], [8, 10]]);
});

// ---- case-sensitive names (seed 000 §4.2 rule 1) ----

void test('case-sensitive names: pagesize is not pageSize, offset is not Offset, opcode is not OpCode', () => {
  const query = diagnostics(orders('ctcID=7&pagesize=10'));
  assert.deepEqual(query.map((d) => [d.code, d.severity]), [['case-mismatch', 2]]);
  assert.match(query[0]?.message ?? '', /'pagesize' is not 'pageSize': names are case-sensitive/);
  assert.deepEqual(codes(leads('{ "CtcID": 1, "offset": 0 }')), ['case-mismatch']);
  const strict = diagnostics(`POST {{engagement_base_url}}/api/SurveyApi/AddLabelQuestion\nContent-Type: application/json\n\n{ "ErrorMessage": "", "OpCode": 1, "QuestionLabel": "Q", "QuestionSubType": "", "QuestionType": "", "opcode": 2 }\n`);
  assert.deepEqual(strict.map((d) => [d.code, d.severity]), [['case-mismatch', 1]]);
});

// ---- completion details ----

void test('a key inserted before another property brings its comma', () => {
  const item = completions(leads('{\n  |\n  "CtcID": 1\n}')).find((i) => i.label === 'PageSize');
  assert.equal(item?.textEdit && 'newText' in item.textEdit ? item.textEdit.newText : undefined, '"PageSize": ${1:0},');
  const last = completions(leads('{\n  "CtcID": 1,\n  |\n}')).find((i) => i.label === 'PageSize');
  assert.equal(last?.textEdit && 'newText' in last.textEdit ? last.textEdit.newText : undefined, '"PageSize": ${1:0}');
});

void test('inside a string value no "" is offered', () => {
  const body = `POST {{engagement_base_url}}/api/SurveyApi/AddLabelQuestion\n\n{ "QuestionLabel": "Ro|" }`;
  assert.deepEqual(completionLabels(body), []);
});

void test('a written base-URL variable narrows operation paths to its service', () => {
  const labels = completionLabels('POST {{fundraising_base_url}}/|');
  assert.ok(labels.includes('/v1/transactions'));
  assert.ok(!labels.some((l) => l.startsWith('/api/')));
});

void test('hover on a header name explains it', () => {
  assert.match(hoverText('GET {{fundraising_base_url}}/v1/constituents\nX-API|-Key: {{tenant_code}}'), /fundraising tenant code \(fundraising contract §5\.1\)/);
});

void test('fundraising list: parameter names the contract does not publish are said once per request', () => {
  const text = 'GET {{fundraising_base_url}}/v1/constituents?limit=50&offset=0\nX-API-Key: {{tenant_code}}\n';
  assert.deepEqual(codes(text), []);
  assert.equal(notesLens(text)[0], 'Contract: query names not checked');
  assert.match(hoverText(`GE|${text.slice(2)}`), /'limit', 'offset' are not checked\. Names of the pagination, sorting and field-inclusion parameters: not shown/);
  assert.deepEqual(codes('GET {{fundraising_base_url}}/v1/transactions?include=allocations\n'), []);
});

void test('an overlay entry with a contract id enriches the operation: imported query parameters are then documented', async () => {
  const { createHttpLanguageService, HttpDocument } = await import('../../src/server/service');
  const { overlayOperations } = await import('../../src/server/overlay');
  const service = createHttpLanguageService();
  service.setEnvironmentVariables(['fundraising_base_url']);
  const text = 'GET {{fundraising_base_url}}/v1/constituents?limit=50&offset=0\n';
  assert.equal(service.codeLenses(new HttpDocument('u', 1, text))[2]?.command?.title, 'Contract: query names not checked');
  service.setOverlay(overlayOperations({
    operations: [{ id: 'fundraising/Constituents/ListConstituents', service: 'fundraising', family: 'Constituents', name: 'ListConstituents', summary: '', method: 'GET', path: '/v1/constituents',
      query: [{ name: 'limit', type: 'integer', meaning: 'page size', maximum: 500 }, { name: 'offset', type: 'integer', meaning: 'rows to skip', minimum: 0 }] }],
  }));
  assert.deepEqual(service.doValidate(new HttpDocument('u', 2, text)).map((d) => d.code), []);
  assert.equal(service.codeLenses(new HttpDocument('u', 2, text)).length, 2, 'imported names are documented: no note');
  const over = service.doValidate(new HttpDocument('u', 3, text.replace('limit=50', 'limit=900')));
  assert.deepEqual(over.map((d) => d.code), ['out-of-range']);
  const hover = service.doHover(new HttpDocument('u', 4, text), { line: 0, character: 46 });
  assert.match(hover && typeof hover.contents === 'object' && 'value' in hover.contents ? hover.contents.value : '', /\*\*limit\*\* \(query parameter\): `integer`, optional, maximum 500/);
});
