// The zod schemas as the single source of truth: they accept the documented shapes, reject wrong
// types, carry nullability and enum meanings into the generated JSON Schema, and the body skeleton of
// every operation validates against its own schema.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createCatalog, isNullable, nonNullSchema, responseBodyJsonSchema, schemas, type JSONSchema, type Operation } from '../../src/core/catalog';
import { bodySkeleton } from '../../src/core/catalog/bodySkeleton';
import { missingSandboxRequiredFields } from '../../src/core/catalog/sandboxRequired';
import { requestBodyJsonSchema, schemaAtPath } from '../../src/core/catalog/jsonSchema';
import { SURVEY_API_EXAMPLES } from '../fixtures/catalog/surveyApiExamples';

const catalog = createCatalog();
const surveyOps = catalog.operations().filter((o) => o.family === 'SurveyApi');
const op = (name: string): Operation => {
  const found = catalog.operationById(`engagement/SurveyApi/${name}`);
  assert.ok(found, name);
  return found;
};
const accepts = (o: Operation, body: unknown) => o.requestBody?.safeParse(body).success === true;
const example = (name: string): Record<string, unknown> => {
  const body = SURVEY_API_EXAMPLES[name];
  assert.ok(body, name);
  return body;
};

void test('seed 000 §2.1–2.3: every SurveyApi request shape accepts its documented example', () => {
  assert.deepEqual(Object.keys(SURVEY_API_EXAMPLES).sort(), surveyOps.map((o) => o.name).sort());
  for (const o of surveyOps) assert.ok(accepts(o, example(o.name)), o.name);
});

void test('seed 000 §4.1: required fields are not shown, so an empty body passes the schema (the sandbox asks for some only under its required-fields choice)', () => {
  for (const o of surveyOps) assert.ok(accepts(o, {}), o.name);
});

void test('seed 000 §2.1: wrong types are rejected — string for int, float for int32, out of int32, null for a non-nullable field', () => {
  const o = op('AddLabelQuestion');
  const base = example('AddLabelQuestion');
  assert.ok(!accepts(o, { ...base, OpCode: '1201' }), 'string for int');
  assert.ok(!accepts(o, { ...base, OpCode: 12.5 }), 'float for int32');
  assert.ok(!accepts(o, { ...base, OpCode: 2 ** 31 }), 'above int32');
  assert.ok(!accepts(o, { ...base, PageID: -(2 ** 31) - 1 }), 'below int32');
  assert.ok(accepts(o, { ...base, OpCode: 2 ** 31 - 1, PageID: -(2 ** 31) }), 'int32 bounds are inside');
  assert.ok(!accepts(o, { ...base, QuestionLabel: null }), 'null for non-nullable string');
  assert.ok(!accepts(o, { ...base, IsMandatory: 'true' }), 'string for boolean');
  assert.ok(!accepts(o, { ...base, QuestionLabel: 7 }), 'number for string');
});

void test('seed 000 §2.1–2.3: nullable fields accept null; non-nullable ones do not', () => {
  const nullable = ['IsMandatory', 'PageID', 'QuestionID', 'QuestionPosition'];
  const nonNullable = ['ErrorMessage', 'OpCode', 'QuestionLabel', 'QuestionSubType', 'QuestionType'];
  const o = op('AddCaptchaQuestion');
  for (const field of nullable) assert.ok(accepts(o, { [field]: null }), field);
  for (const field of nonNullable) assert.ok(!accepts(o, { [field]: null }), field);
  const choice = op('AddChoiceQuestion');
  for (const field of ['KnownNodeCodeFromTree', 'Preticked', 'RandomiseResponsesOrder']) assert.ok(accepts(choice, { [field]: null }), field);
  assert.ok(!accepts(choice, { Choices: null }), 'Choices is not nullable');
  assert.ok(!accepts(op('AddFeedbackScoreQuestion'), { ScoreRange: null }), 'ScoreRange is not nullable');
  assert.ok(accepts(op('AddFeedbackScoreQuestion'), { UseEmoticons: null }));
});

void test('seed 000 §2.3: nested ChoiceItem types are checked, in Choices, Rows and Columns', () => {
  const choice = op('AddChoiceQuestion');
  assert.ok(!accepts(choice, { Choices: [{ ID: 'one', Label: 'x' }] }), 'string ID');
  assert.ok(!accepts(choice, { Choices: [{ Label: 3 }] }), 'number Label');
  assert.ok(!accepts(choice, { Choices: [{ Label: null }] }), 'null Label');
  assert.ok(!accepts(choice, { Choices: [{ Order: 1.5 }] }), 'float Order');
  assert.ok(!accepts(choice, { Choices: [{ Label: 'x', Colour: 'red' }] }), 'unknown key in a ChoiceItem');
  assert.ok(!accepts(choice, { Choices: { Label: 'x' } }), 'object instead of array');
  assert.ok(accepts(choice, { Choices: [{ ID: null, IsMaster: null, IsOther: null, IsRandom: null, Label: 'x', Order: null }] }));
  const matrix = op('AddMatrixQuestion');
  assert.ok(!accepts(matrix, { Rows: [{ IsMaster: 'yes' }] }));
  assert.ok(!accepts(matrix, { Columns: [{ ID: 2 ** 31 }] }));
});

void test('seed 000 §2.2: enumerated integers stay integers — other integers pass, non-integers fail', () => {
  assert.ok(accepts(op('AddFeedbackScoreQuestion'), { ScoreRange: 7 }));
  assert.ok(!accepts(op('AddFeedbackScoreQuestion'), { ScoreRange: 'OneToFive' }));
  assert.ok(accepts(op('AddKnownQuestion'), { KnownType: 9 }));
  assert.ok(!accepts(op('AddKnownQuestion'), { SelectedOptions: [1, 'two'] }));
  assert.ok(accepts(op('AddMultiChannelsOptinQuestion'), { OptinChannels: [4] }));
  assert.ok(!accepts(op('AddMultiChannelsOptinQuestion'), { OptinChannels: ['Email'] }));
});

void test('strictness: fully specified shapes reject unknown keys; name-and-address and its contact fields are open', () => {
  for (const o of surveyOps) {
    const body = { ...example(o.name), QuestionLable: 'typo' };
    assert.equal(accepts(o, body), o.name === 'AddNameAndAddressQuestion', o.name);
    const schema = requestBodyJsonSchema(o);
    assert.deepEqual(schema?.additionalProperties, o.name === 'AddNameAndAddressQuestion' ? {} : false, o.name);
  }
  const nameAndAddress = op('AddNameAndAddressQuestion');
  assert.ok(accepts(nameAndAddress, { ContactInformationFields: [1, 'two', { three: 3 }] }));
  assert.ok(!accepts(nameAndAddress, { PrivacyPolicyText: false }), 'documented fields are still typed');
});

void test('JSON Schema: metadata of every documented field comes through (description, source, sandboxRequired, format)', () => {
  const schema = requestBodyJsonSchema(op('AddKnownQuestion'));
  assert.ok(schema?.properties);
  for (const [name, property] of Object.entries(schema.properties)) {
    assert.equal(typeof property, 'object', name);
    if (typeof property !== 'object') continue;
    assert.equal(typeof property.description, 'string', name);
    assert.ok(property.source && typeof property.source === 'object', name);
  }
  assert.equal(schemaAtPath(schema, ['OpCode'])?.sandboxRequired, true);
  assert.equal(schemaAtPath(schema, ['OpCode'])?.format, 'int32');
  assert.equal(schemaAtPath(schema, ['OpCode'])?.type, 'integer');
  assert.equal(schemaAtPath(schema, ['PageID'])?.sandboxRequired, undefined);
  assert.deepEqual(schemaAtPath(schema, ['KnownType'])?.enumMeanings, { 0: 'Location', 1: 'Category', 2: 'SubCategory', 3: 'PreferredSite' });
  assert.deepEqual(schema.required ?? [], [], 'no field is required by the schema');
});

void test('JSON Schema: enum meanings for ScoreRange and OptinChannels items', () => {
  const score = requestBodyJsonSchema(op('AddFeedbackScoreQuestion'));
  assert.ok(score);
  assert.deepEqual(schemaAtPath(score, ['ScoreRange'])?.enumMeanings, { 0: 'OneToFive', 1: 'ZeroToTen' });
  const channels = requestBodyJsonSchema(op('AddMultiChannelsOptinQuestion'));
  assert.ok(channels);
  assert.equal(schemaAtPath(channels, ['OptinChannels'])?.type, 'array');
  assert.deepEqual(schemaAtPath(channels, ['OptinChannels', 0])?.enumMeanings, { 0: 'Email', 1: 'SMS', 2: 'Mail', 3: 'Phone' });
  assert.equal(schemaAtPath(channels, ['OptinChannels', 0])?.type, 'integer');
});

void test('JSON Schema: nullability is visible and unwrappable for integers, booleans and nested ChoiceItem fields', () => {
  const schema = requestBodyJsonSchema(op('AddChoiceQuestion'));
  assert.ok(schema);
  const at = (path: (string | number)[]): JSONSchema => {
    const found = schemaAtPath(schema, path);
    assert.ok(found, path.join('.'));
    return found;
  };
  assert.ok(isNullable(schema, at(['KnownNodeCodeFromTree'])));
  assert.equal(nonNullSchema(schema, at(['KnownNodeCodeFromTree'])).type, 'integer');
  assert.equal(nonNullSchema(schema, at(['KnownNodeCodeFromTree'])).description, 'existing node code from a tree');
  assert.ok(isNullable(schema, at(['Preticked'])));
  assert.equal(nonNullSchema(schema, at(['Preticked'])).type, 'boolean');
  assert.ok(!isNullable(schema, at(['QuestionLabel'])));
  assert.ok(!isNullable(schema, at(['Choices'])));
  const items = at(['Choices', 0]);
  assert.equal(items.type, 'object');
  assert.equal(items.additionalProperties, false);
  assert.ok(isNullable(schema, at(['Choices', 0, 'ID'])));
  assert.equal(nonNullSchema(schema, at(['Choices', 0, 'ID'])).type, 'integer');
  assert.equal(at(['Choices', '3', 'Label']).type, 'string', 'a numeric string segment indexes an array');
  assert.equal(schemaAtPath(schema, ['Choices', 0, 'Colour']), undefined, 'unknown key of a strict object');
  assert.equal(schemaAtPath(schema, ['Nope']), undefined);
  assert.equal(schemaAtPath(schema, ['OpCode', 0]), undefined, 'indexing into a non-array');
  assert.deepEqual(schemaAtPath(requestBodyJsonSchema(op('AddNameAndAddressQuestion')) ?? {}, ['LaterField']), {}, 'open shape: anything');
});

void test('schemaAtPath follows $ref / $defs and keeps the referring site\'s description', () => {
  const schema: JSONSchema = {
    type: 'object',
    properties: { Rows: { type: 'array', items: { $ref: '#/$defs/ChoiceItem', description: 'row' } }, Self: { $ref: '#' } },
    $defs: { ChoiceItem: { type: 'object', properties: { Label: { type: 'string' } }, additionalProperties: false } },
  };
  assert.equal(schemaAtPath(schema, ['Rows', 0])?.description, 'row');
  assert.equal(schemaAtPath(schema, ['Rows', 0, 'Label'])?.type, 'string');
  assert.equal(schemaAtPath(schema, ['Self', 'Rows', 1, 'Label'])?.type, 'string');
});

void test('JSON Schema generation is cached per operation and absent without a body', () => {
  const o = op('AddChoiceQuestion');
  assert.equal(requestBodyJsonSchema(o), requestBodyJsonSchema(o));
  assert.equal(responseBodyJsonSchema(o), responseBodyJsonSchema(o));
  const get = catalog.operationById('engagement/Transaction/GetOrdersByCustomer');
  assert.ok(get);
  assert.equal(requestBodyJsonSchema(get), undefined);
  assert.equal(bodySkeleton(get), undefined);
});

void test('seed 000 §2.4: PostOutput with APICallError[] validates and rejects wrong types', () => {
  const o = op('AddChoiceQuestion');
  const ok = { ID: 5, Errors: [], ResponseStatus: true };
  assert.ok(o.responseBody?.safeParse(ok).success);
  assert.ok(o.responseBody?.safeParse({ ID: 0, Errors: [{ ErrorCode: 14, ErrorDescription: 'Invalid Question ID' }], ResponseStatus: false }).success);
  assert.ok(!o.responseBody?.safeParse({ ...ok, Errors: [{ ErrorCode: '14', ErrorDescription: 'x' }] }).success);
  assert.ok(!o.responseBody?.safeParse({ ...ok, ResponseStatus: 'true' }).success);
  const response = responseBodyJsonSchema(o);
  assert.ok(response);
  assert.equal(schemaAtPath(response, ['Errors', 0, 'ErrorCode'])?.type, 'integer');
  assert.equal(response.additionalProperties, undefined, 'a response may carry more than the contract lists');
});

void test('bodySkeleton: every operation with a request body gets a skeleton that validates against its schema', () => {
  let withBody = 0;
  for (const o of catalog.operations()) {
    const skeleton = bodySkeleton(o);
    if (!o.requestBody) {
      assert.equal(skeleton, undefined, o.id);
      continue;
    }
    withBody++;
    const result = o.requestBody.safeParse(skeleton);
    assert.ok(result.success, `${o.id}: ${JSON.stringify(result.error?.issues)}`);
  }
  assert.ok(withBody >= 14);
});

void test('bodySkeleton: neutral values per type — null for nullable, 0 for ints, "" for strings, one ChoiceItem', () => {
  const skeleton = bodySkeleton(op('AddChoiceQuestion')) as Record<string, unknown>;
  assert.deepEqual(skeleton, {
    ErrorMessage: '',
    IsMandatory: null,
    OpCode: 0,
    PageID: null,
    QuestionID: null,
    QuestionLabel: '',
    QuestionPosition: null,
    QuestionSubType: '',
    QuestionType: '',
    Choices: [{ ID: null, IsMaster: null, IsOther: null, IsRandom: null, Label: '', Order: null }],
    KnownNodeCodeFromTree: null,
    Preticked: null,
    RandomiseResponsesOrder: null,
  });
  const matrix = bodySkeleton(op('AddMatrixQuestion')) as Record<string, unknown[]>;
  assert.equal(matrix.Rows?.length, 1);
  assert.equal(matrix.Columns?.length, 1);
  assert.deepEqual((bodySkeleton(op('AddMultiChannelsOptinQuestion')) as Record<string, unknown>).OptinChannels, []);
  const selection = catalog.operationById('engagement/Selection/GetSelectionResult_Ext');
  assert.ok(selection);
  assert.deepEqual(bodySkeleton(selection), { OFFSET: 1, TableName: '', FormatID: null });
  const bidw = catalog.operationById('engagement/BIDWHouse/GetFactTransactions');
  assert.ok(bidw);
  assert.deepEqual(bodySkeleton(bidw), { PageSize: 5000 });
});

void test('the sandbox required-fields choice: the non-nullable base fields and ChoiceItem.Label, missing when absent or null', () => {
  const o = op('AddFeedbackScoreQuestion');
  assert.deepEqual(missingSandboxRequiredFields(o, {}), ['ErrorMessage', 'OpCode', 'QuestionLabel', 'QuestionSubType', 'QuestionType']);
  assert.deepEqual(missingSandboxRequiredFields(o, example('AddFeedbackScoreQuestion')), []);
  assert.deepEqual(missingSandboxRequiredFields(o, { OpCode: 1, QuestionLabel: null, QuestionType: 'x', QuestionSubType: 'y' }), ['ErrorMessage', 'QuestionLabel']);
  assert.equal(missingSandboxRequiredFields(o, null).length, 5);
  assert.equal(missingSandboxRequiredFields(o, []).length, 5);
  const choice = op('AddChoiceQuestion');
  assert.deepEqual(missingSandboxRequiredFields(choice, { ...example('AddChoiceQuestion'), Choices: [{ ID: 1, Label: 'a' }, { ID: 2 }] }), ['Choices[1].Label']);
  const leads = catalog.operationById('engagement/SalesLeads/GetLeads');
  assert.ok(leads);
  assert.deepEqual(missingSandboxRequiredFields(leads, {}), []);
});

void test('seed 000 §4.2: paging bodies — OFFSET is a one-based integer, PageSize positive, Result rows are open objects', () => {
  assert.ok(schemas.SelectionExportRequest().safeParse({ OFFSET: 1, TableName: '' }).success);
  assert.ok(!schemas.SelectionExportRequest().safeParse({ OFFSET: 0 }).success);
  assert.ok(!schemas.SelectionExportRequest().safeParse({ OFFSET: 1.5 }).success);
  assert.ok(!schemas.SelectionExportRequest().safeParse({ OFFSET: '1' }).success);
  assert.ok(schemas.SelectionExportResponse().safeParse({ Result: [{ A: 1, B: 'x' }], TableName: 'T1' }).success);
  assert.ok(!schemas.SelectionExportResponse().safeParse({ Result: [1, 2], TableName: 'T1' }).success);
  assert.ok(schemas.GetLeadsRequest().safeParse({ CtcID: 1, BrandID: 2, PageSize: 100, Offset: 0 }).success);
  assert.ok(!schemas.GetLeadsRequest().safeParse({ PageSize: 0 }).success);
  assert.ok(schemas.GetLeadsResponse().safeParse({ _Leads: [{ TotalCounts: 3, Name: 'x' }], Remaining: 2 }).success);
  assert.ok(schemas.OrdersByCustomerResponse().safeParse({ PageNumber: 1, PageSize: 50, TotalOrders: 0, Orders: [], Response: true, Errors: [] }).success);
  assert.ok(!schemas.OrdersByCustomerResponse().safeParse({ Orders: [], Response: 'false' }).success);
  assert.ok(schemas.BidwFactReadRequest().safeParse({}).success);
  assert.deepEqual(schemas.BidwFactReadRequest().parse({}), {}, 'the stated default is documented, not injected');
});

void test('seed 001 §2: fundraising named fields have no invented types, except canRecoverTax (boolean)', () => {
  const create = schemas.CreateTransactionRequest();
  assert.ok(create.safeParse({ giftAid: { addDeclaration: 'anything', claimed: 3 }, utmSource: 42, allocations: [{ canRecoverTax: true, amount: 5 }], other: 1 }).success);
  assert.ok(!create.safeParse({ allocations: [{ canRecoverTax: 'yes' }] }).success);
  const schema = requestBodyJsonSchema(catalog.match('POST', '/v1/transactions') ?? op('AddLabelQuestion'));
  assert.ok(schema);
  assert.equal(schemaAtPath(schema, ['allocations', 0, 'canRecoverTax'])?.type, 'boolean');
  assert.equal(schemaAtPath(schema, ['utmSource'])?.type, undefined);
  assert.match(String(schemaAtPath(schema, ['utmSource'])?.description), /type not shown/);
  assert.deepEqual(schemaAtPath(schema, ['someUnnamedField']), {}, 'unnamed fields are not flagged');
  assert.ok(schemas.Transaction().safeParse({ allocations: [] }).success);
  assert.ok(!schemas.Transaction().safeParse({}).success, 'allocations are always present on single read');
});
