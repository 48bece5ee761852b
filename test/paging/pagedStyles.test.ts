// Paged styles whose rows are not at one top-level field stream each page through the same path as a
// single response (issue 37): the configurable style (its names value, items, data, results, else the
// largest array; its next link at a dotted path) and the batch cursor (Assets, else the largest array;
// its BatchID and Remaining). Oracle: JSON.parse of each page and the one rows rule; the same walk with
// streaming turned off gives the same file. Over real HTTP on 127.0.0.1, pages past the size held whole.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { openNdjsonSink } from '../../src/core/export/ndjsonSink';
import { closeHttpAgents } from '../../src/core/http/client';
import type { HttpRequest } from '../../src/core/http/types';
import type { PagingPlan } from '../../src/core/paging/types';
import { walk } from '../../src/core/paging/walker';
import { rowsRule } from '../../src/core/paging/rows';

const PAGES = 3;
const row = (page: number, i: number): Record<string, unknown> => ({ id: page * 100_000 + i, name: `row ${i} of page ${page}`, tags: ['a', i], note: i % 9 === 0 ? 'x "y" [z]' : 'plain' });
const rows = (page: number, n: number): Record<string, unknown>[] => Array.from({ length: n }, (_, i) => row(page, i));

/** The configurable style: `value` is named, so it holds the rows though a larger array comes first. */
function genericPage(page: number): string {
  return JSON.stringify({
    Big: rows(page + 10, 4000), links: { self: `/g?page=${page}`, next: page < PAGES ? `/g?page=${page + 1}` : null },
    value: rows(page, 3000), Errors: [],
  });
}

/** The batch cursor: no Assets, so the largest array one or two levels down holds the rows. */
function batchPage(page: number): string {
  return JSON.stringify({ BatchID: `cursor-${page + 1}`, Remaining: PAGES - page, Few: rows(page + 20, 5), Result: { Items: rows(page, 3500) } });
}

let server: Server;
let base = '';
let dir = '';
const bodies: Record<string, string[]> = { generic: [], batch: [] };

async function walkTo(file: string, plan: PagingPlan, url: string, method: string, streamRows: boolean): Promise<{ lines: unknown[]; verdict: string; pages: number }> {
  const sink = await openNdjsonSink(file);
  const headers: Record<string, string> = method === 'POST' ? { 'content-type': 'application/json' } : {};
  const request: HttpRequest = { method, url, headers, ...(method === 'POST' ? { body: '{"BatchID":"","BatchSize":3500}' } : {}) };
  const result = await walk(request, { plan, sink, streamRows });
  await sink.close();
  const lines = readFileSync(file, 'utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as unknown);
  return { lines, verdict: result.verdict, pages: result.pages };
}

void describe('paged styles stream each page by the one rows rule', () => {
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'apiwb-paged-styles-'));
    for (let p = 1; p <= PAGES; p++) {
      bodies.generic!.push(genericPage(p));
      bodies.batch!.push(batchPage(p));
    }
    server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      let chunks = '';
      req.on('data', (c: Buffer) => { chunks += c.toString(); });
      req.on('end', () => {
        let body: string | undefined;
        if (url.pathname === '/g') body = bodies.generic![Number(url.searchParams.get('page') ?? '1') - 1];
        if (url.pathname === '/b') {
          const cursor = (JSON.parse(chunks || '{}') as { BatchID?: string }).BatchID ?? '';
          body = bodies.batch![cursor === '' ? 0 : Number(cursor.slice('cursor-'.length)) - 1];
        }
        res.writeHead(body ? 200 : 404, { 'content-type': 'application/json' });
        res.end(body ?? '{}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    server.close();
    await closeHttpAgents();
    rmSync(dir, { recursive: true, force: true });
  });

  const cases = [
    { name: 'configurable style (next link at links.next)', key: 'generic', plan: { style: 'generic', options: { next: 'links.next' }, source: 'directive' } as PagingPlan, path: '/g', method: 'GET' },
    { name: 'batch cursor (largest array two levels down)', key: 'batch', plan: { style: 'batch-cursor', options: {}, source: 'directive' } as PagingPlan, path: '/b', method: 'POST' },
  ];
  for (const c of cases) {
    void it(`${c.name}: the file holds JSON.parse's rows of every page, streamed as buffered`, async () => {
      const rule = rowsRule(c.plan.style, c.plan.options);
      const expected = bodies[c.key]!.flatMap((text) => {
        const found = rule.find(JSON.parse(text));
        assert.ok(found.ok);
        return [...found.rows];
      });
      assert.ok(Buffer.byteLength(bodies[c.key]![0]!) > 256 * 1024, 'pages are past the size held whole');
      const streamed = await walkTo(join(dir, `${c.key}-streamed.ndjson`), c.plan, `${base}${c.path}`, c.method, true);
      assert.equal(streamed.verdict, 'complete');
      assert.equal(streamed.pages, PAGES);
      assert.deepEqual(streamed.lines, expected);
      const buffered = await walkTo(join(dir, `${c.key}-buffered.ndjson`), c.plan, `${base}${c.path}`, c.method, false);
      assert.deepEqual(buffered.lines, expected);
    });
  }

  void it('the configurable and batch-cursor styles stream anywhere, keeping the fields they read', async () => {
    const { createStrategy } = await import('../../src/core/paging/strategies');
    const generic = createStrategy('generic', { next: 'links.next', total: 'meta.total' });
    assert.ok(generic.streamRows?.anywhere);
    assert.deepEqual(generic.streamRows.kept, ['links.next', 'links', 'meta.total', 'meta']);
    const batch = createStrategy('batch-cursor', {});
    assert.ok(batch.streamRows?.anywhere);
    assert.deepEqual(batch.streamRows.kept, ['Remaining', 'BatchID']);
  });
});
