// A walk without --out decides as the same walk with --out: the consistency checks compare pages by their
// rows' text, and a page read whole (JSON.stringify's text) beside a streamed one (the server's text) never
// matches for a server that spaces its JSON (`{"id": 1, …}`, Python's json.dumps). Page 2 repeats page 1's
// last rows, one page large and the next mid-sized: the walk must stop as inconsistent, not count the
// rows twice. (A review found this when mid-sized counted pages were parsed whole; that was taken out.)
// Oracle: the paging decisions of the walk whose pages all stream.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RowSink } from '../../src/core/export/sink';
import type { HttpPort, StreamingResponse } from '../../src/core/http/client';
import { walk } from '../../src/core/paging/walker';
import type { PagingPlan } from '../../src/core/paging/types';

/** An HTTP port answering `pages[n - 1]` for `?page=n`, its length declared. */
function port(pages: readonly Buffer[]): HttpPort {
  const stream = (request: { url: string }): Promise<StreamingResponse> => {
    const n = Number(new URL(request.url).searchParams.get('page') ?? 1);
    const body = pages[n - 1] ?? Buffer.from('{}');
    return Promise.resolve({
      status: 200, statusText: 'OK', headers: { 'content-type': 'application/json', 'content-length': String(body.length) }, startedAt: 0, firstByteMs: 0, redirects: [],
      read: async (each) => {
        for (let at = 0; at < body.length; at += 65536) await each(body.subarray(at, at + 65536));
      },
      discard: () => Promise.resolve(),
    });
  };
  return { send: () => Promise.reject(new Error('not used')), stream };
}

/** Rows `from` … `to - 1`, spaced as Python's json.dumps writes them. */
const spaced = (from: number, to: number): string => Array.from({ length: to - from }, (_, k) => `{"id": ${from + k}, "pad": "${'x'.repeat(80)}"}`).join(', ');
const pageOf = (from: number, to: number, next: number | undefined): Buffer =>
  Buffer.from(`{"value": [${spaced(from, to)}]${next === undefined ? '' : `, "next_link": "http://127.0.0.1:9/list?page=${next}"`}}`);

/** A large page against a mid-sized one (a hold of mid-sized counted pages, once tried, parsed these whole). */
const COUNTED_BODY_BYTES = 4 * 1048576;

const request = { method: 'GET', url: 'http://127.0.0.1:9/list?page=1', headers: {} };
const plan: PagingPlan = { style: 'generic', options: { items: 'value', next: 'next_link' }, source: 'directive' };

async function walked(pages: readonly Buffer[], countsOnly: boolean): Promise<{ verdict: string; rows: number; message: string }> {
  const sink: RowSink = {
    format: countsOnly ? 'memory' : 'ndjson', ...(countsOnly ? { countsOnly } : {}),
    writePage: () => Promise.resolve(),
    writeNdjsonPage: () => Promise.resolve(),
    checkpoint: () => undefined, close: () => Promise.resolve(),
  };
  const result = await walk(request, { plan, http: port(pages), sink });
  return { verdict: result.verdict, rows: result.rows, message: result.message ?? '' };
}

void describe('a walk\'s seam check, a large page then a mid-sized one', () => {
  // Page 1: rows 0-44 999 (past 4 MiB). Page 2: rows 44 997-47 999 (mid-sized), its first three rows
  // page 1's last three (a shifted offset).
  const pages = [pageOf(0, 45_000, 2), pageOf(44_997, 48_000, undefined)];

  void it('the first page is large, the second mid-sized', () => {
    assert.ok(pages[0]!.length > COUNTED_BODY_BYTES && pages[1]!.length < COUNTED_BODY_BYTES);
  });

  void it('with --out (every page streamed): the walk stops, the pages overlap', async () => {
    const got = await walked(pages, false);
    assert.equal(got.verdict, 'inconsistent', JSON.stringify(got));
    assert.match(got.message, /3 row\(s\) of page 2 were already on page 1/);
  });

  void it('without --out: the same paging decision, not 48 003 rows counted with three twice', async () => {
    const got = await walked(pages, true);
    assert.equal(got.verdict, 'inconsistent', JSON.stringify(got));
    assert.match(got.message, /3 row\(s\) of page 2 were already on page 1/);
  });
});
