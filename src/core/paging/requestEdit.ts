// Small pure edits of a request: one query parameter, one JSON body field. Names are case-sensitive
// (the contract: Offset, OFFSET and pageNumber are different names), so nothing here folds case. A body
// edit changes only the fields it is given: every other number keeps the text the request wrote it in
// (12345678901234567890 is sent as such, never as the double JSON.parse makes of it: numberText.ts).
import type { HttpRequest } from '../http/types';
import { isJsonObject, jsonText, parseKeepingNumbers } from '../json/numberText';
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
    return isJsonObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Sets top-level body fields, keeping the others, their order and their numbers' text (a NumberText
 * given as a field's value is written as its text too). An absent body becomes `{}`.
 */
export function withBodyFields(request: HttpRequest, fields: Readonly<Record<string, unknown>>): HttpRequest | undefined {
  const body = request.body === undefined || request.body.trim() === '' ? {} : bodyKeepingNumbers(request.body);
  if (!body) return undefined;
  return { ...request, body: jsonText({ ...body, ...fields }) };
}

/** A body text as a JSON object whose numbers keep their text (parseKeepingNumbers), or undefined. */
export function bodyKeepingNumbers(text: string): Record<string, unknown> | undefined {
  try {
    const value = parseKeepingNumbers(text);
    // A body that is a number kept as its text (a NumberText) is no object, as the number 123 is not.
    return isJsonObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
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
