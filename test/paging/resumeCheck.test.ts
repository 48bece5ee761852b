// The rule for what a checkpoint may decide (src/core/paging/resumeCheck.ts), style by style: each style's
// position (query parameter, body field, next link) may differ from the request as prepared now; any other
// part may not. A cursor of this process ('in-memory', the panel's) is held to method, server and plan.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkResume } from '../../src/core/paging/resumeCheck';
import { resumeHop, type WalkCheckpoint } from '../../src/core/paging/checkpoint';
import type { HttpRequest } from '../../src/core/http/types';
import type { PagingPlan } from '../../src/core/paging/types';

const plan = (style: PagingPlan['style'], options: Record<string, string> = {}): PagingPlan => ({ style, options, source: 'directive' });
const checkpoint = (p: PagingPlan, next: HttpRequest): WalkCheckpoint => ({ version: 1, plan: p, next, pages: 2, rows: 20, bytes: 100, done: false, firstPage: 1 });
const get = (url: string, headers: Record<string, string> = {}): HttpRequest => ({ method: 'GET', url, headers });
const post = (url: string, body: unknown): HttpRequest => ({ method: 'POST', url, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });

/** [style plan, fresh request, next with only the position moved, next with something else changed]. */
const STYLES: [string, PagingPlan, HttpRequest, HttpRequest, HttpRequest][] = [
  ['page-number', plan('page-number'), get('https://a.test/o?ctcID=1&pageNumber=1'), get('https://a.test/o?ctcID=1&pageNumber=3'), get('https://a.test/o?ctcID=2&pageNumber=3')],
  ['page-headers', plan('page-headers'), get('https://a.test/b'), get('https://a.test/b?page=3'), get('https://a.test/b?page=3&all=1')],
  ['offset-remaining', plan('offset-remaining'), post('https://a.test/l', { CtcID: 1, PageSize: 10 }), post('https://a.test/l', { CtcID: 1, PageSize: 10, Offset: 20 }), post('https://a.test/l', { CtcID: 9, PageSize: 10, Offset: 20 })],
  ['batch-cursor', plan('batch-cursor'), post('https://a.test/c', { BatchSize: 5 }), post('https://a.test/c', { BatchSize: 5, BatchID: 'b-7' }), post('https://a.test/c', { BatchSize: 500, BatchID: 'b-7' })],
  ['export-ordinal', plan('export-ordinal'), post('https://a.test/e', { TableName: '' }), post('https://a.test/e', { TableName: 'T1', OFFSET: 3 }), post('https://a.test/e', { TableName: 'T1', OFFSET: 3, Filter: 'x' })],
  ['generic next link', plan('generic', { next: 'next_link' }), get('https://a.test/v1/x'), get('https://a.test/v1/x?skip=50&cursor=abc'), post('https://a.test/v1/x?skip=50', {})],
  ['generic cursor in query', plan('generic', { cursor: 'after' }), get('https://a.test/v1/y?limit=5'), get('https://a.test/v1/y?limit=5&after=Q'), get('https://a.test/v1/y?limit=500&after=Q')],
  ['stateful extraction (no position)', plan('stateful-extraction'), post('https://a.test/f', { PageSize: 5 }), post('https://a.test/f', { PageSize: 5 }), post('https://a.test/f', { PageSize: 6 })],
];

void describe('checkResume: only the position may come from a checkpoint', () => {
  for (const [name, p, fresh, moved, tampered] of STYLES) {
    void it(`${name}: the position moved is taken, anything else is refused`, () => {
      const ok = checkResume(checkpoint(p, moved), fresh, p);
      assert.ok(ok.ok, `${name}: ${ok.ok ? '' : ok.reason}`);
      assert.equal(ok.request.url, moved.url);
      const refused = checkResume(checkpoint(p, tampered), fresh, p);
      assert.equal(refused.ok, false, `${name}: a change outside the position must be refused`);
    });
  }

  void it('the fresh request\'s credentials go with the resumed one; a credential header in the checkpoint is not compared', () => {
    const p = plan('page-headers');
    const fresh = get('https://a.test/b', { Authorization: 'Bearer fresh' });
    const r = checkResume(checkpoint(p, get('https://a.test/b?page=3')), fresh, p);
    assert.ok(r.ok);
    // The check hands back the checkpoint's request as it is; the walker puts the credentials back
    // through the one cross-origin rule (resumeHop).
    assert.equal(r.request.headers['Authorization'], undefined);
    const hop = resumeHop(r.request, fresh);
    assert.ok(hop.ok);
    assert.equal(hop.request.headers['Authorization'], 'Bearer fresh');
  });

  void it('boundaries of the counts: 0 is a count, -1 and 0.5 are not; done is refused; another plan is refused', () => {
    const p = plan('page-headers');
    const base = checkpoint(p, get('https://a.test/b?page=3'));
    assert.ok(checkResume({ ...base, next: get('https://a.test/b'), pages: 0, rows: 0, bytes: 0 }, get('https://a.test/b'), p).ok);
    for (const bad of [{ pages: -1 }, { rows: 0.5 }, { bytes: Number.MAX_SAFE_INTEGER + 2 }]) {
      const r = checkResume({ ...base, ...bad }, get('https://a.test/b'), p);
      assert.ok(!r.ok && /is not a count/.test(r.reason), JSON.stringify(bad));
    }
    const done = checkResume({ ...base, done: true }, get('https://a.test/b'), p);
    assert.ok(!done.ok && /finished walk is not resumed/.test(done.reason));
    const other = checkResume(base, get('https://a.test/b'), plan('page-number'));
    assert.ok(!other.ok && /pages with 'page-headers', but the request pages with 'page-number'/.test(other.reason));
  });

  void it("in-memory (the panel's own cursor): a header whose dynamic value changed is accepted; another server or method is not", () => {
    const p = plan('page-headers');
    const stored = get('https://a.test/b?page=2', { 'X-Request-Id': 'guid-1' });
    assert.equal(checkResume(checkpoint(p, stored), get('https://a.test/b', { 'X-Request-Id': 'guid-2' }), p).ok, false, 'read back: refused');
    assert.ok(checkResume(checkpoint(p, stored), get('https://a.test/b', { 'X-Request-Id': 'guid-2' }), p, 'in-memory').ok);
    assert.equal(checkResume(checkpoint(p, stored), get('https://b.test/b'), p, 'in-memory').ok, false);
  });

  void it('a position that follows from the counts must be the one they give: one more or one less is refused', () => {
    // offset-remaining: Offset = the request's Offset (else 0) + rows kept; page styles: page = first + pages kept.
    const leads = plan('offset-remaining');
    const fresh = post('https://a.test/l', { CtcID: 1, PageSize: 10, Offset: 5 });
    for (const [offset, ok] of [[24, false], [25, true], [26, false]] as const) {
      const r = checkResume(checkpoint(leads, post('https://a.test/l', { CtcID: 1, PageSize: 10, Offset: offset })), fresh, leads);
      assert.equal(r.ok, ok, `Offset ${offset} after 20 rows from Offset 5: ${r.ok ? 'taken' : r.reason}`);
      if (!r.ok) assert.match(r.reason, /asks for Offset \d+, but a walk from Offset 5 that kept 20 row\(s\) asks for 25 next/);
    }
    const orders = plan('page-number');
    for (const [page, ok] of [[2, false], [3, true], [4, false]] as const) {
      const r = checkResume(checkpoint(orders, get(`https://a.test/o?ctcID=1&pageNumber=${page}`)), get('https://a.test/o?ctcID=1'), orders);
      assert.equal(r.ok, ok, `pageNumber ${page} after 2 pages from 1: ${r.ok ? 'taken' : r.reason}`);
    }
    // The first page's number, which the totals are judged from, is the request's: moved or taken away, refused.
    const moved = checkResume({ ...checkpoint(orders, get('https://a.test/o?ctcID=1&pageNumber=3')), firstPage: 2 }, get('https://a.test/o?ctcID=1'), orders);
    assert.ok(!moved.ok && /says the walk's first page was 2, but the request starts at page 1/.test(moved.reason), moved.ok ? '' : moved.reason);
    const { firstPage: _gone, ...older } = checkpoint(orders, get('https://a.test/o?ctcID=1&pageNumber=3'));
    const none = checkResume(older, get('https://a.test/o?ctcID=1'), orders);
    assert.ok(!none.ok && /has no firstPage/.test(none.reason));
    const later = checkResume({ ...checkpoint(orders, get('https://a.test/o?ctcID=1&pageNumber=7')), firstPage: 5 }, get('https://a.test/o?ctcID=1&pageNumber=5'), orders);
    assert.ok(later.ok, later.ok ? '' : later.reason);
    // A generic cursor walk from no cursor starts at the list's first row (page 1): its record must say so.
    const cursor = plan('generic', { cursor: 'after', total: 'count' });
    const { firstPage: _none, ...unsaid } = checkpoint(cursor, get('https://a.test/v1/y?limit=5&after=Q'));
    const hidden = checkResume(unsaid, get('https://a.test/v1/y?limit=5'), cursor);
    assert.ok(!hidden.ok && /has no firstPage/.test(hidden.reason));
    assert.ok(checkResume(unsaid, get('https://a.test/v1/y?limit=5&after=P'), cursor).ok, 'from a cursor the user wrote: no first page known');
    const exported = plan('export-ordinal');
    const ordinal = checkResume(checkpoint(exported, post('https://a.test/e', { TableName: 'T1', OFFSET: 4 })), post('https://a.test/e', { TableName: '' }), exported);
    assert.ok(!ordinal.ok && /asks for OFFSET 4, but a walk from OFFSET 1 that kept 2 page\(s\) asks for 3 next/.test(ordinal.reason));
  });
});
