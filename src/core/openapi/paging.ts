// Paging read from an imported document, in the `generic` style's option vocabulary
// (src/core/paging/strategies/generic.ts): a list response with an array field and a next-link field
// gives `next=<field> items=<field>`; a count field gives `total=`; documented limit/offset or
// page/size query parameters are named too (offset=, limit=, page=, size=), so the walker can use
// them when no next link is given. Nothing is guessed from names alone unless the response documents
// rows: a plain object response means no paging.
import type { JSONSchema } from '../catalog/jsonSchema';
import { derefSchema, nonNullSchema } from '../catalog/jsonSchema';

const NEXT_FIELDS = ['next_link', 'nextLink', '@odata.nextLink', 'next', 'next_page_url', 'nextPageUrl'];
const ITEM_FIELDS = ['value', 'items', 'data', 'results', 'records', 'rows'];
const TOTAL_FIELDS = ['count', 'total', 'totalCount', 'total_count', '@odata.count', 'totalResults'];
const OFFSET_PARAMS = ['offset', 'skip', '$skip', 'start'];
const LIMIT_PARAMS = ['limit', 'take', '$top', 'top', 'pageSize', 'page_size', 'per_page', 'size'];
const PAGE_PARAMS = ['page', 'pageNumber', 'page_number'];

function pick(names: readonly string[], candidates: readonly string[]): string | undefined {
  return candidates.find((c) => names.includes(c));
}

/**
 * The generic paging options of an operation, from its query parameter names and its 200 response
 * schema; undefined when the document shows no paging.
 */
export function pagingOptionsOf(queryNames: readonly string[], response: JSONSchema | undefined): Record<string, string> | undefined {
  const options: Record<string, string> = {};
  if (response) {
    const body = nonNullSchema(response, derefSchema(response, response));
    const properties = body.properties ?? {};
    const names = Object.keys(properties);
    const arrays = names.filter((n) => {
      const p = properties[n];
      return typeof p === 'object' && nonNullSchema(response, p).type === 'array';
    });
    const items = pick(arrays, ITEM_FIELDS) ?? (arrays.length === 1 ? arrays[0] : undefined);
    const next = pick(names, NEXT_FIELDS);
    const total = pick(names, TOTAL_FIELDS);
    if (items) options['items'] = items;
    if (items && next) options['next'] = next;
    if (items && total) options['total'] = total;
  }
  const offset = pick(queryNames, OFFSET_PARAMS);
  const page = pick(queryNames, PAGE_PARAMS);
  const limit = pick(queryNames, LIMIT_PARAMS);
  const pages = options['items'] !== undefined || (offset !== undefined && limit !== undefined) || page !== undefined;
  if (!pages) return undefined;
  if (offset) {
    options['offset'] = offset;
    if (limit) options['limit'] = limit;
  } else if (page) {
    options['page'] = page;
    if (limit) options['size'] = limit;
  }
  // A single object with an array and nothing that moves the walk forward is not paging.
  if (!options['next'] && !options['offset'] && !options['page']) return undefined;
  return options;
}

