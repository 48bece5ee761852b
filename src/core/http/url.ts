// The parts of a URL string, parsed once per distinct string. A run asks the same few URLs' parts for
// every request (the catalog's path, the walk's origin, undici's origin and path, the checkpoint's URL),
// and a WHATWG URL object is built, read through getters and dropped each time: the answers are
// remembered instead (the same string always parses to the same parts).
import { remembered } from '../text/remembered';

/** What a URL string parses to (as `new URL(url)` reads it); never mutated. */
export interface UrlParts {
  readonly href: string;
  readonly protocol: string;
  readonly origin: string;
  readonly username: string;
  readonly password: string;
  readonly pathname: string;
  readonly search: string;
}

const parsed = new Map<string, UrlParts | null>();
const PARSED_LIMIT = 1_000;

function parse(url: string): UrlParts | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return null;
  }
  return Object.freeze({ href: u.href, protocol: u.protocol, origin: u.origin, username: u.username, password: u.password, pathname: u.pathname, search: u.search });
}

/** The parts of an absolute URL; undefined when `new URL(url)` would throw. */
export function urlParts(url: string): UrlParts | undefined {
  return remembered(parsed, url, PARSED_LIMIT, parse) ?? undefined;
}

/** The path (and query) of a URL, or the text itself when it is not an absolute URL. */
export function pathOf(url: string): string {
  const parts = urlParts(url);
  return parts ? parts.pathname + parts.search : url;
}

/** A URL's origin (`https://host:port`); the text itself when it is not a URL. */
export function originOf(url: string): string {
  return urlParts(url)?.origin ?? url;
}

const queries = new Map<string, readonly (readonly [string, string])[] | null>();

function pairsOf(url: string): readonly (readonly [string, string])[] | null {
  const parts = urlParts(url);
  return parts ? Object.freeze([...new URLSearchParams(parts.search)].map((pair) => Object.freeze(pair))) : null;
}

/** The query parameters of an absolute URL, decoded, in order (as its `searchParams` lists them); undefined when it is not a URL. */
export function queryPairs(url: string): readonly (readonly [string, string])[] | undefined {
  return remembered(queries, url, PARSED_LIMIT, pairsOf) ?? undefined;
}

const withParams = new Map<string, string>();

/**
 * The memo's key of (url, name, value): name and value each preceded by its length, then the URL, so no
 * two triples share a key whatever characters they hold (a separator could also appear in a value).
 */
function withParamKey(url: string, name: string, value: string): string {
  return `${name.length}:${name}${value.length}:${value}${url}`;
}

function withParamOf(key: string): string {
  const nameAt = key.indexOf(':') + 1;
  const nameEnd = nameAt + Number(key.slice(0, nameAt - 1));
  const valueColon = key.indexOf(':', nameEnd);
  const valueEnd = valueColon + 1 + Number(key.slice(nameEnd, valueColon));
  const u = new URL(key.slice(valueEnd));
  u.searchParams.set(key.slice(nameAt, nameEnd), key.slice(valueColon + 1, valueEnd));
  return u.toString();
}

/** The URL with the query parameter `name` set to `value` (as `searchParams.set` does: the first kept, the others removed); throws when it is not a URL. */
export function withQueryValue(url: string, name: string, value: string): string {
  return remembered(withParams, withParamKey(url, name, value), PARSED_LIMIT, withParamOf);
}
