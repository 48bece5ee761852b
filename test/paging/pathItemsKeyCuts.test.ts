// A dotted items= under the configurable style, read by readAnywhere with its kept fields
// (the merge's `where: {path, kept}`), its body cut into chunks at every byte of the escaped keys of the
// path and of the next link: rows, count and the next link as JSON.parse of the whole body.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readAnywhere } from '../../src/core/paging/anywhereFetch';
import { readPath } from '../../src/core/paging/rows';
import { genericStrategy } from '../../src/core/paging/strategies/generic';
import type { RetryPolicy } from '../../src/core/paging/types';

const RETRY: RetryPolicy = { maxRetries: 0, maxRetryDelayMs: 0, retryDelayMs: 0 };
const rows = Array.from({ length: 3000 }, (_, i) => ({ id: i, s: `r\\"${i}\u00e9`, pad: 'z'.repeat(100) }));
const list = JSON.stringify(rows);

async function read(text: string, cuts: readonly number[], options: Record<string, string>): Promise<{ lines: unknown[]; count: number | undefined; body: unknown; error: unknown }> {
  const strategy = genericStrategy(options, RETRY);
  const at = strategy.streamRows!;
  const bytes = Buffer.from(text);
  const written: string[] = [];
  let count: number | undefined;
  let body: unknown;
  let error: unknown;
  try {
    const got = await readAnywhere(async (each) => {
      let from = 0;
      for (const cut of [...cuts, bytes.length]) {
        if (cut > from) await each(bytes.subarray(from, cut));
        from = Math.max(from, cut);
      }
    }, (b) => at.anywhere!(b, { headers: {} }), (b) => { written.push(Buffer.concat(b).toString('utf8')); return Promise.resolve(); }, true, undefined, at);
    count = got.streamed?.rowCount;
    body = got.body.ok ? got.body.value : undefined;
  } catch (e) {
    error = e;
  }
  return { lines: written.join('').split('\n').filter(Boolean).map((l) => JSON.parse(l) as unknown), count, body, error };
}

void describe('chunk boundaries inside escaped keys of the path and of the kept fields', () => {
  const cases: readonly [string, string, Record<string, string>, string][] = [
    ['auto, escaped path keys and next_link', `{"d\\u0061ta":{"x":"\\"r\\u006fws\\":[","r\\u006fws":${list}},"next\\u005flink":"/n?p=2"}`, { items: 'data.rows' }, 'next_link'],
    ['next=data.next, escaped', `{"d\\u0061t\\u0061":{"r\\u006fw\\u0073":${list},"n\\u0065xt":"/n?p=2"}}`, { items: 'data.rows', next: 'data.next' }, 'data.next'],
    ['cursor in meta, escaped', `{"data":{"rows":${list}},"m\\u0065ta":{"c\\u0075rsor":"c2"}}`, { items: 'data.rows', cursor: 'cursor', cursorField: 'meta.cursor' }, 'meta.cursor'],
  ];
  for (const [name, text, options, field] of cases) {
    void it(`${name}: every single cut in the keys gives JSON.parse's rows and ${field}`, async () => {
      const parsed = JSON.parse(text) as unknown;
      const expectedRows = readPath(parsed, 'data.rows') as unknown[];
      const expectedField = readPath(parsed, field);
      const bytes = Buffer.byteLength(text);
      const listAt = Buffer.from(text).indexOf('[{');
      const listEnd = Buffer.from(text).lastIndexOf('}]') + 2;
      const spots = [...Array.from({ length: listAt + 2 }, (_, i) => i), ...Array.from({ length: bytes - listEnd + 1 }, (_, i) => listEnd - 1 + i)];
      for (const cut of spots) {
        // A cut here, and the rest in chunks of 64 KiB.
        const cuts = [cut, ...Array.from({ length: Math.ceil(bytes / 65536) }, (_, k) => cut + (k + 1) * 65536)];
        const got = await read(text, cuts, options);
        assert.equal(got.error, undefined, `cut at ${cut}: ${String(got.error)}`);
        assert.equal(got.count, expectedRows.length, `cut at ${cut}: count`);
        assert.equal(readPath(got.body, field), expectedField, `cut at ${cut}: ${field}`);
        assert.deepEqual(got.lines, expectedRows, `cut at ${cut}: rows`);
      }
    });
  }
});
