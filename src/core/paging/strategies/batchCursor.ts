// Batch cursor (CustomerAsset operations, seed 000 §4.2 rule 4): body BatchID + BatchSize. Continue by
// sending back EXACTLY the BatchID the previous response returned: it is opaque, never computed or
// incremented. Stop on Remaining = 0 or an empty batch. A response without a BatchID while rows remain
// fails the walk rather than guessing a cursor.
import { commonAcceptance } from '../common';
import { asNumber, withBodyFields } from '../requestEdit';
import { isJsonObject } from '../../json/numberText';
import { rowsRule } from '../rows';
import type { PagingStrategy, RetryPolicy } from '../types';

export function batchCursorStrategy(options: Readonly<Record<string, string>>, policy: RetryPolicy): PagingStrategy {
  const rule = rowsRule('batch-cursor', options);
  const cursorField = options['cursor'] ?? 'BatchID';
  return {
    style: 'batch-cursor',
    position: () => ({ body: [cursorField] }),
    // Streamed anywhere (Assets, else the largest array) unless items= names a top-level field: the
    // returned cursor and Remaining stay whole in the page's skeleton for next().
    ...(rule.streamRows ? { streamRows: rule.streamRows.anywhere ? { ...rule.streamRows, kept: [cursorField, 'Remaining'] } : rule.streamRows } : {}),
    loop: {
      style: 'batch-cursor',
      citation: 'seed 000 §4.2 rule 4',
      rule: [
        'Continue by sending the BatchID returned by the previous call, verbatim; never increment an assumed page number.',
        'Remaining = 0 or an empty batch ends the walk; a response without a BatchID while rows remain is an error (a cursor is never invented).',
      ],
      rows: rule.place,
      advance: { kind: 'cursor', field: cursorField, remainingField: 'Remaining' },
      facts: [],
    },
    prepare: (first) => first,
    accept(page, state) {
      const common = commonAcceptance(page, state, policy);
      if (common) return common;
      // "an operation-specific asset collection": Assets when present, else the rows rule's largest array.
      return rule.accept(page.body.ok ? page.body.value : undefined);
    },
    next(page, rows) {
      const body = page.body.ok && isJsonObject(page.body.value) ? page.body.value : {};
      if (rows.length === 0) return { kind: 'end', reason: 'empty batch' };
      if (asNumber(body['Remaining']) === 0) return { kind: 'end', reason: 'Remaining = 0' };
      const returned = body[cursorField];
      if (returned === undefined || returned === null || returned === '') {
        return { kind: 'fail', reason: `the response has no ${cursorField} to send back, and a batch cursor is never invented` };
      }
      const request = withBodyFields(page.request, { [cursorField]: returned });
      if (!request) return { kind: 'fail', reason: `the request body is not a JSON object, so ${cursorField} cannot be sent back` };
      return { kind: 'continue', request };
    },
  };
}
