// A page whose rows are only counted (a walk without --out: the sink `countsOnly`) and whose declared size is
// at most COUNTED_BODY_BYTES (4 MiB) is read whole and parsed, as a buffered page (pageFetch.ts): JSON.parse
// reads a mid-sized page faster than the scanners stream it (bench/pagedWalk.ts --no-out 1). A page to a
// sink that keeps rows (--out), one larger, one of no declared length, or a compressed one streams as before
// (flat memory of large pages). Either way the walk counts the same rows.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RowSink } from '../../src/core/export/sink';
import type { HttpPort, StreamingResponse } from '../../src/core/http/client';
import { COUNTED_BODY_BYTES, fetchStreamed } from '../../src/core/paging/pageFetch';
import { walk } from '../../src/core/paging/walker';
import type { PagingPlan } from '../../src/core/paging/types';

/** An HTTP port answering with `pages[n]` for `?page=n` (a 200, its length declared unless told otherwise). */
function port(pages: readonly Buffer[], declare: (body: Buffer) => Record<string, string> = (b) => ({ 'content-length': String(b.length) })): HttpPort {
  const stream = (request: { url: string }): Promise<StreamingResponse> => {
    const n = Number(new URL(request.url).searchParams.get('page') ?? 1);
    const body = pages[n - 1] ?? Buffer.from('{}');
    return Promise.resolve({
      status: 200, statusText: 'OK', headers: { 'content-type': 'application/json', ...declare(body) }, startedAt: 0, firstByteMs: 0, redirects: [],
      read: async (each) => {
        for (let at = 0; at < body.length; at += 65536) await each(body.subarray(at, at + 65536));
      },
      discard: () => Promise.resolve(),
    });
  };
  return { send: () => Promise.reject(new Error('not used')), stream };
}

/** A configurable-style page of `rows` rows (~110 bytes each), with a next link but on the last. */
function page(n: number, pages: number, rows: number): Buffer {
  const items = Array.from({ length: rows }, (_, i) => JSON.stringify({ id: (n - 1) * rows + i, name: `row ${i}`, pad: 'x'.repeat(80) }));
  return Buffer.from(`{"count":${pages * rows},"value":[${items.join(',')}]${n < pages ? `,"next_link":"http://127.0.0.1:9/list?page=${n + 1}"` : ''}}`);
}

const request = { method: 'GET', url: 'http://127.0.0.1:9/list?page=1', headers: {} };

void describe('a counted page up to COUNTED_BODY_BYTES is read whole', () => {
  void it('held and parsed when only counted; streamed to a sink that keeps rows, when larger, undeclared or compressed', async () => {
    const mid = page(1, 1, 10_000);
    assert.ok(mid.length > 256 * 1024 && mid.length < COUNTED_BODY_BYTES, `a mid-sized page (${mid.length} bytes)`);
    const anywhere = { anywhere: () => ({ ok: false as const, reason: 'not asked here' }) };
    const held = await fetchStreamed(port([mid]), request, {}, anywhere, undefined, true, undefined, true);
    assert.equal(held.streamed, undefined, 'held whole');
    assert.equal(held.response.bodyText.length, mid.length);
    assert.ok(held.body.ok && (held.body.value as { value: unknown[] }).value.length === 10_000, 'its real rows, parsed');
    // The same page to a sink that keeps rows, or a field style's page counted only: streamed as before.
    for (const [rowsAt, countsOnly] of [[{ anywhere: (b: unknown) => ({ ok: true as const, path: 'value', rows: (b as { value: unknown[] }).value }) }, false], [{ field: 'value' }, false]] as const) {
      const streamed = await fetchStreamed(port([mid]), request, {}, rowsAt, undefined, true, undefined, countsOnly);
      assert.equal(streamed.streamed?.rowCount, 10_000, `streamed (${JSON.stringify(rowsAt)}, countsOnly ${countsOnly})`);
      assert.equal(streamed.response.bodyText, '');
    }
    const large = page(1, 1, 42_000);
    assert.ok(large.length > COUNTED_BODY_BYTES);
    const undeclared = (): Record<string, string> => ({});
    const compressed = (): Record<string, string> => ({ 'content-length': '10', 'content-encoding': 'identity-not' });
    for (const [body, declare] of [[large, undefined], [mid, undeclared], [mid, compressed]] as const) {
      const got = await fetchStreamed(port([body], declare), request, {}, { field: 'value' }, undefined, true, undefined, true);
      assert.equal(got.response.bodyText, '', 'streamed, not held');
      assert.ok(got.streamed, 'its rows streamed');
    }
  });

  void it('a walk without --out counts the same rows as one with, its mid-sized pages parsed', async () => {
    const pages = [page(1, 3, 8000), page(2, 3, 8000), page(3, 3, 5)];
    const plan: PagingPlan = { style: 'generic', options: {}, source: 'directive' };
    const run = async (countsOnly: boolean): Promise<{ parsed: number; streamed: number; rows: number }> => {
      const seen = { parsed: 0, streamed: 0 };
      const sink: RowSink = {
        format: countsOnly ? 'memory' : 'ndjson', ...(countsOnly ? { countsOnly } : {}),
        writePage: (rows) => { seen.parsed += rows.length; return Promise.resolve(); },
        writeNdjsonPage: (_lines, rowCount) => { seen.streamed += rowCount; return Promise.resolve(); },
        checkpoint: () => undefined, close: () => Promise.resolve(),
      };
      const result = await walk(request, { plan, http: port(pages), sink });
      return { ...seen, rows: result.rows };
    };
    const counted = await run(true);
    assert.deepEqual(counted, { parsed: 16_005, streamed: 0, rows: 16_005 });
    const kept = await run(false);
    // With --out, only the last page (under HELD_BODY_BYTES) is held: the mid-sized ones stream.
    assert.deepEqual(kept, { parsed: 5, streamed: 16_000, rows: 16_005 });
  });
});
