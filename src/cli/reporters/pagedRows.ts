// `--all-pages` for apiwb run: follows a request's pages with the shared paging engine (the same walker
// the panel uses) and hands each page's rows to the --out writer before the next page is asked for.
// Also counts the rows of a single response.
import type { HttpRequest, HttpResponse } from '../../core/http/types';
import { parsePagingDirective } from '../../core/paging/directive';
import { resolveStyle } from '../../core/paging/resolve';
import { walk } from '../../core/paging/walker';
import type { RowSink } from '../../core/export/sink';
import { sharedCatalog } from './businessFailures';
import type { RowWriter } from './rowWriters';

export interface WalkOptions {
  readonly writer: RowWriter | undefined;
  readonly maxPages?: number;
  readonly timeoutMs: number;
  readonly rejectUnauthorized: boolean;
  readonly onPage: (pages: number, rows: number) => void;
}

export interface WalkSummary {
  readonly pages: number;
  readonly rows: number;
  readonly lastResponse?: HttpResponse;
  /** Why the walk stopped before the end, in words; undefined when it reached the end. */
  readonly problem?: string;
  /** A `# @paging` directive that could not be read: an input error. */
  readonly directiveError?: string;
}

/** Walks every page of `first`; the style comes from `# @paging`, else the catalog, else detection. */
export async function walkAllPages(first: HttpRequest, directives: Readonly<Record<string, string>>, options: WalkOptions): Promise<WalkSummary> {
  const written = directives['paging'];
  let directive;
  if (written !== undefined) {
    const parsed = parsePagingDirective(`# @paging ${written}`);
    if (!parsed.ok) return { pages: 0, rows: 0, directiveError: parsed.error };
    directive = parsed.directive;
  }
  const path = safePath(first.url);
  const catalogStyle = sharedCatalog().match(first.method, path)?.paging;
  const plan = resolveStyle({ ...(directive ? { directive } : {}), ...(catalogStyle ? { catalogStyle } : {}) });
  let lastResponse: HttpResponse | undefined;
  const result = await walk(first, {
    sink: writerSink(options.writer),
    ...(plan ? { plan } : {}),
    ...(options.maxPages ? { maxPages: options.maxPages } : {}),
    sendOptions: { timeoutMs: options.timeoutMs, rejectUnauthorized: options.rejectUnauthorized },
    onPage: (event) => {
      lastResponse = event.response;
      options.onPage(event.progress.pages, event.progress.rows);
    },
  });
  const ended = result.outcome === 'complete' || (result.outcome === 'max-pages' && options.maxPages !== undefined);
  return {
    pages: result.pages,
    rows: result.rows,
    ...(lastResponse ? { lastResponse } : {}),
    ...(ended ? {} : { problem: result.message }),
  };
}

/** The CLI's writer (one file across every request of the run) as the walker's sink. */
function writerSink(writer: RowWriter | undefined): RowSink {
  return {
    format: 'memory',
    writePage: (rows) => writer ? writer.write(rows) : Promise.resolve(),
    checkpoint: () => undefined,
    close: () => Promise.resolve(),
  };
}

function safePath(url: string): string {
  try {
    const parsed = new URL(url);
    return parsed.pathname + parsed.search;
  } catch {
    return url;
  }
}

/** Business-error lists (seed 000 §7.2) are not result rows. */
const ERROR_LISTS = new Set(['Errors', 'errors', 'Error']);

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
