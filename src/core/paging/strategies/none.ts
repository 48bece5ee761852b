// No paging: one page. Its rows are where the rows rule (rows.ts) finds them; an object that holds no
// collection has no rows (not a failure), as in a plain send, the panel's table and --out without --all-pages.
import { commonAcceptance } from '../common';
import { rowsRule } from '../rows';
import type { PagingStrategy, RetryPolicy } from '../types';

export function singlePageStrategy(options: Readonly<Record<string, string>>, policy: RetryPolicy): PagingStrategy {
  const rule = rowsRule('none', options);
  return {
    style: 'none',
    // Rows are found wherever the rule finds them, as the body streams (anywhereFetch.ts).
    ...(rule.streamRows ? { streamRows: rule.streamRows } : {}),
    prepare: (first) => first,
    accept(page, state) {
      const common = commonAcceptance(page, state, policy);
      if (common) return common;
      const accepted = rule.accept(page.body.ok ? page.body.value : undefined);
      // Only items= can fail: the user said where the rows are.
      if (accepted.kind !== 'fail') return accepted;
      // Rows where items= says there are none: refused in words (never "shown as it came", 0 rows).
      return options['items'] === undefined ? { kind: 'rows', rows: [], path: rule.declared } : { ...accepted, rowsRefused: true };
    },
    next: () => ({ kind: 'end', reason: 'a single page (no paging style)' }),
  };
}
