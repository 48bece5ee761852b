// A walk's checkpoint: enough to continue after a fault, a stop or a restart, as plain JSON. It holds
// the next request WITHOUT its secrets: no credential headers (Authorization, X-API-Key, Cookie, …: the
// secret vocabulary's), no header of any name whose value carries a secret held (SecretBindings), no URL
// userinfo, secret query parameters (`?token=`, `?api_key=`, or any carrying a secret held) kept by
// name with an empty value, and no other part that carries a secret held either: a URL path segment, a
// JSON body's string (its field kept, empty), any other body (empty). The caller passes the request
// again, prepared afresh, and the walker puts every such part back from it (resumeHop): a part blanked
// here is taken from the fresh request where that request's part, blanked the same way, is the same; so
// the checkpoint decides only the position, as resumeCheck.ts holds. Whether the credentials may go where
// the checkpoint's request goes is the one cross-origin rule's (src/core/secrets/crossOrigin.ts, kind 'resume').
import type { SinkCheckpoint } from '../export/sink';
import type { HttpRequest } from '../http/types';
import { isJsonObject } from '../json/numberText';
import { isCredentialHeader, isSecretName, SECRET_NAME_HINT } from '../secrets/vocabulary';
import { queryName, type SecretBindings } from '../secrets/bindings';
import { hopTo, type Hop } from '../secrets/crossOrigin';
import { remembered } from '../text/remembered';
import type { PagingPlan } from './types';


export interface WalkCheckpoint {
  readonly version: 1;
  readonly plan: PagingPlan;
  /** The request to send next; undefined when the walk is complete or cannot continue. */
  readonly next?: HttpRequest;
  /** Totals over the whole walk, every resumed part included. */
  readonly pages: number;
  readonly rows: number;
  readonly bytes: number;
  /** The sink's state after the last page written (file sinks). */
  readonly sink?: SinkCheckpoint;
  readonly done: boolean;
  readonly endReason?: string;
  /** The origin of the walk's first request: credentials are put back only for it. */
  readonly origin?: string;
  /** The facts of the first page (totals, page size) every later page must repeat. */
  readonly facts?: PageFacts;
  /**
   * The number of the walk's first kept page (its first part's, kept across resumes), for styles that
   * number their pages: the totals in facts are the whole list's, and a walk started past page 1 is judged
   * from there (walkRate.missingByTotals). Absent: not known (another style, or an older checkpoint).
   */
  readonly firstPage?: number;
  /** Hashes of the last kept page's request and of its rows (hashes: nothing readable, no secret). */
  readonly lastRequest?: string;
  readonly lastPageHash?: string;
}

export type PageFacts = Readonly<Record<string, string | number>>;

/** The request a checkpoint keeps: without the vocabulary's credential headers (isCredentialHeader), nor any header, query value or userinfo carrying a secret held. */
export function withoutSecrets(request: HttpRequest, guard?: SecretBindings): HttpRequest {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) if (!isCredentialHeader(name) && !carriesHeld(guard, `${name}: ${value}`)) headers[name] = value;
  const url = remembered(bareUrls, request.url, BARE_URLS_LIMIT, urlWithoutSecrets);
  if (!guard || guard.size === 0) return { ...request, url, headers };
  const body = bodyWithoutHeld(request.body, guard);
  return { ...request, url: pathWithoutHeld(withHeldParametersBlank(url, guard), guard), headers, ...(body === undefined ? {} : { body }) };
}

/**
 * A body without the secrets held: in a JSON body every string (or key) that carries one is blanked, its
 * place kept so that the style's position fields stay readable; any other body that carries one is
 * blanked whole (such a body holds no position).
 */
function bodyWithoutHeld(body: string | undefined, guard: SecretBindings): string | undefined {
  if (body === undefined || !carriesHeld(guard, body)) return body;
  const parsed = parsedJson(body);
  if (parsed === undefined) return '';
  const text = JSON.stringify(withStrings(parsed, (text) => (carriesHeld(guard, text) ? '' : text)));
  return carriesHeld(guard, text) ? '' : text;
}

/** The URL with every path segment that carries a secret held blanked (the whole path when the secret spans segments). */
function pathWithoutHeld(text: string, guard: SecretBindings): string {
  const url = new URL(text);
  if (url.hash && carriesHeld(guard, url.hash)) url.hash = '';
  if (!carriesHeld(guard, url.pathname)) return url.toString();
  url.pathname = url.pathname.split('/').map((segment) => (carriesHeld(guard, segment) ? '' : segment)).join('/');
  if (carriesHeld(guard, url.pathname)) url.pathname = '/';
  return url.toString();
}

function parsedJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** `value` with every string in it (keys too) passed through `edit`. */
function withStrings(value: unknown, edit: (text: string) => string): unknown {
  if (typeof value === 'string') return edit(value);
  if (Array.isArray(value)) return value.map((item) => withStrings(item, edit));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [edit(key), withStrings(item, edit)]));
}

/** True when `value` carries a secret the guard holds (in any form it knows). */
function carriesHeld(guard: SecretBindings | undefined, value: string): boolean {
  return guard !== undefined && guard.size > 0 && guard.inText(value).length > 0;
}

/** The URL with the value of every query parameter that carries a secret held blanked (its name kept). */
function withHeldParametersBlank(text: string, guard: SecretBindings): string {
  const url = new URL(text);
  const search = mapQuery(url.search, (_name, raw) => (carriesHeld(guard, raw) ? `${raw.split('=')[0] ?? ''}=` : raw));
  if (search === url.search) return text;
  url.search = search;
  return url.toString();
}

/** URLs without their secrets, remembered: every request of a run passes here, most of them to the same few URLs. */
const bareUrls = new Map<string, string>();
const BARE_URLS_LIMIT = 1_000;

/** A URL without its userinfo and with its secret query parameters blanked; throws when it is not a URL. */
function urlWithoutSecrets(text: string): string {
  const url = new URL(text);
  // Each setter only when it changes something: a URL's setters re-parse it.
  if (url.username) url.username = '';
  if (url.password) url.password = '';
  // Empty rather than a mask: the name keeps its place for the resume to refill, and nothing in the
  // file looks like a credential. An empty query is set all the same: it drops a bare trailing `?`.
  const search = maySecretQuery(url.search) ? blankSecretParameters(url.search) : url.search;
  if (search === '' || search !== url.search) url.search = search;
  return url.toString();
}

/** A URL's `?search` with the value of every secret parameter blanked, every other part byte for byte. */
export function blankSecretParameters(search: string): string {
  return mapQuery(search, (name, raw) => (isSecretName(name) ? `${raw.split('=')[0] ?? ''}=` : raw));
}

/**
 * False only when no parameter name of `search` can be secret, so that blankSecretParameters gives it
 * back as it is: without `%`, a name decodes to its own characters (a `+` to a space, which may join
 * two secret words, `api key`, but is inside no word of SECRET_NAME_HINT); without a character beyond
 * ASCII, isSecretName's toLowerCase folds case as SECRET_NAME_HINT's /i does (U+212A KELVIN SIGN
 * lower-cases to `k`, which /key/i does not see); and SECRET_NAME_HINT matches every name isSecretName
 * accepts: it finds none in the whole text. (A URL's serialised search is all ASCII, but callers are
 * not bound to pass one. Every request of a run passes here twice; most queries have nothing to blank.)
 */
export function maySecretQuery(search: string): boolean {
  return search.includes('%') || /[^\x00-\x7f]/.test(search) || SECRET_NAME_HINT.test(search);
}

/**
 * The request a resume sends: the checkpoint's request with the secrets of `fresh` (the caller's current
 * request) put back — its secret headers (by name, or any carrying a secret the guard holds), its value of
 * each secret query parameter the stored URL kept blank (a parameter the fresh request no longer has is
 * dropped) and its userinfo — then through the one cross-origin rule from `fresh`: another origin gets
 * none of them, and a body or a method other than GET there is refused.
 */
export function resumeHop(stored: HttpRequest, fresh: HttpRequest, guard?: SecretBindings): Hop {
  const isSecret = (name: string, value: string): boolean => isCredentialHeader(name) || carriesHeld(guard, `${name}: ${value}`);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(stored.headers)) if (!isSecret(name, value)) headers[name] = value;
  for (const [name, value] of Object.entries(fresh.headers)) if (isSecret(name, value)) headers[name] = value;
  const body = guard && guard.size > 0 ? withBodySecretsFrom(stored.body, fresh.body, guard) : stored.body;
  return hopTo(fresh, { ...stored, url: withUrlSecretsFrom(stored.url, fresh.url, guard), headers, ...(body === undefined ? {} : { body }) }, 'resume', guard);
}

/** resumeHop's request; a resume the cross-origin rule refuses gets the stored request as it is (no secret in it). */
export function withSecretsFrom(stored: HttpRequest, fresh: HttpRequest, guard?: SecretBindings): HttpRequest {
  const hop = resumeHop(stored, fresh, guard);
  return hop.ok ? hop.request : stored;
}

function withUrlSecretsFrom(storedUrl: string, freshUrl: string, guard: SecretBindings | undefined): string {
  let stored: URL;
  let fresh: URL;
  try {
    stored = new URL(storedUrl);
    fresh = new URL(freshUrl);
  } catch {
    return storedUrl;
  }
  const isSecret = (name: string, raw: string): boolean => isSecretName(name) || carriesHeld(guard, raw);
  // Each secret parameter's raw `name=value` parts in the fresh request, in order, by decoded name.
  const freshParts = new Map<string, string[]>();
  mapQuery(fresh.search, (name, raw) => {
    if (isSecret(name, raw)) freshParts.set(name, [...(freshParts.get(name) ?? []), raw]);
    return raw;
  });
  const used = new Map<string, number>();
  stored.search = mapQuery(stored.search, (name, raw) => {
    // A parameter of another name is refilled only where the checkpoint blanked it (it carried a secret held).
    if (!isSecretName(name) && !(freshParts.has(name) && raw.endsWith('=') && raw.indexOf('=') === raw.length - 1)) return raw;
    const n = used.get(name) ?? 0;
    used.set(name, n + 1);
    return freshParts.get(name)?.[n];
  });
  if (!stored.username && !stored.password) {
    stored.username = fresh.username;
    stored.password = fresh.password;
  }
  // A path blanked by the checkpoint (pathWithoutHeld): the fresh request's, where blanked it is the same.
  if (guard && guard.size > 0 && stored.pathname !== fresh.pathname && stored.pathname === new URL(pathWithoutHeld(fresh.href, guard)).pathname) stored.pathname = fresh.pathname;
  return stored.toString();
}

/**
 * The stored body with what the checkpoint blanked (bodyWithoutHeld) taken from the fresh request's: the
 * fresh body itself where the stored one is it blanked; else, in a JSON body, each part the stored and the
 * fresh body (blanked) share taken from the fresh one, the position fields the stored one holds kept.
 */
function withBodySecretsFrom(stored: string | undefined, fresh: string | undefined, guard: SecretBindings): string | undefined {
  if (stored === undefined || fresh === undefined) return stored;
  const blanked = bodyWithoutHeld(fresh, guard);
  if (blanked === fresh) return stored;
  if (blanked === stored) return fresh;
  const [s, b, f] = [parsedJson(stored), parsedJson(blanked ?? ''), parsedJson(fresh)];
  return s === undefined || b === undefined || f === undefined ? stored : JSON.stringify(mergedFrom(s, b, f));
}

/** `stored` with each part equal to `blanked`'s taken from `fresh` (blanked is fresh as bodyWithoutHeld leaves it). */
function mergedFrom(stored: unknown, blanked: unknown, fresh: unknown): unknown {
  if (JSON.stringify(stored) === JSON.stringify(blanked)) return fresh;
  if (Array.isArray(stored) && Array.isArray(blanked) && Array.isArray(fresh) && stored.length === blanked.length && blanked.length === fresh.length) {
    return stored.map((item, i) => mergedFrom(item, blanked[i], fresh[i]));
  }
  if (!isJsonObject(stored) || !isJsonObject(blanked) || !isJsonObject(fresh)) return stored;
  const freshKeys = Object.keys(fresh);
  const blankedKeys = Object.keys(blanked);
  // Keys pair up by place (a key carrying a secret is blanked too); objects of another shape are kept as stored.
  if (freshKeys.length !== blankedKeys.length) return stored;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(stored)) {
    const at = blankedKeys.indexOf(key);
    if (at < 0) out[key] = item;
    else out[freshKeys[at]!] = mergedFrom(item, blanked[key], fresh[freshKeys[at]!]);
  }
  return out;
}

/**
 * Rewrites a URL's `?search` part by part, leaving every other parameter byte for byte (URLSearchParams
 * would re-encode them all). `edit` gets the decoded name and the raw `name=value`; undefined drops it.
 */
function mapQuery(search: string, edit: (name: string, raw: string) => string | undefined): string {
  if (search.length <= 1) return search;
  const parts = search.slice(1).split('&').flatMap((raw) => {
    if (raw === '') return [raw];
    const out = edit(queryName(raw), raw);
    return out === undefined ? [] : [out];
  });
  return parts.length === 0 ? '' : `?${parts.join('&')}`;
}

const isStringRecord = (value: unknown): boolean =>
  !!value && typeof value === 'object' && Object.values(value).every((v) => typeof v === 'string');

/** Counts are whole numbers from 0: anything else was not written by a walk. */
const isCount = (value: unknown): value is number => typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;

function isSinkState(s: Partial<SinkCheckpoint> | null | undefined): boolean {
  if (!s || (s.format !== 'ndjson' && s.format !== 'csv') || typeof s.path !== 'string' || !isCount(s.bytes)) return false;
  return s.columns === undefined || (Array.isArray(s.columns) && s.columns.every((x) => typeof x === 'string'));
}

function isRequest(n: Partial<HttpRequest>): boolean {
  return typeof n.url === 'string' && typeof n.method === 'string' && isStringRecord(n.headers) && (n.body === undefined || typeof n.body === 'string');
}

/** Validates a checkpoint read back from JSON (a file, a message): throws with a reason when unusable. */
export function parseCheckpoint(value: unknown): WalkCheckpoint {
  const c = value as Partial<WalkCheckpoint> | null;
  if (!c || typeof c !== 'object' || c.version !== 1) throw new Error('not a walk checkpoint (version 1)');
  if (!c.plan || typeof c.plan.style !== 'string' || !isStringRecord(c.plan.options)) throw new Error('the checkpoint has no paging plan');
  for (const key of ['pages', 'rows', 'bytes'] as const) {
    if (!isCount(c[key])) throw new Error(`the checkpoint's ${key} (${JSON.stringify(c[key])}) is not a count (a whole number from 0)`);
  }
  if (typeof c.done !== 'boolean') throw new Error("the checkpoint's done is not true or false");
  if (c.sink !== undefined && !isSinkState(c.sink)) throw new Error("the checkpoint's file state is malformed (format, path, a whole number of bytes)");
  if (c.next && !isRequest(c.next)) throw new Error("the checkpoint's next request is malformed");
  return c as WalkCheckpoint;
}
