// schemaAt (the language service's memoised schemaAtPath) answers what schemaAtPath answers for every
// path, whatever was asked before: segments that look like other paths ("a.b", "#0", "0") are keys of
// their own, not joined into one string.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createCatalog } from '../../src/core/catalog';
import { schemaAtPath, type JSONSchema } from '../../src/core/catalog/jsonSchema';
import { OperationIndex } from '../../src/server/service/operations';
import { fieldInfo, isStrictObject, MAX_CACHED_PATHS, pathChecks, propertyNames, schemaAt, schemaPathChild, schemaPathTop } from '../../src/server/service/schemaInfo';
import { diagnostics } from './languageServiceFixture';

const operations = new OperationIndex(createCatalog());
const payment = operations.match('POST', '{{fundraising_base_url}}/v1/transactions')?.requestSchema;
const choice = operations.match('POST', '{{engagement_base_url}}/api/SurveyApi/AddChoiceQuestion')?.requestSchema;

const PATHS: ReadonlyArray<ReadonlyArray<string | number>> = [
  [], ['giftAid'], ['giftAid', 'addDeclaration'], ['giftAid.addDeclaration'], ['.giftAid', 'addDeclaration'],
  ['allocations', 0], ['allocations', '0'], ['allocations', '#0'], ['allocations#0'], ['allocations', 0, 'canRecoverTax'],
  ['allocations', '0.canRecoverTax'], ['allocations', 1e9, 'canRecoverTax'], ['Choices', 0, 'Label'], ['Choices', '0', 'Label'],
  ['Choices.0.Label'], ['Choices', -1], ['Choices', 'Label'], ['__proto__'], ['constructor', 'name'], ['nope', 'deeper', 'still'], [''], ['', ''],
];

for (const [name, schema] of [['create payment', payment], ['AddChoiceQuestion', choice]] as const) {
  void test(`schemaAt answers schemaAtPath's schema for hostile paths of ${name}, in any order`, () => {
    assert.ok(schema, `${name} has a request schema`);
    for (const order of [PATHS, [...PATHS].reverse()]) {
      const root: JSONSchema = structuredClone(schema); // a fresh root: nothing cached yet
      for (const path of order) assert.deepEqual(schemaAt(root, path), schemaAtPath(root, path), JSON.stringify(path));
      // Asked again (now cached), the same answers.
      for (const path of order) assert.deepEqual(schemaAt(root, path), schemaAtPath(root, path), JSON.stringify(path));
    }
  });
}

void test('schemaAt keeps answering schemaAtPath past its cache bound', () => {
  assert.ok(payment);
  const root: JSONSchema = structuredClone(payment);
  for (let i = 0; i < MAX_CACHED_PATHS + 10; i++) schemaAt(root, ['allocations', i]);
  for (const path of [...PATHS, ['allocations', MAX_CACHED_PATHS + 5, 'canRecoverTax'], ['giftAid', 'x', 'y']]) {
    assert.deepEqual(schemaAt(root, path), schemaAtPath(root, path), JSON.stringify(path));
  }
});

void test('a key with a dot is not read as a nested path, before or after the nested one was seen', () => {
  const nested = '### a\nPOST {{fundraising_base_url}}/v1/transactions\nContent-Type: application/json\n\n{ "giftAid": { "addDeclaration": "yes" } }\n';
  const dotted = '### b\nPOST {{fundraising_base_url}}/v1/transactions\nContent-Type: application/json\n\n{ "giftAid.addDeclaration": "yes" }\n';
  const alone = diagnostics(dotted).map((d) => `${d.code} ${d.message}`);
  const afterNested = diagnostics(`${nested}\n${dotted}`).slice(diagnostics(nested).length).map((d) => `${d.code} ${d.message}`);
  assert.deepEqual(afterNested.map((d) => d.replace(/\d+/g, '#')), alone.map((d) => d.replace(/\d+/g, '#')));
  assert.ok(!alone.some((d) => d.startsWith('wrong-type')), alone.join('\n'));
});

void test("pathChecks answers fieldInfo, isStrictObject and propertyNames of the schema it is given, kept per path node and schema", () => {
  assert.ok(payment);
  const root: JSONSchema = structuredClone(payment);
  const top = schemaPathTop(root);
  const giftAid = schemaPathChild(root, top, 'giftAid');
  const index = schemaPathChild(root, schemaPathChild(root, top, 'allocations'), 0);
  for (const [node, name] of [[top, 'body'], [giftAid, 'giftAid'], [index, '0']] as const) {
    const schema = node === top ? root : node.schema;
    assert.ok(schema, name);
    const checks = pathChecks(root, schema, node);
    assert.equal(checks.info, fieldInfo(root, schema, name));
    assert.equal(checks.strict, isStrictObject(root, schema));
    assert.equal(checks.documented, propertyNames(root, schema));
    assert.equal(pathChecks(root, schema, node), checks, 'kept');
  }
  // Another schema at the same node (the top is walked with the root itself): its own checks, not the kept ones.
  const other = schemaPathChild(root, top, 'giftAid').schema;
  assert.ok(other);
  const checks = pathChecks(root, other, top);
  assert.equal(checks.schema, other);
  assert.equal(checks.documented, propertyNames(root, other));
  assert.notEqual(pathChecks(root, root, top).documented, checks.documented);
});
