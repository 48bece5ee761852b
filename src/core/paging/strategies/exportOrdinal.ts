// Export ordinal (Selection/GetSelectionResult_Ext, seed 000 §4.2 rule 6): body OFFSET (a 1-based page
// ordinal; 1 first) and TableName (blank creates an export). Later calls send the TableName the first
// response returned and OFFSET+1. Each page holds 100 000 rows (option pageRows=, for sandboxes run
// smaller): a short or empty page is the last one. The server may drop the table after that page, so a
// page can NOT be fetched twice: the walker writes every page to its sink before computing this step
// or sending anything else (see walker.ts), and never sends a request past a short page.
import { commonAcceptance } from '../common';
import { asNumber, jsonBody, withBodyFields } from '../requestEdit';
import { isJsonObject } from '../../json/numberText';
import { rowsRule } from '../rows';
import type { PagingStrategy, RetryPolicy } from '../types';

export const EXPORT_PAGE_ROWS = 100_000;

export function exportOrdinalStrategy(options: Readonly<Record<string, string>>, policy: RetryPolicy): PagingStrategy {
  const rule = rowsRule('export-ordinal', options);
  const pageRows = asNumber(options['pageRows']) ?? EXPORT_PAGE_ROWS;
  return {
    style: 'export-ordinal',
    position: () => ({ body: ['OFFSET', 'TableName'], counted: { field: 'OFFSET', by: 'pages', start: 1 } }),
    ...(rule.streamRows ? { streamRows: rule.streamRows } : {}),
    loop: {
      style: 'export-ordinal',
      citation: 'seed 000 §4.2 rule 6',
      rule: [
        `OFFSET is a one-based page ordinal (1 first); a blank TableName creates the export, later calls send the TableName returned and the next OFFSET.`,
        `A page holds ${pageRows} rows: a short or empty page is the last, and no request follows it.`,
        'The table can be dropped after the last page, so a page cannot be fetched twice: each page is handed to the page callback (persist it there) before the next is asked for.',
      ],
      rows: rule.place,
      advance: { kind: 'ordinal', field: 'OFFSET', tableField: 'TableName', pageRows },
      facts: [],
      firstRequest: { OFFSET: 1 },
    },
    prepare(first) {
      const body = jsonBody(first);
      if (body && asNumber(body['OFFSET']) !== undefined) return first;
      return withBodyFields(first, { OFFSET: 1 }) ?? first;
    },
    accept(page, state) {
      const common = commonAcceptance(page, state, policy);
      if (common) return common;
      return rule.accept(page.body.ok ? page.body.value : undefined);
    },
    next(page, rows) {
      const sent = jsonBody(page.request) ?? {};
      const offset = asNumber(sent['OFFSET']) ?? 1;
      if (rows.length === 0) return { kind: 'end', reason: `OFFSET ${offset} is empty (the export is complete)` };
      if (rows.length < pageRows) return { kind: 'end', reason: `OFFSET ${offset} is short (${rows.length} < ${pageRows} rows): the last page` };
      const body = page.body.ok && isJsonObject(page.body.value) ? page.body.value : {};
      const sentTable = typeof sent['TableName'] === 'string' ? sent['TableName'].trim() : '';
      // The table named by the first response is the export we are walking; later answers cannot move it.
      const table = sentTable !== '' ? sentTable : body['TableName'];
      if (typeof table !== 'string' || table.trim() === '') {
        return { kind: 'fail', reason: 'the first response returned no TableName, so the next page cannot be asked for' };
      }
      const request = withBodyFields(page.request, { OFFSET: offset + 1, TableName: table });
      if (!request) return { kind: 'fail', reason: 'the request body is not a JSON object' };
      return { kind: 'continue', request };
    },
  };
}
