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
const checkpoint = (p: PagingPlan, next: HttpRequest): WalkCheckpoint => ({ version: 1, plan: p, next, pages: 2, rows: 20, bytes: 100, done: false });
const get = (url: string, headers: Record<string, string> = {}): HttpRequest => ({ method: 'GET', url, headers });
const post = (url: string, body: unknown): HttpRequest => ({ method: 'POST', url, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });

/** [style plan, fresh request, next with only the position moved, next with something else changed]. */
const STYLES: [string, PagingPlan, HttpRequest, HttpRequest, HttpRequest][] = [
  ['page-number', plan('page-number'), get('https://a.test/o?ctcID=1&pageNumber=1'), get('https://a.test/o?ctcID=1&pageNumber=3'), get('https://a.test/o?ctcID=2&pageNumber=3')],
  ['page-headers', plan('page-headers'), get('https://a.test/b'), get('https://a.test/b?page=4'), get('https://a.test/b?page=4&all=1')],
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
    const r = checkResume(checkpoint(p, get('https://a.test/b?page=2')), fresh, p);
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
    const base = checkpoint(p, get('https://a.test/b?page=2'));
    assert.ok(checkResume({ ...base, pages: 0, rows: 0, bytes: 0 }, get('https://a.test/b'), p).ok);
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
});
