// A request's URL as written: the request line's URL and its query continuation lines (`?a=1`, `&b=2`
// below it), joined without spaces. What resolving sends (before variables), what the outline shows and
// what History recognises a request by (with its method: writtenRequestLine).
import type { HttpRequestNode } from './model';

export function writtenUrl(request: HttpRequestNode): string {
  const continued = request.queryContinuations;
  return continued.length === 0 ? request.requestLine.url : request.requestLine.url + continued.map((q) => q.text).join('');
}

/** The method and the URL as written (`GET {{base}}/items?page=1`): the outline's words for a request. */
export function writtenRequestLine(request: HttpRequestNode): string {
  return `${request.requestLine.method} ${writtenUrl(request)}`;
}
