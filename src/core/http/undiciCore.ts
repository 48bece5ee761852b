// undici's Agent and request(), without loading the rest of the package. undici's index.js also loads
// fetch, WebSocket, EventSource, the cache stores, mocks and proxies (and node's web streams behind
// them) at once: about twice the code and start-up time of what the one client uses. These are the
// modules index.js takes `Agent` and `request` from, and `request` is index.js's own glue: undici's
// parseURL, then lib/api's request called on the dispatcher with the URL's origin and path
// (test/unit/undiciCore.test.ts sends the same requests through both).
import type { Agent as AgentType, Dispatcher } from 'undici';
import AgentImpl from 'undici/lib/dispatcher/agent.js';
import apiRequest from 'undici/lib/api/api-request.js';
import { isHttpOrHttpsPrefixed, parseURL } from 'undici/lib/core/util.js';
import { urlParts } from './url';

export const Agent: typeof AgentType = AgentImpl;

export type RequestOptions = Omit<Dispatcher.RequestOptions, 'origin' | 'path'> & { readonly dispatcher: Dispatcher };

/** undici's `request(url, options)` for a string URL and a given dispatcher. */
export function request(url: string, options: RequestOptions): Promise<Dispatcher.ResponseData> {
  // parseURL of a string is new URL(url) and a check of its protocol: the parts remembered for an http(s)
  // URL are what it returns; any other URL goes through it (and its error) as it is.
  const parts = urlParts(url);
  const parsed = parts && isHttpOrHttpsPrefixed(parts.origin || parts.protocol) ? parts : parseURL(url);
  // The options as they are, the dispatcher among them (undici's own glue passes it on too): one copy a request.
  return apiRequest.call(options.dispatcher, {
    ...options,
    origin: parsed.origin,
    path: parsed.search ? `${parsed.pathname}${parsed.search}` : parsed.pathname,
    method: options.method || (options.body ? 'PUT' : 'GET'),
  });
}
