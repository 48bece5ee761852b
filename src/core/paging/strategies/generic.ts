// The configurable style, for the fundraising lists (whose paging names the contract does not publish)
// and for imported operations. Modes, chosen by the plan's options (see directive.ts):
//   next=FIELD            follow the absolute or relative URL in body FIELD (next_link, @odata.nextLink...)
//   cursor=PARAM [cursorField=PATH]   send the response's cursor back as PARAM
//   offset=PARAM [limit=PARAM]        PARAM += rows received; stop on an empty page (or total=)
//   page=PARAM [size=PARAM] [start=1] PARAM += 1; stop on an empty page (or total= / totalPages=)
//   (none)                 follow an RFC 8288 `Link: <...>; rel="next"` header, else a body next_link,
//                          @odata.nextLink, nextLink or next; else the walk ends after one page.
// in=query|body says where PARAMs go (query for GET, body otherwise). total=PATH / totalPages=PATH
// name response fields that bound a walk; they are the walk's facts (named `total=PATH`, as written),
// which every page must repeat and the walk's end is judged by (walkRate.ts), whatever the mode. A 429 waits for Retry-After, bounded (commonAcceptance).
import { headerValue, type HttpRequest } from '../../http/types';
import { commonAcceptance } from '../common';
import { linkHeaderNext } from '../linkHeader';
import { asNumber, followLink, jsonBody, queryParam, withBodyFields, withQueryParam } from '../requestEdit';
import { readPath, rowsRule } from '../rows';
import type { Page, PagingStrategy, RetryPolicy, Step } from '../types';

export const NEXT_LINK_FIELDS = ['next_link', '@odata.nextLink', 'nextLink', 'next'] as const;

type Mode = 'next' | 'cursor' | 'offset' | 'page' | 'auto';

function modeOf(options: Readonly<Record<string, string>>): Mode {
  if (options['next'] !== undefined) return 'next';
  if (options['cursor'] !== undefined) return 'cursor';
  if (options['offset'] !== undefined) return 'offset';
  if (options['page'] !== undefined) return 'page';
  return 'auto';
}

function paramIn(options: Readonly<Record<string, string>>, request: HttpRequest): 'query' | 'body' {
  if (options['in'] === 'query' || options['in'] === 'body') return options['in'];
  return ['GET', 'HEAD', 'DELETE'].includes(request.method.toUpperCase()) ? 'query' : 'body';
}

function readParam(request: HttpRequest, name: string, where: 'query' | 'body'): unknown {
  return where === 'query' ? queryParam(request, name) : jsonBody(request)?.[name];
}

function setParam(request: HttpRequest, name: string, value: string | number, where: 'query' | 'body'): HttpRequest | undefined {
  return where === 'query' ? withQueryParam(request, name, value) : withBodyFields(request, { [name]: value });
}

function followTo(page: Page, link: unknown, from: string): Step {
  if (link === undefined || link === null || link === '') return { kind: 'end', reason: `no next link (${from})` };
  if (typeof link !== 'string') return { kind: 'fail', reason: `${from} is not a URL` };
  const request = followLink(page.request, link);
  if (request.url === page.request.url) return { kind: 'fail', reason: `${from} points back to the same page` };
  return { kind: 'continue', request };
}

type Options = Readonly<Record<string, string>>;

const bodyOf = (page: Page): unknown => (page.body.ok ? page.body.value : undefined);

/** The request with the position parameter set, or a failure when the body has no room for it. */
function continueWith(request: HttpRequest | undefined): Step {
  return request ? { kind: 'continue', request } : { kind: 'fail', reason: 'the request body is not a JSON object' };
}

/** next=FIELD: the URL the body's FIELD holds. */
function nextFromField(page: Page, options: Options): Step {
  return followTo(page, readPath(bodyOf(page), options['next'] ?? ''), `body field ${options['next']}`);
}

/** No mode: the Link header's rel="next", else the first of NEXT_LINK_FIELDS the body fills. */
function nextFromLinks(page: Page): Step {
  const linked = linkHeaderNext(headerValue(page.response.headers, 'link'));
  if (linked) return followTo(page, linked, 'Link header rel="next"');
  for (const field of NEXT_LINK_FIELDS) {
    const link = readPath(bodyOf(page), field);
    if (typeof link === 'string' && link !== '') return followTo(page, link, `body field ${field}`);
  }
  return { kind: 'end', reason: 'no next link in the Link header or the body' };
}

/** cursor=PARAM: the cursor the response returns (cursorField, else PARAM) sent back as PARAM. */
function nextFromCursor(page: Page, rows: readonly unknown[], options: Options): Step {
  const param = options['cursor'] ?? 'cursor';
  const cursor = readPath(bodyOf(page), options['cursorField'] ?? param);
  if (rows.length === 0) return { kind: 'end', reason: 'empty page' };
  if (cursor === undefined || cursor === null || cursor === '') return { kind: 'end', reason: 'no cursor returned' };
  if (typeof cursor !== 'string' && typeof cursor !== 'number') return { kind: 'fail', reason: 'the returned cursor is not a string or number' };
  return continueWith(setParam(page.request, param, cursor, paramIn(options, page.request)));
}

/** A number the response's field at the option's path holds, when the option names one (total=, totalPages=). */
function boundOf(page: Page, options: Options, option: 'total' | 'totalPages'): number | undefined {
  const path = options[option];
  return path ? asNumber(readPath(bodyOf(page), path)) : undefined;
}

/** offset=PARAM: PARAM (0 when absent) += rows received; all seen once total= is reached. */
function nextOffset(page: Page, rows: readonly unknown[], options: Options): Step {
  if (rows.length === 0) return { kind: 'end', reason: 'empty page' };
  const where = paramIn(options, page.request);
  const param = options['offset'] ?? 'offset';
  const current = asNumber(readParam(page.request, param, where)) ?? 0;
  const total = boundOf(page, options, 'total');
  if (total !== undefined && current + rows.length >= total) return { kind: 'end', reason: `all ${total} rows seen (${options['total']})` };
  return continueWith(setParam(page.request, param, current + rows.length, where));
}

/** page=PARAM: PARAM (start=, else 1, when absent) += 1; the end at totalPages=, or once size= pages of total= rows are seen. */
function nextPageNumber(page: Page, rows: readonly unknown[], options: Options): Step {
  if (rows.length === 0) return { kind: 'end', reason: 'empty page' };
  const where = paramIn(options, page.request);
  const param = options['page'] ?? 'page';
  const start = asNumber(options['start']) ?? 1;
  const current = asNumber(readParam(page.request, param, where)) ?? start;
  const totalPages = boundOf(page, options, 'totalPages');
  if (totalPages !== undefined && current >= totalPages) return { kind: 'end', reason: `page ${current} of ${totalPages} reached` };
  const total = boundOf(page, options, 'total');
  const size = asNumber(options['size'] ? readParam(page.request, options['size'], where) : undefined);
  if (total !== undefined && size !== undefined && (current - start + 1) * size >= total) {
    return { kind: 'end', reason: `all ${total} rows seen (${options['total']})` };
  }
  return continueWith(setParam(page.request, param, current + 1, where));
}

const NEXT_OF: Record<Mode, (page: Page, rows: readonly unknown[], options: Options) => Step> = {
  next: (page, _rows, options) => nextFromField(page, options),
  auto: (page) => nextFromLinks(page),
  cursor: nextFromCursor,
  offset: nextOffset,
  page: nextPageNumber,
};

/**
 * The top-level fields this mode's step reads besides the rows (next=, cursorField=/cursor=, total=,
 * totalPages=: a path's first part, and the path as one key): kept whole when the page streams anywhere.
 */
function fieldsRead(options: Options): string[] {
  const paths = [options['next'], options['cursorField'] ?? options['cursor'], options['total'], options['totalPages']];
  return paths.flatMap((path) => (path ? [path, path.split('.')[0]!] : []));
}

/** The totals the response announces (total=, totalPages=), named as the directive writes them. */
function announced(page: Page, options: Options): Record<string, number> {
  const facts: Record<string, number> = {};
  for (const option of ['total', 'totalPages'] as const) {
    const bound = boundOf(page, options, option);
    if (bound !== undefined) facts[`${option}=${options[option]}`] = bound;
  }
  return facts;
}

/**
 * The number of the list's page a request asks for, counted from 1 (the totals are judged from it): the
 * page mode's PARAM from start=; the first page of the offset mode at offset 0, of the cursor mode without
 * a cursor (a later offset or a cursor the user wrote is no numbered page: where it starts is not known;
 * nor is a next link's, which the request may already be).
 */
function pageNumberOf(request: HttpRequest, options: Options, mode: 'page' | 'offset' | 'cursor'): number | undefined {
  const where = paramIn(options, request);
  if (mode === 'offset') return (asNumber(readParam(request, options['offset'] ?? 'offset', where)) ?? 0) === 0 ? 1 : undefined;
  if (mode === 'cursor') {
    const cursor = readParam(request, options['cursor'] ?? 'cursor', where);
    return cursor === undefined || cursor === null || cursor === '' ? 1 : undefined;
  }
  const start = asNumber(options['start']) ?? 1;
  return (asNumber(readParam(request, options['page'] ?? 'page', where)) ?? start) - start + 1;
}

export function genericStrategy(options: Options, policy: RetryPolicy): PagingStrategy {
  const rule = rowsRule('generic', options);
  const mode = modeOf(options);
  const next = NEXT_OF[mode];
  return {
    ...(options['total'] || options['totalPages'] ? { facts: (page: Page) => announced(page, options) } : {}),
    ...(mode === 'page' || mode === 'offset' || mode === 'cursor' ? { pageNumber: (page: Page) => pageNumberOf(page.request, options, mode) } : {}),
    style: 'generic',
    position(request) {
      if (mode === 'next' || mode === 'auto') return { url: true };
      // The mode's option names its parameter (cursor=, offset=, page=), by default the mode's name.
      const param = options[mode] ?? mode;
      const where = paramIn(options, request) === 'query' ? { query: [param] } : { body: [param] };
      if (mode === 'offset') return { ...where, counted: { field: param, by: 'rows', start: 0 } };
      return mode === 'page' ? { ...where, counted: { field: param, by: 'pages', start: asNumber(options['start']) ?? 1 } } : where;
    },
    ...(rule.streamRows ? { streamRows: rule.streamRows.anywhere ? { ...rule.streamRows, kept: fieldsRead(options) } : rule.streamRows } : {}),
    prepare: (first) => first,
    accept(page, state) {
      const common = commonAcceptance(page, state, policy);
      if (common) return common;
      return rule.accept(bodyOf(page));
    },
    next: (page, rows) => next(page, rows, options),
  };
}
