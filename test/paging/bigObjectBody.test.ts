// One big object (a map of records, no array: no rows) read anywhere as it arrives, against JSON.parse of
// the whole body. Past the skeleton's budget its fields are not held, and past NAMES_NOT_HELD not even
// named, only counted (notHeld.ts): what a check reads by name stays named, a key given twice is answered
// as JSON.parse answers it (the last), business words and contract drift at the top level are read as
// buffered, and a cut or broken body fails in words at its byte. Memory itself: bench/singleResponse.ts.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createCatalog, type JSONSchema, type Operation } from '../../src/core/catalog';
import { detectBusinessErrors } from '../../src/core/catalog/businessErrors';
import { checkContract } from '../../src/core/contract/drift';
import { MalformedJsonError } from '../../src/core/export/splitResult';
import { readAnywhere } from '../../src/core/paging/anywhereFetch';
import { fieldsNotHeld, fieldsNotHeldUnnamed, isNotHeld } from '../../src/core/paging/notHeld';
import { readPath, rowsRule } from '../../src/core/paging/rows';
import { readAtPath } from './pathReads';

const CHUNK = 65_536;
/** notHeld.ts's bound: fields not held named, past it counted. */
const NAMES_NOT_HELD = 1000;

function record(i: number): string {
  return `{"id":${i},"name":"Customer ${i} of the test","city":"Springfield","amount":${(i % 997) * 1.25},"active":${i % 2 === 0}}`;
}

/** `head` fields, then `count` records keyed r00000000…, then `tail` fields: about 100 bytes a record. */
function bigObject(count: number, head = '', tail = ''): string {
  const parts: string[] = [];
  for (let i = 0; i < count; i++) parts.push(`"r${String(i).padStart(8, '0')}":${record(i)}`);
  return `{${head}${head && count ? ',' : ''}${parts.join(',')}${tail && count ? ',' : ''}${tail}}`;
}

/** Past the 8 MiB budget by far more than NAMES_NOT_HELD records. */
const MANY = 110_000;

async function streamed(text: string, cut?: number): Promise<{ body: Record<string, unknown>; rows: number | undefined }> {
  const rule = rowsRule('none', {});
  const bytes = Buffer.from(text).subarray(0, cut);
  const got = await readAnywhere(async (each) => {
    for (let i = 0; i < bytes.length; i += CHUNK) await each(bytes.subarray(i, i + CHUNK));
  }, (b) => rule.find(b), () => Promise.resolve(), true);
  assert.ok(got.body.ok);
  return { body: got.body.value as Record<string, unknown>, rows: got.streamed?.rowCount };
}

async function fault(text: string, cut?: number): Promise<MalformedJsonError> {
  try {
    await streamed(text, cut);
  } catch (error) {
    assert.ok(error instanceof MalformedJsonError, String(error));
    return error;
  }
  assert.fail('the body was taken');
}

void describe('one big object past the skeleton\'s budget, against JSON.parse', () => {
  void it('no rows; every field held is JSON.parse\'s; the rest named up to NAMES_NOT_HELD, then counted', async () => {
    const text = bigObject(MANY);
    const oracle = JSON.parse(text) as Record<string, unknown>;
    const { body, rows } = await streamed(text);
    assert.equal(rows, undefined, 'a map of records has no rows');
    const held = Object.keys(body);
    assert.ok(held.length > 1000 && held.length < MANY - 2 * NAMES_NOT_HELD, `held ${held.length} of ${MANY}`);
    for (const key of held) assert.deepEqual(body[key], oracle[key], key);
    assert.deepEqual(held, Object.keys(oracle).slice(0, held.length), 'held in body order, the first ones');
    const named = fieldsNotHeld(body);
    assert.equal(named.length, NAMES_NOT_HELD, 'named up to the bound, no more');
    assert.deepEqual(named, Object.keys(oracle).slice(held.length, held.length + NAMES_NOT_HELD), 'the first fields not held, named');
    assert.equal(named.length + fieldsNotHeldUnnamed(body), MANY - held.length, 'every field not held is named or counted');
  });

  void it('at NAMES_NOT_HELD fields not held, none is only counted (the boundary)', async () => {
    const first = await streamed(bigObject(MANY));
    const heldCount = Object.keys(first.body).length;
    const exact = await streamed(bigObject(heldCount + NAMES_NOT_HELD));
    assert.equal(fieldsNotHeld(exact.body).length, NAMES_NOT_HELD);
    assert.equal(fieldsNotHeldUnnamed(exact.body), 0);
    const one = await streamed(bigObject(heldCount + NAMES_NOT_HELD + 1));
    assert.equal(fieldsNotHeldUnnamed(one.body), 1);
  });
});

void describe('a key given twice in one big object is answered as JSON.parse answers it', () => {
  void it('held first, then again past the names\' bound: the stale copy is never read as the value given', async () => {
    const text = bigObject(MANY, '"dup":{"v":1}', '"dup":{"v":2}');
    assert.deepEqual((JSON.parse(text) as { dup: unknown }).dup, { v: 2 });
    const { body } = await streamed(text);
    assert.ok(fieldsNotHeld(body).includes('dup'), 'named not held, however many fields came before it');
    const driftOf = checkContract(documented({ type: 'object', properties: { dup: { type: 'object', properties: { v: { type: 'string' } } } }, additionalProperties: {} }), { status: 200, headers: {}, body });
    assert.deepEqual(driftOf.findings, [], 'the first copy ({"v":1}, a number) is not compared as if the server had left it');
    assert.ok(driftOf.notChecked.includes('$.dup: too large to keep, so not compared with the contract.'), JSON.stringify(driftOf.notChecked.slice(0, 3)));
  });

  for (const [first, last] of [['[{"ErrorCode":7,"ErrorDescription":"Invalid brand"}]', '[]'], ['[]', '[{"ErrorCode":7,"ErrorDescription":"Invalid brand"}]']] as const) {
    void it(`a business key given twice (${first.length > 2 ? 'failure, then none' : 'none, then a failure'}): the last is read`, async () => {
      const text = bigObject(MANY, `"ResponseStatus":false,"Errors":${first}`, `"Errors":${last}`);
      const { body } = await streamed(text);
      assert.deepEqual(detectBusinessErrors(body), detectBusinessErrors(JSON.parse(text)));
      assert.deepEqual(body['Errors'], JSON.parse(last));
    });
  }
});

void describe('business words at the top of one big object', () => {
  const cases: readonly (readonly [string, string, string])[] = [
    ['ResponseStatus and Errors before the records', '"ResponseStatus":false,"Errors":[{"ErrorCode":3,"ErrorDescription":"Customer not found"}]', ''],
    ['ResponseStatus and Errors after them, past the names\' bound', '', '"ResponseStatus":false,"Errors":[{"ErrorCode":3,"ErrorDescription":"Customer not found"}]'],
    ['Success before, Error after', '"Success":false', '"Error":"The token has expired"'],
    ['Response and Errors as strings at the end', '', '"Response":false,"Errors":["Quota spent","Try tomorrow"]'],
    ['a success flag only', '"ResponseStatus":true', ''],
  ];
  for (const [name, head, tail] of cases) {
    void it(`${name}: the same verdict and words as JSON.parse`, async () => {
      const text = bigObject(MANY, head, tail);
      const { body } = await streamed(text);
      const report = detectBusinessErrors(body);
      assert.deepEqual(report, detectBusinessErrors(JSON.parse(text)));
      for (const key of ['Errors', 'Error']) if (key in body) assert.ok(!isNotHeld(body[key]) && !fieldsNotHeld(body).includes(key), `${key} held as sent`);
    });
  }
});

const constituent = createCatalog().operationById('fundraising/Constituents/GetConstituent')!;
function documented(schema: JSONSchema): Operation {
  return { ...constituent, origin: 'import', responseBody: undefined, responseBodyJsonSchema: schema, imported: { source: 'x.json', contributed: ['operation'] } };
}

void describe('contract drift at the top of one big object', () => {
  const schema: JSONSchema = {
    type: 'object', required: ['status', 'zEnd'],
    properties: { status: { type: 'string' }, zEnd: { type: 'string' } },
    additionalProperties: { type: 'object', properties: { id: { type: 'number' }, name: { type: 'string' } }, additionalProperties: {} },
  };

  void it('the records\' drift (a field the contract does not document) is found as buffered', async () => {
    const closed: JSONSchema = { ...schema, additionalProperties: { type: 'object', properties: { id: { type: 'number' }, name: { type: 'string' } } } };
    const text = bigObject(MANY, '"status":"ok"', '"zEnd":"done"');
    const { body } = await streamed(text);
    const got = checkContract(documented(closed), { status: 200, headers: {}, body });
    const oracle = checkContract(documented(closed), { status: 200, headers: {}, body: JSON.parse(text) });
    assert.ok(got.findings.length > 10);
    assert.deepEqual(got.findings, oracle.findings);
  });

  void it('a required field sent past the names\' bound is never said missing; a drifting field held is found as buffered', async () => {
    const text = bigObject(MANY, '"status":5', '"zEnd":"done"');
    const { body } = await streamed(text);
    assert.ok(!fieldsNotHeld(body).includes('zEnd') && !('zEnd' in body), 'zEnd only counted');
    const got = checkContract(documented(schema), { status: 200, headers: {}, body });
    const oracle = checkContract(documented(schema), { status: 200, headers: {}, body: JSON.parse(text) });
    assert.deepEqual(got.findings.map((f) => [f.kind, f.path]), [['type-mismatch', '$.status']]);
    assert.deepEqual(oracle.findings.map((f) => [f.kind, f.path]), [['type-mismatch', '$.status']]);
    const unnamed = fieldsNotHeldUnnamed(body);
    assert.ok(got.notChecked.includes(`$: up to ${unnamed} more field(s) arrived too large to keep, so neither their names nor their values were compared with the contract.`), JSON.stringify(got.notChecked.slice(-3)));
  });

  void it('a required field never sent: not checked past the names\' bound, missing when every field not held is named', async () => {
    const big = await streamed(bigObject(MANY, '"status":"ok"'));
    const got = checkContract(documented(schema), { status: 200, headers: {}, body: big.body });
    assert.deepEqual(got.findings, []);
    assert.ok(got.notChecked.some((w) => w.startsWith('$.zEnd: not among the fields kept')), JSON.stringify(got.notChecked.slice(-3)));
    const heldCount = Object.keys(big.body).length - 1;
    const named = await streamed(bigObject(heldCount + NAMES_NOT_HELD - 1, '"status":"ok"'));
    assert.equal(fieldsNotHeldUnnamed(named.body), 0);
    const missing = checkContract(documented(schema), { status: 200, headers: {}, body: named.body });
    assert.deepEqual(missing.findings.map((f) => [f.kind, f.path]), [['missing-field', '$.zEnd']]);
  });
});

void describe('one big object cut or broken mid-stream fails in words at its byte', () => {
  const text = bigObject(MANY);
  const bytes = Buffer.byteLength(text);
  for (const cut of [bytes - 1, Math.floor(bytes * 0.9), 9 << 20, 12_345]) {
    void it(`cut after ${cut} of ${bytes} bytes`, async () => {
      assert.throws(() => JSON.parse(text.slice(0, cut)));
      const error = await fault(text, cut);
      assert.match(error.message, new RegExp(`ends early \\(after ${cut} bytes\\)`));
    });
  }
  // A comma between two records made a semicolon: nothing JSON allows there.
  for (const at of [text.indexOf(',"r', Math.floor(bytes * 0.95)), text.indexOf(',"r', 100)]) {
    void it(`a stray byte at ${at}: said at that byte`, async () => {
      const broken = `${text.slice(0, at)};${text.slice(at + 1)}`;
      assert.throws(() => JSON.parse(broken));
      const error = await fault(broken);
      assert.match(error.message, new RegExp(`^malformed JSON at byte ${at}\\b`));
    });
  }
});

void describe('an items= path whose first object comes after one big object\'s records, too large to keep', () => {
  void it('its rows, next link and field names are JSON.parse\'s, however many fields went unnamed before it', async () => {
    const rows = Array.from({ length: 3000 }, (_, i) => ({ id: i, pad: 'z'.repeat(50) }));
    const records = bigObject(MANY).slice(1, -1);
    const text = `{${records},"data":{"pad":"${'x'.repeat(1_500_000)}","rows":${JSON.stringify(rows)},"next":"/n?p=2"}}`;
    const { got, lines } = await readAtPath(text, { items: 'data.rows', next: 'data.next' });
    assert.ok(got.body.ok);
    assert.ok(fieldsNotHeldUnnamed(got.body.value as object) > 0, 'fields before it went unnamed');
    assert.equal(got.streamed?.rowCount, rows.length);
    assert.deepEqual(lines.map((l) => JSON.parse(l) as unknown), rows);
    assert.equal(readPath(got.body.value, 'data.next'), readPath(JSON.parse(text), 'data.next'));
    // Its fields in body order, the one too large to keep in its place as a word (pathParts.ts): none said missing.
    const data = (got.body.value as { data: object }).data;
    assert.deepEqual(Object.keys(data), Object.keys((JSON.parse(text) as { data: object }).data));
  });
});
