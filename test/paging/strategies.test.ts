// Each paging strategy on recorded responses, one test per contract rule and pitfall (seed 000 §4.2,
// seed 002, DESIGN.md's paging table).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createStrategy } from '../../src/core/paging/strategies';
import { detectStyle, resolveStyle } from '../../src/core/paging/resolve';
import { linkHeaderNext } from '../../src/core/paging/linkHeader';
import { parsePagingDirective } from '../../src/core/paging/directive';
import { retryAfterMs } from '../../src/core/http/serverWaits';
import type { Acceptance, Page, Step } from '../../src/core/paging/types';
import { recorded, recordedRequest } from './recorded';

const fresh = { pagesWritten: 0, rowsWritten: 0, retriesInRow: 0 };
const later = { pagesWritten: 2, rowsWritten: 4, retriesInRow: 0 };

function rowsOf(acceptance: Acceptance): readonly unknown[] {
  assert.equal(acceptance.kind, 'rows', `expected rows, got ${JSON.stringify(acceptance)}`);
  return acceptance.kind === 'rows' ? acceptance.rows : [];
}

function judge(style: Parameters<typeof createStrategy>[0], page: Page, options: Record<string, string> = {}, state = later): { acceptance: Acceptance; step?: Step } {
  const strategy = createStrategy(style, options);
  const acceptance = strategy.accept(page, state);
  if (acceptance.kind !== 'rows') return { acceptance };
  return { acceptance, step: strategy.next(page, acceptance.rows, state) };
}

function nextRequestOf(step: Step | undefined) {
  assert.equal(step?.kind, 'continue', `expected continue, got ${JSON.stringify(step)}`);
  if (step?.kind !== 'continue') throw new Error('unreachable');
  return step.request;
}

void describe('page-number (GetOrdersByCustomer)', () => {
  void it('continues with pageNumber+1 and keeps the other parameters', () => {
    const { acceptance, step } = judge('page-number', recorded('ordersPage1'), {}, fresh);
    assert.equal(rowsOf(acceptance).length, 2);
    const url = new URL(nextRequestOf(step).url);
    assert.equal(url.searchParams.get('pageNumber'), '2');
    assert.equal(url.searchParams.get('pageSize'), '2');
    assert.equal(url.searchParams.get('ctcID'), '1001');
  });

  void it('ends once PageNumber × PageSize covers TotalOrders', () => {
    const { step } = judge('page-number', recorded('ordersPage3Last'));
    assert.deepEqual(step?.kind, 'end');
    assert.match(step?.kind === 'end' ? step.reason : '', /all 5 orders seen/);
  });

  void it('uses the effective PageSize the response reports when pageSize was capped at 500', () => {
    const { step } = judge('page-number', recorded('ordersCapped'));
    assert.equal(new URL(nextRequestOf(step).url).searchParams.get('pageNumber'), '3');
  });

  void it('an out-of-range page (200 + Response=false) ends the walk', () => {
    const { acceptance } = judge('page-number', recorded('ordersOutOfRange'));
    assert.equal(acceptance.kind, 'end');
    assert.match(acceptance.kind === 'end' ? acceptance.reason : '', /out of range.*Response=false.*last page is 3/);
  });

  void it('Response=false on the first page is a failure, not an empty walk', () => {
    const { acceptance } = judge('page-number', recorded('ordersOutOfRange'), {}, fresh);
    assert.equal(acceptance.kind, 'fail');
  });

  void it('HTTP 400 is an error, never the end', () => {
    const { acceptance } = judge('page-number', recorded('ordersBadInput'), {}, fresh);
    assert.equal(acceptance.kind, 'fail');
    assert.match(acceptance.kind === 'fail' ? acceptance.reason : '', /HTTP 400.*pageNumber must be an integer/);
  });

  void it('malformed JSON in a 200 fails the page', () => {
    const { acceptance } = judge('page-number', recorded('ordersPage1', { bodyText: '{"PageNumber":1,"Orders":[{"Ord' }));
    assert.equal(acceptance.kind, 'fail');
    assert.match(acceptance.kind === 'fail' ? acceptance.reason : '', /not valid JSON/);
  });
});

void describe('page-headers (booking)', () => {
  void it('reads page 1 when the first request has no page, and asks for page=2', () => {
    const { acceptance, step } = judge('page-headers', recorded('bookingsFirst'), {}, fresh);
    assert.deepEqual(rowsOf(acceptance), [{ id: 'B1' }, { id: 'B2' }]);
    assert.equal(new URL(nextRequestOf(step).url).searchParams.get('page'), '2');
  });

  void it('stops at X-Pagination-Total-Pages', () => {
    const { step } = judge('page-headers', recorded('bookingsLast'));
    assert.equal(step?.kind, 'end');
    assert.match(step?.kind === 'end' ? step.reason : '', /page 3 of 3/);
  });

  void it('without the headers there is no known next page', () => {
    const { step } = judge('page-headers', recorded('bookingsFirst', { headers: {} }));
    assert.equal(step?.kind, 'end');
  });

  void it('a header there but not a whole number fails the page; spaces around one do not', () => {
    const headers = { 'x-pagination-page': '1', 'x-pagination-per-page': '2', 'x-pagination-total-pages': '3', 'x-pagination-total-results': '6' };
    for (const bad of ['3, 3', '3 in all', '3.0', '', '-3']) {
      const { acceptance } = judge('page-headers', recorded('bookingsFirst', { headers: { ...headers, 'x-pagination-total-pages': bad } }), {}, fresh);
      assert.equal(acceptance.kind, 'fail', JSON.stringify(bad));
      assert.match(acceptance.kind === 'fail' ? acceptance.reason : '', /X-Pagination-Total-Pages is ".*", not a whole number/);
    }
    const { acceptance } = judge('page-headers', recorded('bookingsFirst', { headers: { ...headers, 'x-pagination-total-pages': ' 3 ' } }), {}, fresh);
    assert.equal(acceptance.kind, 'rows');
  });
});

void describe('offset-remaining (GetLeads)', () => {
  void it('advances Offset by the rows received, not by PageSize', () => {
    const { step } = judge('offset-remaining', recorded('leadsPage'));
    const body = JSON.parse(nextRequestOf(step).body ?? '{}') as Record<string, unknown>;
    assert.deepEqual(body, { CtcID: 1001, BrandID: 7, PageSize: 3, Offset: 8 });
  });

  void it('Remaining = 0 is not trusted as the end while rows still come', () => {
    const { step } = judge('offset-remaining', recorded('leadsRemainingZeroButRows'), {}, fresh);
    assert.equal(step?.kind, 'continue');
  });

  void it('an empty page ends the walk even though Remaining is still above 0', () => {
    const { step } = judge('offset-remaining', recorded('leadsEmpty'));
    assert.equal(step?.kind, 'end');
    assert.match(step?.kind === 'end' ? step.reason : '', /Remaining is not trusted/);
  });
});

void describe('batch-cursor (CustomerAsset)', () => {
  void it('sends back exactly the BatchID returned, never a computed one', () => {
    const { step } = judge('batch-cursor', recorded('assetsBatch'), {}, fresh);
    const body = JSON.parse(nextRequestOf(step).body ?? '{}') as Record<string, unknown>;
    assert.deepEqual(body, { BatchSize: 2, BatchID: 'q3V_x9-opaque' });
  });

  void it('stops on Remaining = 0', () => {
    assert.equal(judge('batch-cursor', recorded('assetsLast')).step?.kind, 'end');
  });

  void it('stops on an empty batch', () => {
    const page = recorded('assetsBatch', { bodyText: '{"BatchID":"x","Remaining":4,"Assets":[]}' });
    assert.equal(judge('batch-cursor', page).step?.kind, 'end');
  });

  void it('fails rather than invent a cursor when none is returned', () => {
    const { step } = judge('batch-cursor', recorded('assetsNoCursor'));
    assert.equal(step?.kind, 'fail');
    assert.match(step?.kind === 'fail' ? step.reason : '', /never invented/);
  });
});

void describe('export-ordinal (GetSelectionResult_Ext)', () => {
  void it('starts at OFFSET 1 when the first request names none', () => {
    const strategy = createStrategy('export-ordinal');
    const prepared = strategy.prepare({ method: 'POST', url: 'http://sandbox.test/x', headers: {}, body: '{"TableName":""}' });
    assert.deepEqual(JSON.parse(prepared.body ?? ''), { TableName: '', OFFSET: 1 });
  });

  void it('continues with the TableName of the first response and OFFSET+1', () => {
    const { step } = judge('export-ordinal', recorded('exportFirst'), { pageRows: '3' }, fresh);
    assert.deepEqual(JSON.parse(nextRequestOf(step).body ?? ''), { OFFSET: 2, TableName: 'SEL_0A1B2C3D' });
  });

  void it('a short page is the last: no request past it', () => {
    const { step } = judge('export-ordinal', recorded('exportShort'), { pageRows: '3' });
    assert.equal(step?.kind, 'end');
    assert.match(step?.kind === 'end' ? step.reason : '', /short \(1 < 3 rows\)/);
  });

  void it('a page of 100 000 rows by default is not short, a page of 3 is', () => {
    assert.equal(judge('export-ordinal', recorded('exportFirst'), {}, fresh).step?.kind, 'end');
  });

  void it('an empty page ends the export', () => {
    const page = recorded('exportShort', { bodyText: '{"TableName":"SEL_0A1B2C3D","Result":[]}' });
    assert.equal(judge('export-ordinal', page, { pageRows: '3' }).step?.kind, 'end');
  });

  void it('a replayed page of a dropped table is an error (HTTP 400)', () => {
    const { acceptance } = judge('export-ordinal', recorded('exportDropped'));
    assert.equal(acceptance.kind, 'fail');
    assert.match(acceptance.kind === 'fail' ? acceptance.reason : '', /cannot be fetched twice/);
  });
});

void describe('stateful-extraction (BIDWHouse)', () => {
  void it('the next request is the same call again', () => {
    const page = recorded('factsPage');
    const { step } = judge('stateful-extraction', page);
    assert.deepEqual(nextRequestOf(step), page.request);
  });

  void it('an empty result is the end', () => {
    assert.equal(judge('stateful-extraction', recorded('factsEmpty')).step?.kind, 'end');
  });

  void it('an error is not the end: the same call is retried, bounded', () => {
    const page = recorded('factsDeadlock');
    const strategy = createStrategy('stateful-extraction', {}, { maxRetries: 2, retryDelayMs: 5 });
    const first = strategy.accept(page, { ...later, retriesInRow: 0 });
    assert.equal(first.kind, 'retry');
    assert.deepEqual(first.kind === 'retry' ? first.request : undefined, page.request);
    assert.equal(first.kind === 'retry' ? first.delayMs : -1, 5);
    const exhausted = strategy.accept(page, { ...later, retriesInRow: 2 });
    assert.equal(exhausted.kind, 'fail');
    assert.match(exhausted.kind === 'fail' ? exhausted.reason : '', /not the end of data/);
  });

  void it('a 200 with broken JSON fails instead of retrying (the server already moved on)', () => {
    const { acceptance } = judge('stateful-extraction', recorded('factsPage', { bodyText: '{"FactTransactions":[{"Fa' }));
    assert.equal(acceptance.kind, 'fail');
    assert.match(acceptance.kind === 'fail' ? acceptance.reason : '', /may be missing/);
  });
});

void describe('generic (fundraising lists, imported operations)', () => {
  void it('follows next_link by default and stops on null', () => {
    const { acceptance, step } = judge('generic', recorded('constituentsNextLink'), {}, fresh);
    assert.equal(rowsOf(acceptance).length, 2);
    const next = nextRequestOf(step);
    assert.equal(next.url, 'http://sandbox.test/v1/constituents?limit=2&offset=2');
    assert.deepEqual(next.headers, { 'X-API-Key': 'tenant' });
    assert.equal(judge('generic', recorded('constituentsLast')).step?.kind, 'end');
  });

  void it('follows a relative @odata.nextLink (named with next=)', () => {
    const { step } = judge('generic', recorded('odataPage'), { next: '@odata.nextLink' });
    assert.equal(nextRequestOf(step).url, 'http://sandbox.test/odata/items?$skiptoken=abc');
  });

  void it('follows an RFC 8288 Link header rel="next"', () => {
    const { step } = judge('generic', recorded('linkHeaderPage'));
    assert.equal(nextRequestOf(step).url, 'http://sandbox.test/items?page=2');
    assert.equal(linkHeaderNext('<a>; rel="prev", <b>; rel="next last"'), 'b');
    assert.equal(linkHeaderNext('<a>; rel=next'), 'a');
    assert.equal(linkHeaderNext('<a>; rel="prev"'), undefined);
    // A quoted parameter may hold a comma, a semicolon, an escaped quote or a `<`: the link's rel is still read.
    assert.equal(linkHeaderNext('<a>; title="page 2, of 3"; rel="next"'), 'a');
    assert.equal(linkHeaderNext('<p>; rel="prev"; title="x, <q>; rel=next", <n>; title="say \\"hi\\", y"; rel=next'), 'n');
    assert.equal(linkHeaderNext('<a>; title="rel=next"'), undefined);
    assert.equal(linkHeaderNext('<a>; rel="prev"; rel="next"'), undefined, 'the first rel of a link counts');
  });

  void it('offset/limit mode adds the rows received and stops on an empty page or total', () => {
    const page = recorded('constituentsNextLink');
    const options = { offset: 'offset', limit: 'limit', total: 'count' };
    assert.equal(new URL(nextRequestOf(judge('generic', page, options, fresh).step).url).searchParams.get('offset'), '2');
    assert.equal(judge('generic', recorded('constituentsLast'), options).step?.kind, 'end');
  });

  void it('page/size mode asks for page+1 in the body of a POST', () => {
    const request = { method: 'POST', url: 'http://sandbox.test/search', headers: {}, body: '{"page":1,"size":2}' };
    const page = { ...recorded('constituentsNextLink'), request };
    const next = nextRequestOf(judge('generic', page, { page: 'page', size: 'size' }).step);
    assert.deepEqual(JSON.parse(next.body ?? ''), { page: 2, size: 2 });
  });

  void it('cursor mode sends the returned cursor back', () => {
    const page = recorded('constituentsNextLink', { bodyText: '{"items":[{"id":1}],"meta":{"after":"c-9"}}' });
    const next = nextRequestOf(judge('generic', page, { cursor: 'after', cursorField: 'meta.after' }).step);
    assert.equal(new URL(next.url).searchParams.get('after'), 'c-9');
  });

  void it('a 429 that reaches a strategy fails it: waiting on a refusal is the walker\'s wait turn (http/serverWaits.ts), not a style\'s', () => {
    const page = recorded('rateLimited');
    for (const style of ['generic', 'page-number', 'stateful-extraction'] as const) {
      const verdict = createStrategy(style).accept(page, fresh);
      assert.equal(verdict.kind, 'fail', style);
    }
    assert.equal(retryAfterMs('Sun, 22 Nov 2026 10:00:03 GMT', Date.parse('2026-11-22T10:00:00Z')), 3000);
  });
});

void describe('the # @paging directive and style resolution', () => {
  void it('parses a style and key=value options, quoted values included', () => {
    const parsed = parsePagingDirective('# @paging generic offset=offset limit=limit items=value next="@odata.nextLink"');
    assert.deepEqual(parsed, { ok: true, directive: { style: 'generic', options: { offset: 'offset', limit: 'limit', items: 'value', next: '@odata.nextLink' } } });
    assert.deepEqual(parsePagingDirective('// @paging export-ordinal pageRows=1000'), { ok: true, directive: { style: 'export-ordinal', options: { pageRows: '1000' } } });
  });

  void it('rejects an unknown style or an option the style does not take, saying what is accepted', () => {
    const unknown = parsePagingDirective('# @paging pages');
    assert.equal(unknown.ok, false);
    assert.match(unknown.ok ? '' : unknown.error, /unknown paging style "pages".*page-number/);
    const wrongKey = parsePagingDirective('# @paging page-number cursor=x');
    assert.match(wrongKey.ok ? '' : wrongKey.error, /does not take "cursor"/);
  });

  void it('a directive overrides the catalog; the catalog is the default; none/auto defer to detection', () => {
    const directive = { style: 'generic' as const, options: { next: 'next' } };
    assert.equal(resolveStyle({ directive, catalogStyle: 'page-number' })?.source, 'directive');
    assert.deepEqual(resolveStyle({ catalogStyle: 'batch-cursor' }), { style: 'batch-cursor', options: {}, source: 'catalog' });
    assert.equal(resolveStyle({ catalogStyle: 'none' }), undefined);
    assert.equal(resolveStyle({ directive: { style: 'auto', options: {} }, catalogStyle: 'page-number' }), undefined);
  });

  void it('X-Pagination-* headers in a response are detected on their own; next links mean generic', () => {
    assert.equal(detectStyle(recorded('bookingsFirst').response).style, 'page-headers');
    assert.equal(detectStyle(recorded('constituentsNextLink').response).style, 'generic');
    assert.equal(detectStyle(recorded('linkHeaderPage').response).style, 'generic');
    assert.equal(detectStyle(recorded('factsPage').response).style, 'none');
  });

  void it('recorded requests keep their secret headers only in memory', () => {
    assert.equal(recordedRequest('ordersPage1').headers['Authorization'], 'Bearer tok');
  });
});
