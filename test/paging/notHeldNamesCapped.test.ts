// Fields not held past 1 000 are counted, not named (notHeld.ts NAMES_NOT_HELD), against JSON.parse of
// the whole body: contract drift and the counts it states must answer as the buffered read
// does, or say in words that it could not check — never a finding JSON.parse's value does not have, and
// never a count of fields that did not arrive.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createCatalog, type JSONSchema, type Operation } from '../../src/core/catalog';
import { checkContract } from '../../src/core/contract/drift';
import { readAnywhere } from '../../src/core/paging/anywhereFetch';
import { fieldsNotHeld, fieldsNotHeldUnnamed } from '../../src/core/paging/notHeld';
import { rowsRule } from '../../src/core/paging/rows';
import { readAtPath, readSkeleton } from './pathReads';

const CHUNK = 65_536;
const NAMES_NOT_HELD = 1000;

function record(i: number): string {
  return `{"id":${i},"name":"Customer ${i} of the test","city":"Springfield","amount":${(i % 997) * 1.25},"active":${i % 2 === 0}}`;
}

/** `count` records keyed r00000000… (about 100 bytes each), as the inside of an object (no braces). */
function records(count: number, from = 0): string {
  const parts: string[] = [];
  for (let i = from; i < from + count; i++) parts.push(`"r${String(i).padStart(8, '0')}":${record(i)}`);
  return parts.join(',');
}

const constituent = createCatalog().operationById('fundraising/Constituents/GetConstituent')!;
function documented(schema: JSONSchema): Operation {
  return { ...constituent, origin: 'import', responseBody: undefined, responseBodyJsonSchema: schema, imported: { source: 'x.json', contributed: ['operation'] } };
}

const anywhere = readSkeleton;

async function atPath(text: string, options: Record<string, string>): Promise<{ body: Record<string, unknown>; rows: string[] }> {
  const { got, lines } = await readAtPath(text, options);
  assert.ok(got.body.ok);
  return { body: got.body.value as Record<string, unknown>, rows: lines };
}

/** How many top-level records the skeleton holds before its 8 MiB budget is spent (measured, not assumed). */
let heldCached: number | undefined;
async function heldCount(): Promise<number> {
  heldCached ??= Object.keys(await anywhere(`{${records(110_000)}}`)).length;
  return heldCached;
}

void describe('an items= path whose first object has more than NAMES_NOT_HELD fields not held', () => {
  // data = 1 500 records (150 KB of them... made past 1 MiB by one long string first) and the rows: data is
  // too large to keep, so pathParts.ts rebuilds it: each of the first 1 000 fields not held is the word
  // in its place, named as not held; past them only counted, with no word a reader could take as a value.
  const rows = Array.from({ length: 50 }, (_, i) => ({ id: i }));
  const text = `{"data":{"pad":"${'x'.repeat(1_200_000)}",${records(1500)},"rows":${JSON.stringify(rows)}}}`;
  const schema: JSONSchema = {
    type: 'object',
    properties: {
      data: {
        type: 'object',
        properties: { pad: { type: 'string' }, rows: { type: 'array', items: { type: 'object' } } },
        additionalProperties: { type: 'object', properties: { id: { type: 'number' }, name: { type: 'string' } }, additionalProperties: {} },
      },
    },
  };

  void it('contract drift finds no type mismatch JSON.parse\'s value does not have (the word "(a value too large to keep)" is no value sent)', async () => {
    const oracle = checkContract(documented(schema), { status: 200, headers: {}, body: JSON.parse(text) });
    assert.deepEqual(oracle.findings, [], 'buffered: every record is an object, as documented');
    const { body, rows: got } = await atPath(text, { items: 'data.rows' });
    assert.equal(got.length, rows.length);
    const drift = checkContract(documented(schema), { status: 200, headers: {}, body });
    const invented = drift.findings.filter((f) => f.kind === 'type-mismatch');
    assert.deepEqual(invented.slice(0, 2).map((f) => `${f.path}: ${f.message}`), [], `${invented.length} type mismatch(es) the buffered read does not have`);
  });

  void it('what it says it did not compare is what it did not compare ("N more … not compared" while N words were compared)', async () => {
    const { body } = await atPath(text, { items: 'data.rows' });
    const data = body['data'] as Record<string, unknown>;
    const unnamed = fieldsNotHeldUnnamed(data);
    const wordsUnnamed = Object.keys(data).filter((k) => data[k] === '(a value too large to keep)' && !fieldsNotHeld(data).includes(k));
    // Either a field in its place as a word is named (drift skips its value), or it is not in the body at all.
    assert.deepEqual(wordsUnnamed.slice(0, 3), [], `${wordsUnnamed.length} word(s) in place of a value, not named as not held (unnamed count ${unnamed})`);
  });
});

void describe('the path\'s first object is a map of many records: bounded as the top-level one is', () => {
  void it('the names of its fields not held are not all kept (a million records would cost a million names)', async () => {
    const count = 60_000;
    const text = `{"data":{${records(count)},"rows":[{"id":1},{"id":2}]}}`;
    const { body, rows } = await atPath(text, { items: 'data.rows' });
    assert.equal(rows.length, 2);
    const data = body['data'] as Record<string, unknown>;
    const held = Object.keys(data).length + fieldsNotHeld(data).length;
    // The top-level map keeps its records within the 8 MiB budget and names at most NAMES_NOT_HELD more;
    // none of data's records is held here: pathLanes.ts names the first NAMES_NOT_HELD and counts the rest.
    assert.ok(held <= 2 * NAMES_NOT_HELD + 10, `data holds ${Object.keys(data).length} keys and names ${fieldsNotHeld(data).length} fields not held, for ${count} records`);
  });
});

void describe('a field not held counted twice (given twice, or not held then kept)', () => {
  void it('a key given twice, both copies not held, the second past the bound: counted as one more field than JSON.parse has', async () => {
    const held = await heldCount();
    // Every record after the budget: `held` kept, NAMES_NOT_HELD named; then the first named one again.
    const again = `"r${String(held).padStart(8, '0')}":${record(0)}`;
    const text = `{${records(held + NAMES_NOT_HELD)},${again}}`;
    const oracle = JSON.parse(text) as Record<string, unknown>;
    assert.equal(Object.keys(oracle).length, held + NAMES_NOT_HELD);
    const body = await anywhere(text);
    assert.equal(Object.keys(body).length, held);
    assert.equal(new Set(fieldsNotHeld(body)).size, NAMES_NOT_HELD, 'every field not held is named');
    assert.equal(fieldsNotHeldUnnamed(body), 0, 'no field of the body went unnamed: there is no "1 more"');
  });

  void it('so a required field never sent is said missing, as buffered (not "may be one of the 1 not named")', async () => {
    const held = await heldCount();
    const again = `"r${String(held).padStart(8, '0')}":${record(0)}`;
    const text = `{${records(held + NAMES_NOT_HELD)},${again}}`;
    const schema: JSONSchema = { type: 'object', required: ['status'], properties: { status: { type: 'string' } }, additionalProperties: { type: 'object' } };
    const oracle = checkContract(documented(schema), { status: 200, headers: {}, body: JSON.parse(text) });
    assert.deepEqual(oracle.findings.map((f) => [f.kind, f.path]), [['missing-field', '$.status']]);
    const got = checkContract(documented(schema), { status: 200, headers: {}, body: await anywhere(text) });
    assert.deepEqual(got.findings.map((f) => [f.kind, f.path]), [['missing-field', '$.status']], JSON.stringify(got.notChecked.slice(-2)));
  });

  void it('a key counted past the bound, then given again as an array (a lane the rule passes over): the count stays an upper bound', async () => {
    const held = await heldCount();
    // NAMES_NOT_HELD named, then "late" not held and only counted, then "late" again as an array JSON.parse keeps.
    const text = `{${records(held + NAMES_NOT_HELD)},"late":${record(1)},"late":[1,2,3]}`;
    const body = await anywhere(text);
    assert.deepEqual(Object.keys(JSON.parse(text) as object).length, held + NAMES_NOT_HELD + 1);
    // Past the budget, an array the rule passes over (numbers, here) leaves nothing in the skeleton: a field not held.
    assert.ok(!Object.hasOwn(body, 'late'), 'the last copy, an array passed over past the budget, is not held');
    // Counted, not named: the count cannot tell the later copy is the same field, so it says "up to 2".
    assert.equal(fieldsNotHeldUnnamed(body), 2, 'an upper bound: never fewer than the fields not held (1 here)');
  });
});

void describe('a key given twice, the last copy past the budget, is read as JSON.parse reads it (the last)', () => {
  const rows = JSON.stringify(Array.from({ length: 3000 }, (_, i) => ({ id: i, name: `n${i}` })));
  for (const [name, first] of [['an array (a lane)', `"list":${rows}`], ['an object holding an array', `"list":{"items":${rows}}`]] as const) {
    void it(`${name} first, then "list":5 after the budget: no rows, as JSON.parse finds none`, async () => {
      const text = `{${first},${records(110_000)},"list":5}`;
      const rule = rowsRule('none', {});
      const oracle = rule.find(JSON.parse(text));
      assert.equal(oracle.ok, false, 'buffered: "list" is 5, the records are no rows');
      const bytes = Buffer.from(text);
      const got = await readAnywhere(async (each) => {
        for (let i = 0; i < bytes.length; i += CHUNK) await each(bytes.subarray(i, i + CHUNK));
      }, (b) => rule.find(b), () => Promise.resolve(), true);
      assert.equal(got.streamed?.rowCount, undefined, `streamed ${got.streamed?.rowCount} rows of the first copy, which JSON.parse drops`);
    });
  }
});

void describe('a field past the budget without `[` (not parsed) still fails and is still read as JSON.parse does', () => {
  const late = async (tail: string): Promise<Record<string, unknown>> => anywhere(`{${records(110_000)},${tail}}`);
  void it('a fault inside a field past the budget with no `[` is said at its byte, in the scanner\'s words', async () => {
    const head = `{${records(110_000)},"bad":`;
    const at = Buffer.byteLength(head);
    for (const [bad, offset, words] of [['{"a":01}', 6, 'a number with a leading zero'], ['{"a":"\\x"}', 7, 'unexpected "x" after a backslash'], ['{"a":tru}', 8, 'unexpected "}" in "true"'], ['{"a":"a\u0001"}', 7, 'a control character inside a string']] as const) {
      const text = `${head}${bad}}`;
      assert.throws(() => JSON.parse(text));
      await assert.rejects(anywhere(text), (error: Error) => error.message.startsWith(`malformed JSON at byte ${at + offset}: ${words}`), bad);
    }
  });
  void it('paging fields and a business flag after the records, past the names\' bound, are kept as sent', async () => {
    const body = await late('"next_link":"/p?page=2","@odata.nextLink":"/o?skip=9","nextLink":"n","next":"x","Success":false,"Message":"no"');
    assert.ok(fieldsNotHeldUnnamed(body) > 0);
    assert.deepEqual([body['next_link'], body['@odata.nextLink'], body['nextLink'], body['next'], body['Success'], body['Message']], ['/p?page=2', '/o?skip=9', 'n', 'x', false, 'no']);
  });
});
