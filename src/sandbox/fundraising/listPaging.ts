// The conventions the sandbox chose for the fundraising list endpoints (names not published, seed 001
// §4, §8), labelled `fundraising-conventions` on every answer that uses them: query `limit` (default
// 50, 1-500, else 400) and `offset` (default 0), answer `{count, value, next_link}` where next_link is
// the absolute URL of the next page or null, errors as {type, title, status, detail}. The `rate-limit`
// choice (off unless --rate-limit is set, ../shared/rateLimit.ts) answers 429 in that error layout.
import type { RequestContext } from '../shared/context';

export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 500;

export function problem(ctx: RequestContext, status: number, title: string, detail: string, headers: Record<string, string> = {}): void {
  ctx.choice('fundraising-conventions');
  ctx.json(status, { type: 'about:blank', title, status, detail }, headers);
}

export interface Paging { readonly limit: number; readonly offset: number }

/** Reads limit/offset; answers 400 itself and returns undefined when they are invalid. */
export function readPaging(ctx: RequestContext): Paging | undefined {
  const read = (name: string, fallback: number, min: number, max: number): number | undefined => {
    const raw = ctx.query.get(name);
    if (raw === null || raw === '') return fallback;
    const n = Number(raw);
    return /^\d+$/.test(raw) && n >= min && n <= max ? n : undefined;
  };
  const limit = read('limit', DEFAULT_LIMIT, 1, MAX_LIMIT);
  const offset = read('offset', 0, 0, Number.MAX_SAFE_INTEGER);
  if (limit === undefined) return void problem(ctx, 400, 'Bad Request', `limit must be an integer from 1 to ${MAX_LIMIT}`);
  if (offset === undefined) return void problem(ctx, 400, 'Bad Request', 'offset must be an integer of at least 0');
  return { limit, offset };
}

/** The page envelope; next_link keeps every other query parameter of the request. */
export function sendPage(ctx: RequestContext, count: number, value: unknown[], paging: Paging): void {
  let nextLink: string | null = null;
  if (paging.offset + value.length < count && value.length > 0) {
    const next = new URL(ctx.url.href);
    next.searchParams.set('limit', String(paging.limit));
    next.searchParams.set('offset', String(paging.offset + paging.limit));
    nextLink = next.href;
  }
  ctx.choice('fundraising-conventions');
  ctx.json(200, { count, value, next_link: nextLink });
}

/** `include` as a comma list and/or repeated; answers 400 for a value outside `allowed`. */
export function readIncludes(ctx: RequestContext, allowed: readonly string[]): string[] | undefined {
  const values = ctx.query.getAll('include').flatMap((v) => v.split(',')).map((v) => v.trim()).filter((v) => v !== '');
  const unknown = values.filter((v) => !allowed.includes(v));
  if (unknown.length > 0) {
    return void problem(ctx, 400, 'Bad Request', `include accepts ${allowed.join(', ')}; not ${unknown.join(', ')}`);
  }
  return values;
}
