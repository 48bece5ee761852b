// The `loop` each paging strategy describes itself with (src/core/paging/loop.ts) is what the generated
// paging loops are printed from: it must say what the strategy's own functions do — the same facts, the
// same rows field, the same names and sizes from the same options — and cite its contract section.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { PagingStyleId } from '../../src/core/catalog/model';
import type { Page } from '../../src/core/paging/types';
import { rowsPlace, rowsRule } from '../../src/core/paging/rows';
import { createStrategy } from '../../src/core/paging/strategies';
import { citationsAsText } from '../../src/core/reference';

const LOOPED: readonly PagingStyleId[] = ['page-number', 'page-headers', 'offset-remaining', 'batch-cursor', 'export-ordinal', 'stateful-extraction'];

function page(body: unknown, headers: Record<string, string> = {}): Page {
  return {
    request: { method: 'GET', url: 'http://127.0.0.1/x', headers: {} },
    response: { status: 200, statusText: 'OK', headers, bodyText: JSON.stringify(body), sizeBytes: 0, timings: { totalMs: 0 } } as unknown as Page['response'],
    body: { ok: true, value: body },
    receivedAt: 0,
  };
}

void describe('each paging strategy describes itself as the loop generated from it', () => {
  void it('the six styles of the contracts have a loop, cited in the product\'s words; generic and none have none', () => {
    for (const style of LOOPED) {
      const loop = createStrategy(style).loop;
      assert.ok(loop, style);
      assert.equal(loop.style, style);
      assert.match(citationsAsText(loop.citation), /(customer-engagement|booking) contract/);
      assert.ok(loop.rule.length > 0);
    }
    assert.equal(createStrategy('generic').loop, undefined);
    assert.equal(createStrategy('none').loop, undefined);
  });

  void it('its facts are the facts the strategy checks', () => {
    const orders = createStrategy('page-number');
    assert.deepEqual(orders.loop?.facts.map((f) => f.name).sort(), Object.keys(orders.facts!(page({ TotalOrders: 10, PageSize: 3, Orders: [] }))).sort());
    const bookings = createStrategy('page-headers');
    const headers = { 'X-Pagination-Page': '1', 'X-Pagination-Per-Page': '3', 'X-Pagination-Total-Pages': '4', 'X-Pagination-Total-Results': '10' };
    assert.deepEqual(bookings.loop?.facts.map((f) => f.name).sort(), Object.keys(bookings.facts!(page([], headers))).sort());
    for (const style of LOOPED.filter((s) => s !== 'page-number' && s !== 'page-headers')) {
      assert.equal(typeof createStrategy(style).facts, 'undefined', style);
      assert.deepEqual(createStrategy(style).loop?.facts, [], style);
    }
  });

  void it('its rows place is the one the rows rule uses, with the same options', () => {
    for (const options of [{}, { items: 'Leads' }, { items: 'data.rows' }] as Record<string, string>[]) {
      for (const style of LOOPED) {
        const place = createStrategy(style, options).loop!.rows;
        assert.deepEqual(place, rowsRule(style, options).place, style);
        assert.deepEqual(place, rowsPlace(style, options), style);
      }
    }
    assert.deepEqual(createStrategy('offset-remaining', { items: 'Leads' }).loop?.rows.names, ['Leads']);
    assert.equal(createStrategy('offset-remaining', { items: 'Leads' }).loop?.rows.fixed, true);
    // The contract fixes where the rows are for three styles; the others fall back to steps 4 and 5.
    assert.deepEqual(LOOPED.filter((s) => createStrategy(s).loop!.rows.fixed), ['page-number', 'offset-remaining', 'export-ordinal']);
    assert.deepEqual(createStrategy('page-headers').loop!.rows.names, []);
  });

  void it('its rows place finds the rows where the strategy finds them', () => {
    for (const style of LOOPED) {
      const strategy = createStrategy(style);
      const name = strategy.loop!.rows.names[0];
      if (!name) continue;
      const accepted = strategy.accept(page({ [name]: [{ id: 1 }], Other: [{ id: 2 }, { id: 3 }] }), { pagesWritten: 0, rowsWritten: 0, retriesInRow: 0 });
      assert.equal(accepted.kind, 'rows', style);
      assert.deepEqual(accepted.kind === 'rows' ? accepted.rows : undefined, [{ id: 1 }], style);
    }
  });

  void it('its failure words are the strategy\'s', () => {
    for (const style of LOOPED) {
      const strategy = createStrategy(style);
      const accepted = strategy.accept(page({ Nothing: 1 }), { pagesWritten: 0, rowsWritten: 0, retriesInRow: 0 });
      assert.equal(accepted.kind, 'fail', style);
      assert.equal(accepted.kind === 'fail' ? accepted.reason : undefined, strategy.loop!.rows.missing, style);
    }
  });

  void it('its names and sizes come from the same options as the strategy\'s', () => {
    const advance = (style: PagingStyleId, options: Record<string, string>) => createStrategy(style, options).loop?.advance;
    assert.deepEqual(advance('page-number', { page: 'p' }), { kind: 'page-number', param: 'p', sizeParam: 'pageSize', servedField: 'PageNumber', sizeField: 'PageSize', totalField: 'TotalOrders', outOfRangeFlag: 'Response' });
    assert.equal((advance('page-headers', { page: 'pg' }) as { param: string }).param, 'pg');
    assert.deepEqual(advance('offset-remaining', { offset: 'Skip' }), { kind: 'offset', field: 'Skip' });
    assert.deepEqual(advance('batch-cursor', { cursor: 'Next' }), { kind: 'cursor', field: 'Next', remainingField: 'Remaining' });
    assert.deepEqual(advance('export-ordinal', { pageRows: '1000' }), { kind: 'ordinal', field: 'OFFSET', tableField: 'TableName', pageRows: 1000 });
    assert.equal((advance('export-ordinal', {}) as { pageRows: number }).pageRows, 100_000);
    assert.deepEqual(createStrategy('export-ordinal').loop?.firstRequest, { OFFSET: 1 });
  });
});
