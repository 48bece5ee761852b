// Page headers (booking service, seed 002): query page (absent = page 1); the response carries
// X-Pagination-Page, -Per-Page, -Total-Pages and -Total-Results. Continue with page+1 up to
// X-Pagination-Total-Pages. The contract shows only the headers: the rows are where the rows rule finds
// them (a top-level array, else the largest array of objects beside an error list; rows.ts). A header
// that is there but is not a whole number (`4, 4` when sent twice, `4 in all`) fails the page: taken as
// absent, it ended the walk after one page as if the server had announced no more.
import { headerValue, type HttpResponse } from '../../http/types';
import { commonAcceptance } from '../common';
import { asNumber, queryParam, withQueryParam } from '../requestEdit';
import { rowsRule } from '../rows';
import type { Page, PagingStrategy, RetryPolicy } from '../types';

export interface PaginationHeaders {
  readonly page?: number;
  readonly perPage?: number;
  readonly totalPages?: number;
  readonly totalResults?: number;
}

export function paginationHeaders(response: HttpResponse): PaginationHeaders {
  const read = (name: string) => asNumber(headerValue(response.headers, `x-pagination-${name}`));
  return { page: read('page'), perPage: read('per-page'), totalPages: read('total-pages'), totalResults: read('total-results') };
}

const HEADER_NAMES = ['X-Pagination-Page', 'X-Pagination-Per-Page', 'X-Pagination-Total-Pages', 'X-Pagination-Total-Results'];

/** Why a response's X-Pagination-* header cannot be read: there, but not a whole number. */
function unreadableHeader(response: HttpResponse): string | undefined {
  for (const name of HEADER_NAMES) {
    const value = headerValue(response.headers, name);
    if (value !== undefined && !/^[ \t]*\d+[ \t]*$/.test(value)) {
      const shown = value.length > 40 ? `${value.slice(0, 40)}…` : value;
      return `${name} is ${JSON.stringify(shown)}, not a whole number, so where the walk is and where it ends cannot be read`;
    }
  }
  return undefined;
}

/** True when a response carries any X-Pagination-* header (used to detect the style on its own). */
export function hasPaginationHeaders(response: HttpResponse): boolean {
  return Object.keys(response.headers).some((name) => name.toLowerCase().startsWith('x-pagination-'));
}

export function pageHeadersStrategy(options: Readonly<Record<string, string>>, policy: RetryPolicy): PagingStrategy {
  const rule = rowsRule('page-headers', options);
  const pageParam = options['page'] ?? 'page';
  /** The page's number: X-Pagination-Page, else the one asked, else 1 (no page asked). */
  const numberOf = (page: Page): number => paginationHeaders(page.response).page ?? asNumber(queryParam(page.request, pageParam)) ?? 1;
  return {
    style: 'page-headers',
    position: () => ({ query: [pageParam], counted: { field: pageParam, by: 'pages', start: 1 } }),
    ...(rule.streamRows ? { streamRows: rule.streamRows } : {}),
    loop: {
      style: 'page-headers',
      citation: 'seed 002 §Endpoints',
      rule: [
        'The first request, without page, reports page 1; continue with page 2, 3, ... up to X-Pagination-Total-Pages.',
        'Every response carries X-Pagination-Page, -Per-Page, -Total-Pages and -Total-Results: one that vanishes or changes mid-walk makes it inconsistent.',
      ],
      rows: rule.place,
      advance: { kind: 'page-headers', param: pageParam, pageHeader: 'X-Pagination-Page', totalPagesHeader: 'X-Pagination-Total-Pages' },
      facts: [{ from: 'header', name: 'X-Pagination-Total-Pages' }, { from: 'header', name: 'X-Pagination-Total-Results' }, { from: 'header', name: 'X-Pagination-Per-Page' }],
    },
    prepare: (first) => first,
    pageNumber: numberOf,
    facts(page) {
      const h = paginationHeaders(page.response);
      const facts: Record<string, number> = {};
      if (h.totalPages !== undefined) facts['X-Pagination-Total-Pages'] = h.totalPages;
      if (h.totalResults !== undefined) facts['X-Pagination-Total-Results'] = h.totalResults;
      if (h.perPage !== undefined) facts['X-Pagination-Per-Page'] = h.perPage;
      return facts;
    },
    accept(page, state) {
      const common = commonAcceptance(page, state, policy);
      if (common) return common;
      const unreadable = unreadableHeader(page.response);
      if (unreadable) return { kind: 'fail', reason: unreadable };
      const asked = asNumber(queryParam(page.request, pageParam));
      const served = paginationHeaders(page.response).page;
      if (asked !== undefined && served !== undefined && served !== asked) {
        return { kind: 'inconsistent', reason: `page ${asked} was asked for but X-Pagination-Page says ${served}: the server ignored the page it was sent` };
      }
      return rule.accept(page.body.ok ? page.body.value : undefined);
    },
    next(page, rows) {
      const headers = paginationHeaders(page.response);
      const current = numberOf(page);
      if (headers.totalPages === undefined) {
        return { kind: 'end', reason: 'the response has no X-Pagination-Total-Pages header, so there is no known next page' };
      }
      if (current >= headers.totalPages) return { kind: 'end', reason: `page ${current} of ${headers.totalPages} (X-Pagination-Total-Pages) reached` };
      if (rows.length === 0) return { kind: 'end', reason: `page ${current} is empty` };
      return { kind: 'continue', request: withQueryParam(page.request, pageParam, current + 1) };
    },
  };
}
