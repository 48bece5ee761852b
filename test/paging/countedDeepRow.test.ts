// A 500 KB page whose last row nests 600 arrays deep: past the 512 levels the product reads
// (src/core/json/depth.ts), the walk fails in those words with or without --out, whether the page is held
// and parsed whole or streamed (the streamed read refuses it too, as a page read whole always did; a review
// once found a walk without --out deciding otherwise than one with it). Oracle: the walk whose page streams.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RowSink } from '../../src/core/export/sink';
import type { HttpPort, StreamingResponse } from '../../src/core/http/client';
import { walk } from '../../src/core/paging/walker';
import type { PagingPlan } from '../../src/core/paging/types';
import { HELD } from '../../src/core/paging/heldBody';

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
    void it(`${name}: the walk without --out decides as the one with --out, held or streamed (failed: nested too deep)`, async () => {
      const said: unknown[] = [];
      const budget = { ...HELD };
      try {
        for (const bytes of [0, budget.bytes]) {
          HELD.bytes = bytes;
          for (const countsOnly of [false, true]) {
            const w = await walked(plan, countsOnly);
            assert.match(w.message, /nests arrays and objects deeper than 512 levels/, w.message);
            said.push({ verdict: w.verdict, rows: w.rows });
          }
        }
      } finally {
        Object.assign(HELD, budget);
      }
      assert.deepEqual(said, Array.from({ length: 4 }, () => ({ verdict: 'failed', rows: 0 })));
    });
  }
});
