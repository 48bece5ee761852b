// The configurable (generic) style mode by mode (strategies/generic.ts): where each mode's position lives
// and where each ends, with the boundaries of total=, totalPages= and size= on both sides.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createStrategy } from '../../src/core/paging/strategies';
import type { HttpRequest } from '../../src/core/http/types';
import type { Step } from '../../src/core/paging/types';
import { asPage, recordedResponse } from './recorded';

const state = { pagesWritten: 1, rowsWritten: 2, retriesInRow: 0 };
const GET = (query = ''): HttpRequest => ({ method: 'GET', url: `http://sandbox.test/items${query}`, headers: {} });
const POST = (body: string): HttpRequest => ({ method: 'POST', url: 'http://sandbox.test/search', headers: {}, body });

/** The step after a page of `rows` whose body is `body`, under the options. */
function stepAfter(options: Record<string, string>, request: HttpRequest, body: unknown, rows: readonly unknown[] = [{ id: 1 }, { id: 2 }], headers: Record<string, string> = {}): Step {
  const page = asPage(request, recordedResponse(200, { 'content-type': 'application/json', ...headers }, JSON.stringify(body)));
  return createStrategy('generic', options).next(page, rows, state);
}

function endReason(step: Step): string {
  assert.equal(step.kind, 'end', JSON.stringify(step));
  return step.kind === 'end' ? step.reason : '';
}

function failReason(step: Step): string {
  assert.equal(step.kind, 'fail', JSON.stringify(step));
  return step.kind === 'fail' ? step.reason : '';
}

function queryOf(step: Step, name: string): string | null {
  assert.equal(step.kind, 'continue', JSON.stringify(step));
  return step.kind === 'continue' ? new URL(step.request.url).searchParams.get(name) : null;
}

function bodyOf(step: Step): unknown {
  assert.equal(step.kind, 'continue', JSON.stringify(step));
  return step.kind === 'continue' ? JSON.parse(step.request.body ?? '') as unknown : undefined;
}

void describe('generic: where the position lives', () => {
  void it('a link mode moves the URL; a parameter mode names its parameter, by default the mode itself', () => {
    assert.deepEqual(createStrategy('generic', {}).position?.(GET()), { url: true });
    assert.deepEqual(createStrategy('generic', { next: 'next_link' }).position?.(GET()), { url: true });
    assert.deepEqual(createStrategy('generic', { cursor: 'after' }).position?.(GET()), { query: ['after'] });
    // An offset follows from the rows kept, a page from the pages kept (from start=): a resume is held to them.
    assert.deepEqual(createStrategy('generic', { offset: 'skip' }).position?.(POST('{}')), { body: ['skip'], counted: { field: 'skip', by: 'rows', start: 0 } });
    assert.deepEqual(createStrategy('generic', { page: 'p', in: 'query' }).position?.(POST('{}')), { query: ['p'], counted: { field: 'p', by: 'pages', start: 1 } });
    assert.deepEqual(createStrategy('generic', { page: 'p', in: 'body', start: '0' }).position?.(GET()), { body: ['p'], counted: { field: 'p', by: 'pages', start: 0 } });
  });
});

void describe('generic: next links', () => {
  void it('next=FIELD: an absent link ends, a link that is not text fails, a link back to the same page fails', () => {
    assert.equal(endReason(stepAfter({ next: 'links.next' }, GET(), { items: [] })), 'no next link (body field links.next)');
    assert.match(failReason(stepAfter({ next: 'links.next' }, GET(), { links: { next: 7 } })), /body field links\.next is not a URL/);
    assert.match(failReason(stepAfter({ next: 'next' }, GET('?p=1'), { next: 'http://sandbox.test/items?p=1' })), /points back to the same page/);
    assert.equal(queryOf(stepAfter({ next: 'links.next' }, GET(), { links: { next: '/items?p=2' } }), 'p'), '2');
  });

  void it('no mode: the Link header comes before a body link; without either the walk ends', () => {
    const both = stepAfter({}, GET(), { next_link: '/items?from=body' }, undefined, { link: '</items?from=header>; rel="next"' });
    assert.equal(queryOf(both, 'from'), 'header');
    assert.equal(queryOf(stepAfter({}, GET(), { nextLink: '/items?from=nextLink' }), 'from'), 'nextLink');
    assert.equal(endReason(stepAfter({}, GET(), { items: [] })), 'no next link in the Link header or the body');
  });
});

void describe('generic: cursor', () => {
  void it('sends the cursor back, and ends on an empty page or without a cursor', () => {
    assert.equal(queryOf(stepAfter({ cursor: 'after' }, GET(), { after: 'c-2' }), 'after'), 'c-2');
    assert.deepEqual(bodyOf(stepAfter({ cursor: 'after', cursorField: 'meta.next' }, POST('{"q":1}'), { meta: { next: 9 } })), { q: 1, after: 9 });
    assert.equal(endReason(stepAfter({ cursor: 'after' }, GET(), { after: 'c-2' }, [])), 'empty page');
    assert.equal(endReason(stepAfter({ cursor: 'after' }, GET(), { after: '' })), 'no cursor returned');
  });

  void it('fails on a cursor that is not a string or number, and on a body with no room for it', () => {
    assert.equal(failReason(stepAfter({ cursor: 'after' }, GET(), { after: { x: 1 } })), 'the returned cursor is not a string or number');
    assert.equal(failReason(stepAfter({ cursor: 'after' }, POST('[1]'), { after: 'c' })), 'the request body is not a JSON object');
  });
});

void describe('generic: offset', () => {
  void it('adds the rows received to the offset (0 when the request has none)', () => {
    assert.equal(queryOf(stepAfter({ offset: 'offset' }, GET(), {}), 'offset'), '2');
    assert.equal(queryOf(stepAfter({ offset: 'offset' }, GET('?offset=10'), {}), 'offset'), '12');
    assert.equal(endReason(stepAfter({ offset: 'offset' }, GET('?offset=10'), {}, [])), 'empty page');
  });

  void it('ends once offset + rows reaches total=, not one row before', () => {
    assert.equal(endReason(stepAfter({ offset: 'offset', total: 'count' }, GET('?offset=2'), { count: 4 })), 'all 4 rows seen (count)');
    assert.equal(queryOf(stepAfter({ offset: 'offset', total: 'count' }, GET('?offset=2'), { count: 5 }), 'offset'), '4');
  });
});

void describe('generic: page', () => {
  void it('asks for page + 1, from start= (else 1) when the request has no page', () => {
    assert.equal(queryOf(stepAfter({ page: 'p' }, GET(), {}), 'p'), '2');
    assert.equal(queryOf(stepAfter({ page: 'p', start: '0' }, GET(), {}), 'p'), '1');
    assert.deepEqual(bodyOf(stepAfter({ page: 'p' }, POST('{"p":3}'), {})), { p: 4 });
    assert.equal(endReason(stepAfter({ page: 'p' }, GET('?p=3'), {}, [])), 'empty page');
  });

  void it('ends at totalPages=: on the last page, not the one before', () => {
    assert.equal(endReason(stepAfter({ page: 'p', totalPages: 'pages' }, GET('?p=3'), { pages: 3 })), 'page 3 of 3 reached');
    assert.equal(queryOf(stepAfter({ page: 'p', totalPages: 'pages' }, GET('?p=2'), { pages: 3 }), 'p'), '3');
  });

  void it('ends once the pages seen times size= cover total=, counting from start=', () => {
    const options = { page: 'p', size: 'n', total: 'count' };
    assert.equal(endReason(stepAfter(options, GET('?p=2&n=2'), { count: 4 })), 'all 4 rows seen (count)');
    assert.equal(queryOf(stepAfter(options, GET('?p=2&n=2'), { count: 5 }), 'p'), '3');
    assert.equal(queryOf(stepAfter({ ...options, start: '0' }, GET('?p=1&n=2'), { count: 5 }), 'p'), '2');
    assert.equal(endReason(stepAfter({ ...options, start: '0' }, GET('?p=2&n=2'), { count: 5 })), 'all 5 rows seen (count)');
    assert.equal(queryOf(stepAfter(options, GET('?p=2'), { count: 4 }), 'p'), '3', 'without a size, total= alone does not end');
  });
});
