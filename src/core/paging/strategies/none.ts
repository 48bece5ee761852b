// No paging: one page. Its rows are the `items=` array, else the one rows rule (rowsOfBody): an object
// that holds no collection has no rows, as in a plain send, the panel's table and --out without --all-pages.
import { commonAcceptance } from '../common';
import { extractRows, rowsOfBody } from '../rows';
import type { PagingStrategy, RetryPolicy } from '../types';

export function singlePageStrategy(options: Readonly<Record<string, string>>, policy: RetryPolicy): PagingStrategy {
  return {
    style: 'none',
    prepare: (first) => first,
    accept(page, state) {
      const common = commonAcceptance(page, state, policy);
      if (common) return common;
      const value = page.body.ok ? page.body.value : undefined;
      if (options['items'] === undefined) return { kind: 'rows', rows: rowsOfBody(value)?.rows ?? [] };
      const rows = extractRows(value, options, [], { topLevelArray: true, firstArray: false });
      return rows.ok ? { kind: 'rows', rows: rows.rows } : { kind: 'fail', reason: rows.reason };
    },
    next: () => ({ kind: 'end', reason: 'a single page (no paging style)' }),
  };
}
