// No paging: one page. Its rows are the `items=` array, else the one rows rule (rowsOfBody), else the
// body itself as one row (so an object response can still be exported).
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
      if (options['items'] === undefined) return { kind: 'rows', rows: rowsOfBody(value)?.rows ?? (value === undefined ? [] : [value]) };
      const rows = extractRows(value, options, [], { topLevelArray: true, firstArray: false });
      return rows.ok ? { kind: 'rows', rows: rows.rows } : { kind: 'fail', reason: rows.reason };
    },
    next: () => ({ kind: 'end', reason: 'a single page (no paging style)' }),
  };
}
