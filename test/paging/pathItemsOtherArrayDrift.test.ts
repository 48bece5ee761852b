// A top-level array that is not the rows (it cannot be: items=data.rows names them) under
// the configurable style, streamed: contract drift against JSON.parse of the same body.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createCatalog, type Operation } from '../../src/core/catalog';
import { checkContract } from '../../src/core/contract/drift';
import { readAnywhere } from '../../src/core/paging/anywhereFetch';
import { genericStrategy } from '../../src/core/paging/strategies/generic';

const base = createCatalog().operationById('fundraising/Constituents/GetConstituent')!;
const OP: Operation = {
  ...base, origin: 'import', responseBody: undefined,
  responseBodyJsonSchema: { type: 'object', properties: { warnings: { type: 'array', items: { type: 'object', properties: { code: { type: 'integer' } } } }, data: { type: 'object' } } },
  imported: { source: 'pathItems.json', contributed: ['operation'] },
};

void describe('drift of an array that is not the rows, streamed', () => {
  void it('is compared as when the body is read whole, and never said to have gone to the output', async () => {
    const text = `{"warnings":[{"code":"not a number"}],"data":{"rows":${JSON.stringify(Array.from({ length: 3000 }, (_, i) => ({ id: i, pad: 'x'.repeat(100) })))}}}`;
    const at = genericStrategy({ items: 'data.rows' }, { maxRetries: 0, maxRetryDelayMs: 0, retryDelayMs: 0 }).streamRows!;
    const written: number[] = [];
    const got = await readAnywhere(async (each) => { await each(Buffer.from(text)); }, (b) => at.anywhere!(b, { headers: {} }), (_b, n) => { written.push(n); return Promise.resolve(); }, true, undefined, at);
    assert.equal(got.streamed?.rowCount, 3000, 'streamed');
    const streamed = checkContract(OP, { status: 200, headers: {}, body: got.body.ok ? got.body.value : undefined });
    const buffered = checkContract(OP, { status: 200, headers: {}, body: JSON.parse(text) });
    assert.deepEqual(streamed.notChecked.filter((w) => w.startsWith('$.warnings')), [], 'words about $.warnings');
    assert.deepEqual(streamed.findings.map((f) => f.path), buffered.findings.map((f) => f.path));
  });
});
