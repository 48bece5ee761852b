// THE rule for what a checkpoint may decide when a walk is resumed (the CLI's --resume from a file, the
// panel's next page and all pages): nothing beyond what the walk that wrote it would have sent. A
// checkpoint is untrusted input: the request is the one the file gives now, prepared again; the checkpoint
// may only say where the walk stands — the paging style's place in the request (RequestPosition, declared
// by each strategy) and counts that are whole numbers; a position that follows from the counts (an offset
// from the rows kept, a page number from the pages kept: RequestPosition.counted) must be the one they
// give, and so must the number of its first page (firstPage, which the totals are judged from). Its method, server, path, other query parameters,
// headers, body and paging plan must be the request's own, and a walk it says is finished is not resumed.
// What is sent is then the request as prepared now with the position's values set in it: nothing else of
// the checkpoint's text goes out (a body equal only once parsed, a field given twice or a number written
// otherwise, is refused, since no walk writes one). Every resume passes here (the walker calls it before
// anything is sent); a refusal names the part.
import type { HttpRequest } from '../http/types';
import type { SecretBindings } from '../secrets/bindings';
import { originOf } from '../http/url';
import { withoutSecrets, type WalkCheckpoint } from './checkpoint';
import { asNumber, bodyKeepingNumbers, jsonBody, queryParam, withBodyFields, withQueryParam } from './requestEdit';
import { createStrategy } from './strategies';
import type { Page, PagingPlan, RequestPosition } from './types';

export type ResumeCheck = { readonly ok: true; readonly request: HttpRequest } | { readonly ok: false; readonly reason: string };

/**
 * The next request a checkpoint asks for, once every part of it outside the style's position is found
 * to be `fresh`'s (the request as prepared now; compared without what carries a secret): `fresh` so
 * prepared with the checkpoint's position values (positioned), still without credentials: the walker
 * puts them back through the one cross-origin rule (resumeHop). Or why the checkpoint is refused.
 */
export function checkResume(checkpoint: WalkCheckpoint, fresh: HttpRequest, plan: PagingPlan | undefined, source: 'read-back' | 'in-memory' = 'read-back', guard?: SecretBindings): ResumeCheck {
  const refusal = countsRefusal(checkpoint) ?? planRefusal(checkpoint.plan, plan);
  if (refusal) return { ok: false, reason: refusal };
  const stored = checkpoint.next;
  if (checkpoint.done || !stored) return { ok: false, reason: 'says the walk was finished: a finished walk is not resumed (run it again without --resume)' };
  const strategy = createStrategy(checkpoint.plan.style, checkpoint.plan.options);
  const base = withoutSecrets(strategy.prepare(fresh), guard);
  const position = strategy.position?.(base) ?? {};
  // A cursor this process made (the panel's) is held to the request's method and server only (its
  // dynamic values may differ between preparations); one read back, in every part but its position.
  if (source === 'in-memory') {
    const reason = serverRefusal(stored, base, position, checkpoint.origin);
    return reason ? { ok: false, reason } : { ok: true, request: stored };
  }
  const reason = requestRefusal(stored, base, position, checkpoint.origin);
  if (reason) return { ok: false, reason };
  const request = positioned(stored, base, position);
  if (typeof request === 'string') return { ok: false, reason: request };
  const after = bodyTextRefusal(stored, [request, base, fresh], position) ?? countedRefusal(checkpoint, request, base, position)
    ?? (strategy.pageNumber ? firstPageRefusal(checkpoint, strategy.pageNumber(unanswered(base))) : undefined);
  return after ? { ok: false, reason: after } : { ok: true, request };
}

/**
 * The body's text too: a walk writes only the request's text or its own edit of it (withBodyFields), one
 * of `written` (the request positioned, as prepared, as given); a next link's body was compared whole.
 */
function bodyTextRefusal(stored: HttpRequest, written: readonly HttpRequest[], position: RequestPosition): string | undefined {
  const body = stored.body ?? '';
  if (position.url || written.some((r) => (r.body ?? '') === body)) return undefined;
  return `has another body text than the request's (equal only once read as JSON: a field given twice, or a number written otherwise; only ${(position.body ?? []).join(', ') || 'no field'} may differ)`;
}

/** `request` as a page not yet answered: what a style reads from it alone (the page number it asks for). */
function unanswered(request: HttpRequest): Page {
  const response = { status: 0, statusText: '', headers: {}, bodyText: '', timing: { startedAt: 0, firstByteMs: 0, totalMs: 0 }, sizeBytes: 0 };
  return { request, response, body: { ok: false, error: 'not sent' }, receivedAt: 0 };
}

/** Where the position follows from the counts (RequestPosition.counted), a checkpoint asking for another value than they give. */
function countedRefusal(checkpoint: WalkCheckpoint, request: HttpRequest, base: HttpRequest, position: RequestPosition): string | undefined {
  const counted = position.counted;
  if (!counted) return undefined;
  const { field, by, start } = counted;
  const read = (r: HttpRequest): number | undefined => asNumber(position.query?.includes(field) ? queryParam(r, field) : jsonBody(r)?.[field]);
  const from = read(base) ?? start;
  const count = by === 'rows' ? checkpoint.rows : checkpoint.pages;
  const asked = read(request) ?? start;
  if (asked === from + count) return undefined;
  return `asks for ${field} ${asked}, but a walk from ${field} ${from} that kept ${count} ${by === 'rows' ? 'row(s)' : 'page(s)'} asks for ${from + count} next (rows would be skipped or repeated)`;
}

/**
 * `base` (the request as prepared now) with the position values of `stored` set in it: its URL for a next
 * link, else each position query parameter and body field `stored` holds (a body field's number with its
 * text). Why not, when `stored`'s body has no room for them.
 */
function positioned(stored: HttpRequest, base: HttpRequest, position: RequestPosition): HttpRequest | string {
  if (position.url) {
    // A next link of a GET carries no body (requestEdit.followLink).
    const { body: _none, ...rest } = base;
    return base.method.toUpperCase() === 'GET' ? { ...rest, url: stored.url } : { ...base, url: stored.url };
  }
  let request = base;
  for (const name of position.query ?? []) {
    const value = queryParam(stored, name);
    if (value !== undefined) request = withQueryParam(request, name, value);
  }
  const names = position.body ?? [];
  if (names.length === 0) return request;
  const held = bodyKeepingNumbers(stored.body ?? '{}') ?? {};
  const values = Object.fromEntries(names.filter((name) => held[name] !== undefined && held[name] !== null).map((name) => [name, held[name]]));
  if (Object.keys(values).length === 0) return request;
  return withBodyFields(request, values) ?? 'has body fields the request has no room for (its body is not a JSON object)';
}

/** Counts a checkpoint holds must be whole numbers from 0, or it was not written by a walk. */
function countsRefusal(checkpoint: WalkCheckpoint): string | undefined {
  const counts: [string, unknown][] = [['pages', checkpoint.pages], ['rows', checkpoint.rows], ['bytes', checkpoint.bytes]];
  if (checkpoint.sink) counts.push(['file length', checkpoint.sink.bytes]);
  for (const [name, value] of counts) {
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) return `has ${name} ${JSON.stringify(value)}, which is not a count (a whole number from 0)`;
  }
  return undefined;
}

function planRefusal(stored: PagingPlan, plan: PagingPlan | undefined): string | undefined {
  if (!plan) return undefined;
  const words = (p: PagingPlan): string => [p.style, ...Object.entries(p.options).sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => `${k}=${v}`)].join(' ');
  return words(stored) === words(plan) ? undefined : `pages with '${words(stored)}', but the request pages with '${words(plan)}'`;
}

/** Which part of `stored` (the checkpoint's next request) is not `base`'s (the request now, without secrets) outside `position`. */
function requestRefusal(stored: HttpRequest, base: HttpRequest, position: RequestPosition, origin: string | undefined): string | undefined {
  const server = serverRefusal(stored, base, position, origin);
  if (server) return server;
  if (!position.url) {
    const a = urlWithout(stored.url, position.query ?? []);
    const b = urlWithout(base.url, position.query ?? []);
    if (a.pathname !== b.pathname) return `asks for path ${a.pathname}, but the request's is ${b.pathname}`;
    if (a.search !== b.search) return `has the query '${a.search}', but the request's is '${b.search}' (only ${(position.query ?? []).join(', ') || 'no parameter'} may differ)`;
  }
  const headers = headerRefusal(stored.headers, base.headers);
  if (headers) return headers;
  // A next link of a GET carries no body (requestEdit.followLink).
  if (position.url && base.method.toUpperCase() === 'GET') return stored.body ? 'has a body, but a next link of a GET request carries none' : undefined;
  return bodyRefusal(stored.body, base.body, position.body ?? []);
}

/** The method and the server (origin) are the request's. */
function serverRefusal(stored: HttpRequest, base: HttpRequest, position: RequestPosition, origin: string | undefined): string | undefined {
  if (typeof stored.method !== 'string' || stored.method.toUpperCase() !== base.method.toUpperCase()) return `sends ${String(stored.method)}, but the request is ${base.method}`;
  const server = originOf(base.url);
  // A next link may lead to another origin (the walker's resume hop then applies the cross-origin rule);
  // any other position stays on the request's server, and the walk began there.
  if ((originOf(stored.url) !== server && !position.url) || (origin !== undefined && origin !== server)) return `goes to ${originOf(stored.url)}, but the request goes to ${server}`;
  return undefined;
}

function urlWithout(text: string, names: readonly string[]): URL {
  const url = new URL(text);
  for (const name of names) url.searchParams.delete(name);
  url.searchParams.sort();
  return url;
}

function headerRefusal(stored: Readonly<Record<string, string>>, base: Readonly<Record<string, string>>): string | undefined {
  const lower = (headers: Readonly<Record<string, string>>): Map<string, string> => new Map(Object.entries(headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
  const a = lower(stored);
  const b = lower(base);
  for (const [name, value] of a) {
    if (!b.has(name)) return `has a header ${name} the request does not have`;
    if (b.get(name) !== value) return `has another value of the header ${name} than the request`;
  }
  for (const name of b.keys()) if (!a.has(name)) return `lacks the request's header ${name}`;
  return undefined;
}

function bodyRefusal(stored: string | undefined, base: string | undefined, position: readonly string[]): string | undefined {
  const a = stored ?? '';
  const b = base ?? '';
  if (position.length === 0) return a === b ? undefined : 'has another body than the request';
  const x = jsonBody({ method: 'POST', url: 'http://x/', headers: {}, body: a });
  const y = jsonBody({ method: 'POST', url: 'http://x/', headers: {}, body: b }) ?? (b.trim() === '' ? {} : undefined);
  if (!x || !y) return a === b ? undefined : 'has another body than the request';
  for (const name of position) {
    const value = x[name];
    if (value !== undefined && value !== null && typeof value !== 'string' && typeof value !== 'number') return `holds ${name} ${JSON.stringify(value)}, which is not a place in the walk (text or a number)`;
  }
  const keys = new Set([...Object.keys(x), ...Object.keys(y)].filter((k) => !position.includes(k)));
  for (const key of keys) {
    if (JSON.stringify(x[key]) !== JSON.stringify(y[key])) return `has another body field ${key} than the request (only ${position.join(', ')} may differ)`;
  }
  return undefined;
}

/**
 * For a style that numbers its pages (its walks record firstPage once a page is kept), a firstPage other
 * than `first` (the number of the page the request asks for, as the style reads it; undefined: not known):
 * the walk's totals are judged from it (walkRate.missingByTotals), so one moved, or taken away, would hide
 * pages never asked for.
 */
function firstPageRefusal(checkpoint: WalkCheckpoint, first: number | undefined): string | undefined {
  const said = checkpoint.firstPage;
  if (said === first || (checkpoint.pages === 0 && said === undefined)) return undefined;
  if (said === undefined) return `has no firstPage, which a walk of this style writes with its first page kept (the request starts at page ${first})`;
  return `says the walk's first page was ${JSON.stringify(said)}, but the request starts at ${first === undefined ? 'no numbered page' : `page ${first}`}`;
}
