// `--all-pages` for apiwb run: follows a request's pages with the shared paging engine and streams each
// page's rows to the --out writer before asking for the next one. Also counts rows of a single response.
import type { HttpRequest, HttpResponse } from '../../core/http/types';
import type { HttpRequestNode } from '../../core/httpfile/model';
import type { RowWriter } from './rowWriters';

export interface WalkOptions {
  readonly send: (request: HttpRequest) => Promise<HttpResponse>;
  readonly writer: RowWriter | undefined;
  readonly maxPages?: number;
  readonly onPage: (pages: number, rows: number) => void;
}

export interface WalkResult {
  readonly pages: number;
  readonly rows: number;
  readonly lastResponse?: HttpResponse;
  /** Why the walk stopped early, in words; undefined when it reached the end. */
  readonly problem?: string;
}

export async function walkAllPages(
  _node: HttpRequestNode,
  _directives: Readonly<Record<string, string>>,
  first: HttpRequest,
  options: WalkOptions,
): Promise<WalkResult> {
  // Until the paging walker is available: one page, said plainly rather than silently truncated.
  const response = await options.send(first);
  const rows = rowsOf(response.bodyText);
  if (response.status < 400) await options.writer?.write(rows);
  options.onPage(1, rows.length);
  return { pages: 1, rows: rows.length, lastResponse: response, problem: '--all-pages: the paging engine is not in this build yet; only the first page was fetched' };
}

/** Rows of one response: a top-level array, else the first array property (Orders, value, _Leads, ...). */
export function rowsOf(bodyText: string): readonly unknown[] {
  try {
    const body: unknown = JSON.parse(bodyText);
    if (Array.isArray(body)) return body;
    if (body !== null && typeof body === 'object') {
      for (const [key, value] of Object.entries(body)) if (Array.isArray(value) && !ERROR_LISTS.has(key)) return value;
    }
  } catch {
    // not JSON: no rows
  }
  return [];
}

/** Business-error lists (seed 000 §7.2) are not result rows. */
const ERROR_LISTS = new Set(['Errors', 'errors', 'Error']);

/** Rows of a response that has a collection; undefined for a body without one (e.g. a PostOutput). */
export function countRows(bodyText: string): number | undefined {
  let body: unknown;
  try {
    body = JSON.parse(bodyText);
  } catch {
    return undefined;
  }
  if (Array.isArray(body)) return body.length;
  if (body === null || typeof body !== 'object') return undefined;
  const hasCollection = Object.entries(body).some(([key, value]) => Array.isArray(value) && !ERROR_LISTS.has(key));
  return hasCollection ? rowsOf(bodyText).length : undefined;
}
