// rowsPathOf (src/core/run/exchange.ts): where an exchange says a plan's rows are. It looks a style's own
// rows field up once a style; that must be what a strategy made with the plan's options streams, for
// every style and whatever other options a plan has.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { PagingStyleId } from '../../src/core/catalog/model';
import { createStrategy } from '../../src/core/paging/strategies';
import { rowsPathOf } from '../../src/core/run/exchange';

const STYLES: readonly PagingStyleId[] = ['page-number', 'page-headers', 'offset-remaining', 'batch-cursor', 'export-ordinal', 'stateful-extraction', 'generic', 'none'];

/** The rule as the strategy itself answers it, made afresh for the plan. */
function fromStrategy(style: PagingStyleId, options: Record<string, string>): string | undefined {
  if (style === 'none') return options['items'];
  if (options['items'] !== undefined) return options['items'];
  const stream = createStrategy(style, options).streamRows;
  return stream ? (stream.field ?? '$') : undefined;
}

void describe('rowsPathOf', () => {
  void it('is, for every style and options, where a strategy made with those options streams its rows', () => {
    const optionSets: Record<string, string>[] = [
      {}, { next: 'next_link' }, { offset: 'offset', limit: 'limit' }, { items: 'value' }, { items: 'data.rows' }, { page: 'p', size: 's', total: 'T' },
      { pageRows: '10' }, { cursor: 'after', items: 'Rows' },
    ];
    for (let pass = 0; pass < 2; pass++) {
      for (const style of STYLES) {
        for (const options of optionSets) {
          assert.equal(rowsPathOf({ style, options, source: 'directive' }), fromStrategy(style, options), `${style} ${JSON.stringify(options)} (pass ${pass + 1})`);
        }
      }
    }
    assert.equal(rowsPathOf(undefined), undefined);
  });
});
