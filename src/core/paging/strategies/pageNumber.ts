// Page number (Transaction/GetOrdersByCustomer, seed 000 §4.2 rules 2-3): query pageNumber (default 1)
// and pageSize (default 50, capped at 500). Continue with pageNumber+1; stop once PageNumber × PageSize
// (the effective size the response reports) covers TotalOrders, on an empty page, or on 200 +
// Response=false (a page out of range). A 400 is an error, never the end (commonAcceptance).
// No snapshot is promised under concurrent change, so rows can shift between pages; we do not hide that.
import { commonAcceptance } from '../common';
import { asNumber, queryParam, withQueryParam } from '../requestEdit';
import { isJsonObject } from '../../json/numberText';
import { rowsRule } from '../rows';
import type { Page, PagingStrategy, RetryPolicy } from '../types';

export function pageNumberStrategy(options: Readonly<Record<string, string>>, policy: RetryPolicy): PagingStrategy {
  const rule = rowsRule('page-number', options);
  const pageParam = options['page'] ?? 'pageNumber';
  /** The page's number: the PageNumber the response reports, else the one asked, else 1 (the default). */
  const numberOf = (page: Page): number => {
    const body = page.body.ok && isJsonObject(page.body.value) ? page.body.value : {};
    return asNumber(body['PageNumber']) ?? asNumber(queryParam(page.request, pageParam)) ?? 1;
  };
  return {
    style: 'page-number',
    position: () => ({ query: [pageParam], counted: { field: pageParam, by: 'pages', start: 1 } }),
    ...(rule.streamRows ? { streamRows: rule.streamRows } : {}),
    loop: {
      style: 'page-number',
      citation: 'seed 000 §4.2 rules 2-3',
      rule: [
        'pageNumber defaults to 1, pageSize to 50 (at most 500); a value below 1 is refused with HTTP 400, which is an error, never the end.',
        'Continue with pageNumber + 1; stop once PageNumber x PageSize (as the response reports them) covers TotalOrders, or on an empty page.',
        'A 200 with Response=false is a page out of range (the end); on the first page it is the answer to the whole request (a failure).',
        'No snapshot is promised under concurrent change: TotalOrders or PageSize changing mid-walk makes the walk inconsistent.',
      ],
      rows: rule.place,
      advance: { kind: 'page-number', param: pageParam, sizeParam: 'pageSize', servedField: 'PageNumber', sizeField: 'PageSize', totalField: 'TotalOrders', outOfRangeFlag: 'Response' },
      facts: [{ from: 'body', name: 'TotalOrders' }, { from: 'body', name: 'PageSize' }],
    },
    prepare: (first) => first,
    pageNumber: numberOf,
    facts(page) {
      const body = page.body.ok && isJsonObject(page.body.value) ? page.body.value : {};
      const facts: Record<string, number> = {};
      const total = asNumber(body['TotalOrders']);
      const size = asNumber(body['PageSize']);
      if (total !== undefined) facts['TotalOrders'] = total;
      if (size !== undefined) facts['PageSize'] = size;
      return facts;
    },
    accept(page, state) {
      const common = commonAcceptance(page, state, policy);
      if (common) return common;
      const body = page.body.ok ? page.body.value : undefined;
      const asked = asNumber(queryParam(page.request, pageParam));
      const served = isJsonObject(body) ? asNumber(body['PageNumber']) : undefined;
      if (asked !== undefined && served !== undefined && served !== asked && isJsonObject(body) && body['Response'] !== false) {
        return { kind: 'inconsistent', reason: `page ${asked} was asked for but the response says PageNumber ${served}: the server ignored the page it was sent` };
      }
      if (isJsonObject(body) && body['Response'] === false) {
        const errors = Array.isArray(body['Errors']) ? body['Errors'].map(String).join('; ') : '';
        const said = errors ? `: ${errors}` : '';
        // On the first page Response=false is the answer to the whole request (e.g. Invalid CtcID).
        if (state.pagesWritten === 0) return { kind: 'fail', reason: `the first page reports Response=false${said}` };
        return { kind: 'end', reason: `page out of range (200 with Response=false${said})` };
      }
      return rule.accept(body);
    },
    next(page, rows) {
      const body = page.body.ok && isJsonObject(page.body.value) ? page.body.value : {};
      const current = numberOf(page);
      const size = asNumber(body['PageSize']) ?? asNumber(queryParam(page.request, 'pageSize'));
      const total = asNumber(body['TotalOrders']);
      if (rows.length === 0) return { kind: 'end', reason: `page ${current} is empty` };
      if (total !== undefined && size !== undefined && current * size >= total) {
        return { kind: 'end', reason: `all ${total} orders seen (TotalOrders) by page ${current}` };
      }
      return { kind: 'continue', request: withQueryParam(page.request, pageParam, current + 1) };
    },
  };
}
