// Body validation's fast path (reportsNothing, src/server/service/bodyValidation.ts) answers "nothing to
// report" from JSON.parse's value without the tree; it must do so only where the full check
// (bodyDiagnostics: the tree, then walk) reports nothing. Checked for every operation of the catalog with
// a request schema, on bodies made from its schema, each field made wrong in every way walk looks at
// (type, range, unknown and case-mismatched keys, repeated keys, placeholders, missing fields, nesting),
// on the JSON reader's hostile texts, and on seeded random mutations of valid bodies.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createCatalog } from '../../src/core/catalog';
import { nonNullSchema, type JSONSchema } from '../../src/core/catalog/jsonSchema';
import { MAX_JSON_DEPTH } from '../../src/core/json/depth';
import { HttpDocument } from '../../src/server/service';
import { bodyDiagnostics, reportsNothing } from '../../src/server/service/bodyValidation';
import { OperationIndex, type KnownOperation } from '../../src/server/service/operations';
import { fieldInfo, propertiesOf, sandboxRequiredNames } from '../../src/server/service/schemaInfo';

const operations = new OperationIndex(createCatalog()).all().filter((k): k is KnownOperation & { requestSchema: JSONSchema } => k.requestSchema !== undefined);
const codesOf = (known: KnownOperation): boolean => known.operation.errorCatalogue === 'SurveyApi' || known.operation.errorCatalogue === 'Customer';

let fastAnswers = 0;
let checked = 0;

/** The property on one body: the fast path says "nothing" only where the full check finds nothing. */
function check(known: KnownOperation & { requestSchema: JSONSchema }, text: string): void {
  checked++;
  const root = known.requestSchema;
  if (!reportsNothing(text, root, codesOf(known))) return;
  fastAnswers++;
  const document = new HttpDocument('file:///body.json', 1, text);
  const found = bodyDiagnostics(document, { kind: 'inline', text, offset: 0, range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } } }, known, root);
  assert.deepEqual(found.map((d) => `${String(d.code)}: ${d.message}`), [], `${known.operation.id}: the fast path found nothing in ${JSON.stringify(text)}`);
}

/** A value of the schema's type, within its range and published values (depth-bounded). */
function validValue(root: JSONSchema, schema: JSONSchema, name: string, depth: number): unknown {
  const info = fieldInfo(root, schema, name);
  const node = info.schema;
  if (Array.isArray(node.enum) && node.enum.length > 0) return node.enum[0];
  const type = info.types[0];
  const low = typeof node.minimum === 'number' ? node.minimum : typeof node.exclusiveMinimum === 'number' ? node.exclusiveMinimum + 1 : 1;
  switch (type) {
    case 'string': return 'x';
    case 'integer': return Math.ceil(low);
    case 'number': return low;
    case 'boolean': return true;
    case 'array': {
      const items = node.items;
      return items && typeof items === 'object' && !Array.isArray(items) && depth < 4 ? [validValue(root, items, name, depth + 1)] : [];
    }
    case 'object': return depth < 4 ? validObject(root, node, depth + 1) : {};
    default: return info.nullable ? null : 0;
  }
}

function validObject(root: JSONSchema, schema: JSONSchema, depth: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, property] of propertiesOf(root, nonNullSchema(root, schema))) out[name] = validValue(root, property, name, depth);
  return out;
}

/** Every way walk looks at a value, as text in place of a field's value. */
const WRONG_VALUES = [
  '"text"', '""', '0', '-1', '1.5', '-1e9', '1e9', '1e999', '-0', '2147483648', 'true', 'false', 'null', '{}', '[]', '[1]', '["x"]', '[null]', '[{}]', '{"Unknown": 1}',
  '{{placeholder}}', '"{{placeholder}}"', '"a\\"b"', '"\\u0041"', '"\u2028"', '[[[[1]]]]',
];

/** A body's text from its entries (each [key text, value text]), pretty or compact. */
const objectText = (entries: ReadonlyArray<readonly [string, string]>, pretty: boolean): string =>
  pretty ? `{\n${entries.map(([k, v]) => `  ${k}: ${v}`).join(',\n')}\n}` : `{${entries.map(([k, v]) => `${k}:${v}`).join(',')}}`;

function bodiesFor(known: KnownOperation & { requestSchema: JSONSchema }): string[] {
  const root = known.requestSchema;
  const valid = validObject(root, root, 0);
  const entries = Object.entries(valid).map(([k, v]) => [JSON.stringify(k), JSON.stringify(v)] as const);
  const bodies: string[] = [objectText(entries, true), objectText(entries, false), JSON.stringify(valid, null, 2), '{}', '[]', '""', 'null', '12', '{"a":1}'];
  for (const name of sandboxRequiredNames(root)) bodies.push(objectText(entries.filter(([k]) => k !== JSON.stringify(name)), true));
  entries.forEach(([key, value], index) => {
    const others = entries.filter((_, i) => i !== index);
    for (const wrong of WRONG_VALUES) {
      bodies.push(objectText([...others, [key, wrong]], true));
      // Repeated keys: JSON.parse keeps the last, the tree has both.
      bodies.push(objectText([[key, wrong], ...others, [key, value]], true));
      bodies.push(objectText([[key, value], ...others, [key, wrong]], false));
    }
    const bare = key.slice(1, -1);
    bodies.push(objectText([...others, [JSON.stringify(bare.toLowerCase()), value]], true));
    bodies.push(objectText([...others, [JSON.stringify(`${bare}x`), value]], true));
    bodies.push(objectText([...others, [key, value], ['"Unknown"', '1']], true));
    bodies.push(objectText([...others, [key, `${'['.repeat(MAX_JSON_DEPTH + 1)}${']'.repeat(MAX_JSON_DEPTH + 1)}`]], false));
    bodies.push(objectText([...others, [key, value], ['"__proto__"', '{}']], false));
    // A value repeated inside an array or object the value holds.
    if (value.startsWith('[{')) bodies.push(objectText([...others, [key, value.replace(/^\[\{/, '[{"Label": 1, ')]], true));
    if (value.startsWith('{"')) bodies.push(objectText([...others, [key, value.replace(/^\{("[^"]*"):([^,}]*)/, '{$1:$2,$1:$2')]], false));
  });
  return bodies;
}

/** A small deterministic generator (no Math.random: a failure names a text that fails again). */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const MUTATIONS = ['', ' ', ',', ':', '{', '}', '[', ']', '"', '\\', '/', '*', '\n', '\u0001', '\u00a0', '\ufeff', '\v', '-', '+', '.', 'e', '0', '1', 'x', 't', 'n', '\u2028', '😀', '{{v}}', '"a":1,', '":"', ':1,"'];

const HOSTILE = [
  '', ' ', '{', '}', '{"a"}', '{"a":}', '{"a":1,}', '[1,]', '{a:1}', "{'a':1}", '01', '-', '1.', '.5', '+1', 'NaN', 'tru', '"unterminated', '"a\nb"', '"a\tb"',
  '// c\n{}', '{} // c', '/* c */ {}', '{} {}', '\ufeff{}', '\u00a0{}', '{\u00a0}', '\v{}', '\f[]', '{"a":0000012}', '{"a":[1,2}', '{"a"::1}', '{"a":1,,"b":2}',
  `${'['.repeat(MAX_JSON_DEPTH)}${']'.repeat(MAX_JSON_DEPTH)}`, `${'['.repeat(MAX_JSON_DEPTH + 1)}${']'.repeat(MAX_JSON_DEPTH + 1)}`, `{"a":${'['.repeat(20_000)}`,
  // Valid and far too deep: JSON.parse does not recurse, and the check stops at the limit (no stack overflow).
  `${'['.repeat(100_000)}${']'.repeat(100_000)}`,
];

void test('the fast path reports nothing only where the full check finds nothing: each field made wrong in every way, for every operation', () => {
  assert.ok(operations.length > 10, `${operations.length} operations with a request schema`);
  for (const known of operations) {
    for (const text of bodiesFor(known)) check(known, text);
    for (const text of HOSTILE) check(known, text);
  }
});

void test('the fast path on seeded random mutations of valid bodies', () => {
  const next = random(21);
  for (const known of operations) {
    const valid = JSON.stringify(validObject(known.requestSchema, known.requestSchema, 0), null, next() < 0.5 ? 2 : undefined);
    for (let i = 0; i < 60; i++) {
      let text = valid;
      for (let edits = 1 + Math.floor(next() * 2); edits > 0; edits--) {
        const at = Math.floor(next() * (text.length + 1));
        text = text.slice(0, at) + (MUTATIONS[Math.floor(next() * MUTATIONS.length)] ?? '') + text.slice(at + Math.floor(next() * 3));
      }
      check(known, text);
    }
  }
});

void test('the fast path answers the plain valid bodies (the property above is not vacuous)', () => {
  let answered = 0;
  for (const known of operations) {
    const valid = validObject(known.requestSchema, known.requestSchema, 0);
    const codes = codesOf(known);
    if (reportsNothing(JSON.stringify(valid, null, 2), known.requestSchema, codes)) answered++;
    // A placeholder where a number goes: masked to 0, read as the 0 it is (within range here or left to the full check).
    assert.equal(reportsNothing('{"a": {{x}}}', known.requestSchema, codes), false, 'an undocumented key is left to the full check');
  }
  assert.ok(answered >= operations.length * 0.8, `answered ${answered} of ${operations.length} valid bodies`);
  assert.ok(fastAnswers > 0 && checked > 0, 'the other tests ran');
});

void test('repeated keys: the value JSON.parse drops is the one walk reports', () => {
  const known = operations.find((k) => k.operation.id.endsWith('AddLabelQuestion')) ?? operations[0]!;
  const valid = validObject(known.requestSchema, known.requestSchema, 0);
  const [name] = Object.keys(valid).filter((k) => typeof valid[k] === 'number');
  assert.ok(name, 'a numeric field');
  const body = `{"${name}": "not a number", ${JSON.stringify(valid).slice(1)}`;
  assert.equal(reportsNothing(body, known.requestSchema, codesOf(known)), false);
  const document = new HttpDocument('file:///body.json', 1, body);
  const found = bodyDiagnostics(document, { kind: 'inline', text: body, offset: 0, range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } } }, known, known.requestSchema);
  assert.ok(found.some((d) => d.code === 'wrong-type'), JSON.stringify(found));
});

void test('colons inside strings are told from the colons after keys: a body with them is answered, a repeated key is not', () => {
  let answered = 0;
  for (const known of operations) {
    const valid = validObject(known.requestSchema, known.requestSchema, 0);
    const name = Object.keys(valid).find((k) => typeof valid[k] === 'string');
    if (!name) continue;
    const codes = codesOf(known);
    const withColons = JSON.stringify({ ...valid, [name]: 'at 12:30: done' }, null, 2);
    check(known, withColons);
    if (reportsNothing(withColons, known.requestSchema, codes)) answered++;
    // The entry JSON.parse drops holds colons in its strings: the count falls short whatever they are.
    for (const dropped of ['"a:b"', '"::::"', '{"x": "y:z"}', '["p:q", "r"]']) {
      const repeated: string = `{"${name}": ${dropped}, ${JSON.stringify(valid).slice(1)}`;
      assert.equal(reportsNothing(repeated, known.requestSchema, codes), false, repeated);
      check(known, repeated);
    }
    // An escape can write a colon (\u003a) or a quote: such a body is left to the full check.
    assert.equal(reportsNothing(JSON.stringify({ ...valid, [name]: 'a\\u003ab' }), known.requestSchema, codes), false);
    assert.equal(reportsNothing(JSON.stringify({ ...valid, [name]: 'say "hi"' }), known.requestSchema, codes), false);
    // Why: a repeated key whose dropped value is a number, the kept one an escaped colon. The escape
    // makes one colon in the value where the text has none, so the count would match while the full
    // check reports the dropped value's type.
    const escaped = `{"${name}": 1, ${JSON.stringify({ ...valid, [name]: 'PLACE' }).slice(1).replace('PLACE', '\\u003a')}`;
    assert.equal(reportsNothing(escaped, known.requestSchema, codes), false, escaped);
    check(known, escaped);
  }
  assert.ok(answered > 0, 'some bodies with colons in their strings were answered');
});
