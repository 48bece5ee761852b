// Which paging style a request follows: a `# @paging` directive wins; else the catalog's style for the
// operation; else (an imported or unknown operation, or `@paging auto`) it is detected from the first
// response: X-Pagination-* headers mean page-headers, a Link rel="next" header or a next_link /
// @odata.nextLink / nextLink body field means generic, anything else a single page ('none').
import type { PagingStyleId } from '../catalog/model';
import { headerValue, type HttpResponse } from '../http/types';
import type { PagingDirective } from './directive';
import { linkHeaderNext } from './linkHeader';
import { NEXT_LINK_FIELDS } from './strategies/generic';
import { hasPaginationHeaders } from './strategies/pageHeaders';
import { readPath, rowsPathOf, rowsRule, type StreamRows } from './rows';
import type { PagingPlan } from './types';

export interface StyleSources {
  readonly directive?: PagingDirective;
  /** The catalog operation's paging style, when the request matches one. */
  readonly catalogStyle?: PagingStyleId;
  /** The catalog operation's paging options (an imported OpenAPI operation's next=, items=, …). */
  readonly catalogOptions?: Readonly<Record<string, string>>;
}

/** The plan before any response; `undefined` style means "detect from the first response". */
export function resolveStyle(sources: StyleSources): PagingPlan | undefined {
  const { directive, catalogStyle, catalogOptions } = sources;
  if (directive && directive.style !== 'auto') return { style: directive.style, options: directive.options, source: 'directive' };
  if (!directive && catalogStyle && catalogStyle !== 'none') return { style: catalogStyle, options: catalogOptions ?? {}, source: 'catalog' };
  return undefined;
}

/**
 * What the walker may stream of a page: its strategy's rows; before a style is known (a first page whose
 * style is detected from it), the rows found anywhere by the rule of the style its head and body show
 * (the walker then detects the same style from the same skeleton).
 */
export function streamRowsOf(strategy: { readonly streamRows?: StreamRows } | undefined, options: Readonly<Record<string, string>> = {}): StreamRows | undefined {
  if (strategy) return strategy.streamRows;
  const path = rowsPathOf(options);
  return {
    anywhere: (body, head) => {
      const style = detectStyle({ status: 200, statusText: '', headers: head.headers, bodyText: '', timing: { startedAt: 0, firstByteMs: 0, totalMs: 0 }, sizeBytes: 0 }, options, { body }).style;
      return rowsRule(style, options).findStreamed(body);
    },
    ...(path === undefined ? {} : { path }),
  };
}

/** Detects the style from a response when nothing else named one. */
export function detectStyle(response: HttpResponse, options: Readonly<Record<string, string>> = {}, parsed?: { readonly body: unknown }): PagingPlan {
  if (hasPaginationHeaders(response)) return { style: 'page-headers', options, source: 'detected' };
  if (linkHeaderNext(headerValue(response.headers, 'link'))) return { style: 'generic', options, source: 'detected' };
  // `parsed`: the body as the walk already parsed it (a 100 000-row page is not parsed twice).
  let body: unknown = parsed?.body;
  if (!parsed) {
    try {
      body = JSON.parse(response.bodyText);
    } catch {
      body = undefined;
    }
  }
  if (NEXT_LINK_FIELDS.some((field) => typeof readPath(body, field) === 'string')) return { style: 'generic', options, source: 'detected' };
  return { style: 'none', options, source: 'detected' };
}
