// A 500 KB page whose last row nests 600 arrays deep: JSON.parse reads it, and the walk completes with
// its 5 001 rows with or without --out (a page read whole refuses a body nested past 512 levels; a
// review found a walk without --out failing when mid-sized counted pages were parsed whole, since taken
// out). Oracle: the walk whose page streams (same verdict and rows either way).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RowSink } from '../../src/core/export/sink';
import type { HttpPort, StreamingResponse } from '../../src/core/http/client';
import { walk } from '../../src/core/paging/walker';
import type { PagingPlan } from '../../src/core/paging/types';

function port(body: Buffer): HttpPort {
  const stream = (): Promise<StreamingResponse> => Promise.resolve({
    status: 200, statusText: 'OK', headers: { 'content-type': 'application/json', 'content-length': String(body.length) }, startedAt: 0, firstByteMs: 0, redirects: [],
    read: async (each) => {
      for (let at = 0; at < body.length; at += 65536) await each(body.subarray(at, at + 65536));
    },
    discard: () => Promise.resolve(),
  });
  return { send: () => Promise.reject(new Error('not used')), stream };
}

const deep = `${'['.repeat(600)}${']'.repeat(600)}`;
const rows = [...Array.from({ length: 5000 }, (_, i) => JSON.stringify({ id: i, pad: 'x'.repeat(80) })), `{"id":"deep","d":${deep}}`];
const BODY = Buffer.from(`{"value":[${rows.join(',')}]}`);

async function walked(plan: PagingPlan, countsOnly: boolean): Promise<{ verdict: string; rows: number; message: string }> {
  const sink: RowSink = {
    format: countsOnly ? 'memory' : 'ndjson', ...(countsOnly ? { countsOnly } : {}),
    writePage: () => Promise.resolve(), writeNdjsonPage: () => Promise.resolve(),
    checkpoint: () => undefined, close: () => Promise.resolve(),
  };
  const result = await walk({ method: 'GET', url: 'http://127.0.0.1:9/x', headers: {} }, { plan, http: port(BODY), sink });
  return { verdict: result.verdict, rows: result.rows, message: result.message ?? '' };
}

void describe('a mid-sized page with one row nested 600 deep', () => {
  void it('JSON.parse reads it: 5 001 rows (the oracle); the page is past 256 KiB and under 4 MiB', () => {
    assert.equal((JSON.parse(BODY.toString('utf8')) as { value: unknown[] }).value.length, 5001);
    assert.ok(BODY.length > 256 * 1024 && BODY.length < 4 * 1048576);
  });

  for (const [name, plan] of [
    ['items=value', { style: 'generic', options: { items: 'value' }, source: 'directive' }],
    ['no items= (rows found anywhere)', { style: 'generic', options: {}, source: 'directive' }],
  ] as const) {
    void it(`${name}: the walk without --out decides as the one with --out (complete, 5 001 rows)`, async () => {
      const out = await walked(plan, false);
      assert.deepEqual({ verdict: out.verdict, rows: out.rows }, { verdict: 'complete', rows: 5001 }, out.message);
      const counted = await walked(plan, true);
      assert.deepEqual({ verdict: counted.verdict, rows: counted.rows }, { verdict: 'complete', rows: 5001 }, counted.message);
    });
  }
});
