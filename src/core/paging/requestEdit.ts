// Small pure edits of a request: one query parameter, one JSON body field. Names are case-sensitive
// (the contract: Offset, OFFSET and pageNumber are different names), so nothing here folds case.
import type { HttpRequest } from '../http/types';
import { queryPairs, withQueryValue } from '../http/url';

export function queryParam(request: HttpRequest, name: string): string | undefined {
  // The URL's parameters are read once per URL (src/core/http/url.ts); a string that is no URL throws, as new URL throws.
  const pairs = queryPairs(request.url);
  if (!pairs) return new URL(request.url).searchParams.get(name) ?? undefined;
  for (const [key, value] of pairs) if (key === name) return value;
  return undefined;
}

export function withQueryParam(request: HttpRequest, name: string, value: string | number): HttpRequest {
  return { ...request, url: withQueryValue(request.url, name, String(value)) };
}

/** The request body as a JSON object, or undefined when it is absent or not an object. */
export function jsonBody(request: HttpRequest): Record<string, unknown> | undefined {
  if (request.body === undefined || request.body.trim() === '') return undefined;
  try {
    const value: unknown = JSON.parse(request.body);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** Sets top-level body fields, keeping the others and their order. An absent body becomes `{}`. */
export function withBodyFields(request: HttpRequest, fields: Readonly<Record<string, unknown>>): HttpRequest | undefined {
  const body = request.body === undefined || request.body.trim() === '' ? {} : jsonBody(request);
  if (!body) return undefined;
  return { ...request, body: JSON.stringify({ ...body, ...fields }) };
}

/** Follows a next link: resolved against the current URL, same method and headers, no body. */
export function followLink(request: HttpRequest, link: string): HttpRequest {
  const url = new URL(link, request.url).toString();
  const { body: _dropped, ...rest } = request;
  return request.method.toUpperCase() === 'GET' ? { ...rest, url } : { ...request, url };
}

export function asNumber(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  return undefined;
}
