// A streamed object body whose top-level field is too large to keep (past fieldBytes, 1 MiB) is left out of
// the skeleton; the skeleton notes it (paging/notHeld.ts), so contract drift says it was not compared,
// never that the server left out a field it sent (a false 'missing-field', before). Found by a review.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createCatalog, type Operation } from '../../src/core/catalog';
import { checkContract } from '../../src/core/contract/drift';
import { readAnywhere } from '../../src/core/paging/anywhereFetch';
import { rowsRule } from '../../src/core/paging/rows';

const catalog = createCatalog();
const constituent = catalog.operationById('fundraising/Constituents/GetConstituent')!;
const documented: Operation = {
  ...constituent, origin: 'import', responseBody: undefined,
  responseBodyJsonSchema: {
    type: 'object', required: ['id', 'value'],
    properties: {
      id: { type: 'string' },
      value: { type: 'array', items: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } } },
    },
  },
  imported: { source: 'x.json', contributed: ['operation'] },
};

/** The body as the exchange's streaming read keeps it (no paging style), read in 64 KiB chunks. */
async function streamedBody(text: string): Promise<unknown> {
  const rule = rowsRule('none', {});
  const bytes = Buffer.from(text);
  const read = await readAnywhere(async (each) => {
    for (let i = 0; i < bytes.length; i += 65_536) await each(bytes.subarray(i, i + 65_536));
  }, (body) => rule.find(body), undefined, true);
  assert.ok(read.body.ok);
  return read.body.value;
}

void describe('a field too large to keep is not drift', () => {
  void it('a 1.5 MB string field the server sent is not reported missing', async () => {
    const text = JSON.stringify({ id: 'x'.repeat(1_500_000), value: Array.from({ length: 5_000 }, (_, i) => ({ name: `n${i}` })) });
    const body = await streamedBody(text);
    const result = checkContract(documented, { status: 200, headers: {}, body });
    assert.deepEqual(result.findings.map((f) => [f.kind, f.path]), [], `findings: ${JSON.stringify(result.findings.map((f) => f.message))}; notChecked: ${JSON.stringify(result.notChecked)}`);
    assert.ok(result.notChecked.some((words) => words.startsWith('$.id: too large to keep')), JSON.stringify(result.notChecked));
  });
});

void describe('an object field holding a streamed array, too large to keep', () => {
  const withCampaign: Operation = {
    ...documented,
    responseBodyJsonSchema: {
      type: 'object', required: ['id'],
      properties: {
        id: { type: 'string' },
        campaign: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, lists: { type: 'array', items: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } } } } },
      },
    },
  };
  for (const nameFirst of [true, false]) void it(`its other fields (a name the server sent${nameFirst ? ', before' : ', after'} the array) are not reported missing`, async () => {
    const lists = Array.from({ length: 20_000 }, (_, i) => ({ name: `n${i}`, pad: 'x'.repeat(60) }));
    const text = JSON.stringify({ id: 'c1', campaign: nameFirst ? { name: 'spring', lists } : { lists, name: 'spring' } });
    const body = await streamedBody(text);
    const result = checkContract(withCampaign, { status: 200, headers: {}, body });
    assert.deepEqual(result.findings.map((f) => [f.kind, f.path]), [], `findings: ${JSON.stringify(result.findings.map((f) => f.message))}; notChecked: ${JSON.stringify(result.notChecked)}; skeleton keys: ${JSON.stringify(Object.keys((body as { campaign: object }).campaign))}`);
  });
});
