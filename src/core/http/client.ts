// The one HTTP client of the product (panel, CLI, paging engine, sign-in), on undici.
// Deliberate choices: no automatic retries (a retried password grant can lock an account; a retried
// export page can hit a dropped table), no redirects unless asked, TLS verification on unless the
// caller explicitly turns it off, and a body size limit so a huge body cannot exhaust memory.
import { Agent, interceptors, request as undiciRequest, type Dispatcher } from 'undici';
import { toHttpFault, tooLargeFault } from './faults';
import type { HttpRequest, HttpResponse } from './types';

export interface SendOptions {
  /** Time allowed for the response headers to arrive (ms). Default 30 000. */
  readonly timeoutMs?: number;
  /** Longest silence allowed between two chunks of the body (ms). Default: timeoutMs. */
  readonly bodyTimeoutMs?: number;
  readonly signal?: AbortSignal;
  /** Reading stops with an HttpFault 'too-large' past this many body bytes. Default 256 MiB. */
  readonly maxBodyBytes?: number;
  /** TLS certificate verification; only `false` turns it off. */
  readonly rejectUnauthorized?: boolean;
  /** Follow up to this many redirects. Default 0: a 3xx is returned as it is. */
  readonly maxRedirects?: number;
  /** For tests and special transports; replaces the shared keep-alive agent. */
  readonly dispatcher?: Dispatcher;
}

export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_MAX_BODY_BYTES = 256 * 1024 * 1024;

/** A response whose body has not been read yet: iterate `body` once, or call `discard()`. */
export interface StreamingResponse {
  readonly status: number;
  readonly statusText: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly startedAt: number;
  readonly firstByteMs: number;
  /** Chunks of the body; throws HttpFault ('dropped', 'timeout', 'too-large', 'aborted'). */
  readonly body: AsyncIterable<Buffer>;
  discard(): Promise<void>;
}

// One keep-alive agent (it pools connections per origin) for each TLS/redirect combination.
const dispatchers = new Map<string, Dispatcher>();

function dispatcherFor(options: SendOptions): Dispatcher {
  if (options.dispatcher) return options.dispatcher;
  const verify = options.rejectUnauthorized !== false;
  const redirects = Math.max(0, options.maxRedirects ?? 0);
  const key = `${verify}|${redirects}`;
  let dispatcher = dispatchers.get(key);
  if (!dispatcher) {
    const agent = new Agent({ keepAliveTimeout: 10_000, connect: { rejectUnauthorized: verify, timeout: 10_000 } });
    dispatcher = redirects > 0 ? agent.compose(interceptors.redirect({ maxRedirections: redirects })) : agent;
    dispatchers.set(key, dispatcher);
  }
  return dispatcher;
}

/** Closes the shared agents (tests and CLI exit); later requests open new ones. */
export async function closeHttpAgents(): Promise<void> {
  const all = [...dispatchers.values()];
  dispatchers.clear();
  await Promise.all(all.map((d) => d.close().catch(() => undefined)));
}

function flattenHeaders(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    const key = name.toLowerCase();
    if (Array.isArray(value)) headers[key] = key === 'set-cookie' ? (value[value.length - 1] ?? '') : value.join(', ');
    else headers[key] = value;
  }
  return headers;
}

const STATUS_TEXT: Readonly<Record<number, string>> = {
  200: 'OK', 201: 'Created', 202: 'Accepted', 204: 'No Content', 301: 'Moved Permanently', 302: 'Found',
  304: 'Not Modified', 307: 'Temporary Redirect', 308: 'Permanent Redirect', 400: 'Bad Request',
  401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 405: 'Method Not Allowed', 409: 'Conflict',
  413: 'Payload Too Large', 415: 'Unsupported Media Type', 422: 'Unprocessable Entity', 429: 'Too Many Requests',
  500: 'Internal Server Error', 502: 'Bad Gateway', 503: 'Service Unavailable', 504: 'Gateway Timeout',
};

/** Sends a request and returns as soon as the headers arrive; the body is read by the caller. */
export async function sendRequestStreaming(req: HttpRequest, options: SendOptions = {}): Promise<StreamingResponse> {
  const target = { method: req.method.toUpperCase(), url: req.url };
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const startedAt = Date.now();
  const clock = performance.now();
  let response: Dispatcher.ResponseData;
  try {
    if (options.signal?.aborted) throw options.signal.reason ?? new Error('aborted');
    response = await undiciRequest(req.url, {
      method: target.method as Dispatcher.HttpMethod,
      headers: { ...req.headers },
      body: req.body,
      signal: options.signal,
      headersTimeout: timeoutMs,
      bodyTimeout: options.bodyTimeoutMs ?? timeoutMs,
      dispatcher: dispatcherFor(options),
    });
  } catch (error) {
    throw toHttpFault(error, target, 'before-response', options.signal?.aborted === true);
  }
  const firstByteMs = performance.now() - clock;
  const headers = flattenHeaders(response.headers);
  const declared = Number(headers['content-length']);
  const stream = response.body;

  async function* chunks(): AsyncGenerator<Buffer> {
    let seen = 0;
    if (Number.isFinite(declared) && declared > maxBodyBytes) {
      stream.destroy();
      throw tooLargeFault(target, maxBodyBytes, declared);
    }
    try {
      for await (const chunk of stream as AsyncIterable<Buffer>) {
        seen += chunk.length;
        if (seen > maxBodyBytes) {
          stream.destroy();
          throw tooLargeFault(target, maxBodyBytes, seen);
        }
        yield chunk;
      }
    } catch (error) {
      throw toHttpFault(error, target, 'body', options.signal?.aborted === true);
    }
  }

  return {
    status: response.statusCode,
    statusText: STATUS_TEXT[response.statusCode] ?? '',
    headers,
    startedAt,
    firstByteMs,
    body: chunks(),
    async discard() {
      await stream.dump().catch(() => undefined);
    },
  };
}

/** Reads a whole body into one Buffer, with the streaming variant's limits and fault mapping. */
export async function readBody(response: StreamingResponse): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of response.body) parts.push(chunk);
  return parts.length === 1 ? parts[0]! : Buffer.concat(parts);
}

/** Sends a request and reads its whole body. Rejects only with HttpFault; any HTTP status resolves. */
export async function sendRequest(req: HttpRequest, options: SendOptions = {}): Promise<HttpResponse> {
  const clock = performance.now();
  const streaming = await sendRequestStreaming(req, options);
  const body = await readBody(streaming);
  return {
    status: streaming.status,
    statusText: streaming.statusText,
    headers: streaming.headers,
    bodyText: body.toString('utf8'),
    timing: { startedAt: streaming.startedAt, firstByteMs: streaming.firstByteMs, totalMs: performance.now() - clock },
    sizeBytes: body.length,
  };
}

/**
 * The HTTP port every sender takes (the exchange, the walker, sign-in): whole responses and streamed
 * ones from one object, so a test or another transport replaces both at once.
 */
export interface HttpPort {
  send(request: HttpRequest, options?: SendOptions): Promise<HttpResponse>;
  stream(request: HttpRequest, options?: SendOptions): Promise<StreamingResponse>;
}

/** The product's HTTP port: undici, with the limits above. */
export const httpClient: HttpPort = { send: sendRequest, stream: sendRequestStreaming };
