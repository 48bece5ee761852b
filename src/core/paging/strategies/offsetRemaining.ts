// Offset + remaining (SalesLeads/GetLeads, seed 000 §4.2 rule 5): body CtcID, BrandID, PageSize, Offset.
// Continue with Offset + rows received (never Offset + PageSize: the server may return fewer rows).
// Stop ONLY on an empty page. Remaining is deliberately ignored: the contract says it depends on
// database count semantics and is not a guaranteed end-of-stream signal (the sandbox's Remaining stays
// above 0 after the last lead), so trusting it would either stop early or never stop.
import { commonAcceptance } from '../common';
import { asNumber, jsonBody, withBodyFields } from '../requestEdit';
import { rowsRule } from '../rows';
import type { PagingStrategy, RetryPolicy } from '../types';

export function offsetRemainingStrategy(options: Readonly<Record<string, string>>, policy: RetryPolicy): PagingStrategy {
  const rule = rowsRule('offset-remaining', options);
  const offsetField = options['offset'] ?? 'Offset';
  return {
    style: 'offset-remaining',
    position: () => ({ body: [offsetField], counted: { field: offsetField, by: 'rows', start: 0 } }),
    ...(rule.streamRows ? { streamRows: rule.streamRows } : {}),
    loop: {
      style: 'offset-remaining',
      citation: 'seed 000 §4.2 rule 5',
      rule: [
        'Offset is forwarded as given: continue with Offset + the rows received (never + PageSize: a page may hold fewer).',
        'Remaining depends on database count semantics and is not a guaranteed end-of-stream signal: it is never read. Only an empty page ends the walk.',
      ],
      rows: rule.place,
      advance: { kind: 'offset', field: offsetField },
      facts: [],
    },
    prepare: (first) => first,
    accept(page, state) {
      const common = commonAcceptance(page, state, policy);
      if (common) return common;
      return rule.accept(page.body.ok ? page.body.value : undefined);
    },
    next(page, rows) {
      if (rows.length === 0) return { kind: 'end', reason: 'empty page (Remaining is not trusted as the end)' };
      const offset = asNumber(jsonBody(page.request)?.[offsetField]) ?? 0;
      const request = withBodyFields(page.request, { [offsetField]: offset + rows.length });
      if (!request) return { kind: 'fail', reason: `the request body is not a JSON object, so ${offsetField} cannot be advanced` };
      return { kind: 'continue', request };
    },
  };
}
