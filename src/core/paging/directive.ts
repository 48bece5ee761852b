// The `# @paging` directive of a request in a .http file overrides the catalog's paging style:
//
//   # @paging <style> [key=value ...]
//
// <style> is a PagingStyleId (page-number, page-headers, offset-remaining, batch-cursor,
// export-ordinal, stateful-extraction, generic, none) or `auto` (detect from the first response).
// `//` may replace `#`. Values may be "double-quoted". Keys are case-sensitive, and so are the names
// they give (the contract: Offset, OFFSET and pageNumber differ). Examples:
//   # @paging generic offset=offset limit=limit items=value
//   # @paging generic next=@odata.nextLink
//   # @paging generic page=page size=per_page totalPages=meta.pages
//   # @paging export-ordinal pageRows=1000
//   # @paging offset-remaining items=_Leads
import type { PagingStyleId } from '../catalog/model';

export const PAGING_STYLE_IDS: readonly PagingStyleId[] = [
  'page-number', 'page-headers', 'offset-remaining', 'batch-cursor', 'export-ordinal', 'stateful-extraction', 'generic', 'none',
];

/** Option keys each style understands; `items` (where the rows are) is accepted by all. */
export const PAGING_OPTION_KEYS: Readonly<Record<PagingStyleId | 'auto', readonly string[]>> = {
  'page-number': ['page'],
  'page-headers': ['page'],
  'offset-remaining': ['offset'],
  'batch-cursor': ['cursor'],
  'export-ordinal': ['pageRows'],
  'stateful-extraction': [],
  generic: ['next', 'cursor', 'cursorField', 'offset', 'limit', 'page', 'size', 'start', 'total', 'totalPages', 'in'],
  none: [],
  auto: [],
};

export interface PagingDirective {
  readonly style: PagingStyleId | 'auto';
  readonly options: Readonly<Record<string, string>>;
}

export type DirectiveParse =
  | { readonly ok: true; readonly directive: PagingDirective }
  | { readonly ok: false; readonly error: string };

const DIRECTIVE = /^\s*(?:#|\/\/)\s*@paging(?:\s+(.*))?$/;

function tokens(text: string): string[] | undefined {
  const out: string[] = [];
  const pattern = /\s*([^\s="]+(?:=(?:"[^"]*"|[^\s"]*))?)/y;
  let rest = text.trim();
  while (rest !== '') {
    pattern.lastIndex = 0;
    const match = pattern.exec(rest);
    if (!match?.[1]) return undefined;
    out.push(match[1]);
    rest = rest.slice(match[0].length).trim();
  }
  return out;
}

export function parsePagingDirective(line: string): DirectiveParse {
  const match = DIRECTIVE.exec(line);
  if (!match) return { ok: false, error: 'not a # @paging directive' };
  const parts = tokens(match[1] ?? '');
  if (!parts || parts.length === 0) {
    return { ok: false, error: `@paging needs a style: ${[...PAGING_STYLE_IDS, 'auto'].join(', ')}` };
  }
  const [style, ...pairs] = parts as [string, ...string[]];
  if (style !== 'auto' && !(PAGING_STYLE_IDS as readonly string[]).includes(style)) {
    return { ok: false, error: `unknown paging style "${style}": use ${[...PAGING_STYLE_IDS, 'auto'].join(', ')}` };
  }
  const id = style as PagingStyleId | 'auto';
  const allowed = new Set([...PAGING_OPTION_KEYS[id], 'items']);
  const options: Record<string, string> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0) return { ok: false, error: `"${pair}" is not key=value` };
    const key = pair.slice(0, eq);
    const raw = pair.slice(eq + 1);
    const value = raw.startsWith('"') && raw.endsWith('"') && raw.length >= 2 ? raw.slice(1, -1) : raw;
    if (!allowed.has(key)) return { ok: false, error: `${style} does not take "${key}": it takes ${[...allowed].join(', ')}` };
    if (value === '') return { ok: false, error: `${key} needs a value` };
    if (key === 'in' && value !== 'query' && value !== 'body') return { ok: false, error: 'in= is query or body' };
    options[key] = value;
  }
  return { ok: true, directive: { style: id, options } };
}
