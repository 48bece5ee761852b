// Rows at items=a.b.c stream with flat memory under any style's options. Under the configurable style
// with next=data.next, the step reads a field inside the path's first object (`data`): only that field
// may be kept of it, never the whole object (everything else inside it would be held). One streamed page
// over 127.0.0.1, its heap sampled while it arrives, against the same walk without next= (the auto mode:
// the next link a top-level field).
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { openNdjsonSink } from '../../src/core/export/ndjsonSink';
import { walk } from '../../src/core/paging/walker';
import { startLoopback, type Loopback } from './loopback';

// About 40 MB of small objects inside `data`, beside the rows, sent in 64 KiB pieces.
const AUDIT_ITEMS = 400_000;
const ROWS = 2000;

let loop: Loopback;
let origin = '';
let dir = '';

function* body(nextInData: boolean): Generator<string> {
  yield '{"data":{"audit":[';
  for (let i = 0; i < AUDIT_ITEMS; i += 1000) {
    yield Array.from({ length: 1000 }, (_, k) => `{"a":${i + k},"b":"audit entry ${i + k}","c":[${k},${k + 1}]}`).join(',') + (i + 1000 < AUDIT_ITEMS ? ',' : '');
  }
  yield `],"rows":[${Array.from({ length: ROWS }, (_, i) => JSON.stringify({ id: i, pad: 'r'.repeat(100) })).join(',')}]`;
  yield nextInData ? ',"next":null}}' : '},"next_link":null}';
}

async function peakHeap(nextInData: boolean): Promise<{ peak: number; rows: number; verdict: string }> {
  const sink = await openNdjsonSink(join(dir, `m-${nextInData}.ndjson`));
  global.gc?.();
  const start = process.memoryUsage().heapUsed;
  let peak = start;
  const timer = setInterval(() => { peak = Math.max(peak, process.memoryUsage().heapUsed); }, 2);
  const result = await walk({ method: 'GET', url: `${origin}/${nextInData ? 'in' : 'top'}`, headers: {} }, {
    plan: { style: 'generic', options: nextInData ? { items: 'data.rows', next: 'data.next' } : { items: 'data.rows' }, source: 'directive' }, sink,
  });
  clearInterval(timer);
  peak = Math.max(peak, process.memoryUsage().heapUsed);
  await sink.close();
  return { peak: peak - start, rows: result.rows, verdict: result.verdict };
}

void describe('flat memory for rows at items=data.rows, whatever the style\'s options', () => {
  before(async () => {
    loop = await startLoopback('apiwb-pathitems-mem-', (req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const pieces = body(req.url === '/in');
      const pump = (): void => {
        for (let next = pieces.next(); !next.done; next = pieces.next()) {
          if (!res.write(next.value)) { res.once('drain', pump); return; }
        }
        res.end();
      };
      pump();
    });
    ({ origin, dir } = loop);
  });
  after(() => loop.close());

  void it('next=data.next holds no more of the page than the auto mode does', async (t) => {
    const top = await peakHeap(false);
    const inData = await peakHeap(true);
    assert.equal(top.verdict, 'complete');
    assert.equal(inData.verdict, 'complete');
    assert.equal(top.rows, ROWS);
    assert.equal(inData.rows, ROWS);
    const mb = (n: number): string => `${(n / 1048576).toFixed(1)} MB`;
    t.diagnostic(`heap growth while the page arrived: next=data.next ${mb(inData.peak)}, auto ${mb(top.peak)}`);
    assert.ok(inData.peak < top.peak + 32 * 1048576, `heap growth while the page arrived: next=data.next ${mb(inData.peak)}, auto ${mb(top.peak)}`);
  });
});
