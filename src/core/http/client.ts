// The one HTTP client of the product (panel, CLI, paging engine, sign-in), on undici.
// Deliberate choices: no automatic retries (a retried password grant can lock an account; a retried
// export page can hit a dropped table); ONE deadline per response that covers the headers and the whole
// body (a server trickling a byte every few seconds is cut off); redirects followed up to a small bound,
// listed on the response, never carrying credentials to another origin and never from https to http;
// TLS verification on unless the caller explicitly turns it off; a body size limit so a huge body
// cannot exhaust memory.
import { EventEmitter } from 'node:events';
import type { Dispatcher } from 'undici';
import { Agent, request as undiciRequest } from './undiciCore';
import { bodyReader } from './bodyRead';
import { withoutByteOrderMark } from './byteOrderMark';
import { decodableCodings, isDecodingError, type DecodedBody } from './contentEncoding';
import { deadlineFault, malformedRequestFault, redirectFault, toHttpFault } from './faults';
import type { SecretBindings } from '../secrets/bindings';
import { hopTo } from '../secrets/crossOrigin';
import { HttpFault, type HttpRequest, type HttpResponse, type Redirect } from './types';
import { faultText } from '../text/faultText';

export interface SendOptions {
  /** Time allowed for the whole response, headers and body (ms). Default 30 000. */
  readonly timeoutMs?: number;
  readonly signal?: AbortSignal;
  /** Reading stops with an HttpFault 'too-large' past this many body bytes. Default 256 MiB. */
  readonly maxBodyBytes?: number;
  /** TLS certificate verification; only `false` turns it off. */
  readonly rejectUnauthorized?: boolean;
  /** Follow up to this many redirects (default 5); 0 returns a 3xx as it is. */
  readonly maxRedirects?: number;
  /** For tests and special transports; replaces the shared keep-alive agent. */
  readonly dispatcher?: Dispatcher;
  /**
   * The secrets held and where each may go: every request and every redirect hop is checked against it
   * before it leaves (refused with both origins named), and a hop to another origin drops what carries one.
   */
  readonly guard?: SecretBindings;
}

export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_MAX_BODY_BYTES = 256 * 1024 * 1024;
export const DEFAULT_MAX_REDIRECTS = 5;

/** A response whose body has not been read yet: iterate `body` once, or call `discard()`. */
export interface StreamingResponse {
  readonly status: number;
  readonly statusText: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly startedAt: number;
  readonly firstByteMs: number;
  /** The redirects followed, in order (empty when none). */
  readonly redirects: readonly Redirect[];
  /**
   * Reads the body once, handing each chunk to `each` as it arrives; a promise `each` returns is
   * awaited (the stream paused) before the next chunk. Resolves at the body's end; rejects with an
   * HttpFault ('dropped', 'timeout', 'too-large', 'aborted', 'undecodable'), or with what `each`
   * threw (the body is then abandoned).
   */
  read(each: (chunk: Buffer) => void | Promise<void>): Promise<void>;
  discard(): Promise<void>;
}

// One keep-alive agent (it pools connections per origin) for each TLS setting.
const dispatchers = new Map<string, Dispatcher>();

function dispatcherFor(options: SendOptions): Dispatcher {
  if (options.dispatcher) return options.dispatcher;
  const verify = options.rejectUnauthorized !== false;
  const key = String(verify);
  let dispatcher = dispatchers.get(key);
  if (!dispatcher) {
    dispatcher = new Agent({ keepAliveTimeout: 10_000, connect: { rejectUnauthorized: verify, timeout: 10_000 } });
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

/** A header name with no letter toLowerCase would change (undici hands most names over lower-cased). */
const LOWER_ASCII_NAME = /^[\x21-\x40\x5b-\x7e]*$/;

function flattenHeaders(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  const headers: Record<string, string> = {};
  // Names by index, not entries (no pair for each header of each response); lower-cased only where needed.
  const names = Object.keys(raw);
  for (let i = 0; i < names.length; i++) {
    const name = names[i]!;
    const value = raw[name];
    if (value === undefined) continue;
    const key = LOWER_ASCII_NAME.test(name) ? name : name.toLowerCase();
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

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/** What undici reads of a signal given as an EventEmitter: `aborted`, then `reason` when 'abort' is emitted. */
interface EmitterSignal {
  readonly signal: EventEmitter & { aborted?: boolean; reason?: unknown };
  abort(reason: unknown): void;
}

function abortSignal(): EmitterSignal {
  const signal: EmitterSignal['signal'] = new EventEmitter();
  return {
    signal,
    abort(reason) {
      if (signal.aborted) return;
      signal.aborted = true;
      signal.reason = reason;
      signal.emit('abort');
    },
  };
}

/** The one deadline of a response and the caller's signal, aborting the request through one signal. */
interface Deadline {
  readonly controller: EmitterSignal;
  /** True once the deadline (not the caller) aborted the request. */
  readonly expired: boolean;
  readonly timeoutMs: number;
  /** Ends the deadline and stops listening to the caller's signal. */
  readonly settle: () => void;
}

/**
 * The deadline and the caller's signal abort the request through one signal; `expired` tells them apart.
 * The signal is an EventEmitter, which undici takes as it takes an AbortSignal (its `reason` read on
 * 'abort'): an AbortController costs ten times more, on every request of a long run.
 */
function responseDeadline(timeoutMs: number, callerSignal: AbortSignal | undefined): Deadline {
  const controller = abortSignal();
  const deadline = {
    controller, expired: false, timeoutMs,
    settle(): void {
      clearTimeout(timer);
      callerSignal?.removeEventListener('abort', onAbort);
    },
  };
  const timer = setTimeout(() => {
    deadline.expired = true;
    controller.abort(new Error('deadline'));
  }, timeoutMs);
  timer.unref?.();
  const onAbort = (): void => controller.abort(callerSignal?.reason);
  callerSignal?.addEventListener('abort', onAbort, { once: true });
  return deadline;
}

interface Arrived {
  readonly response: Dispatcher.ResponseData;
  readonly headers: Record<string, string>;
  /** The request that was answered (the last hop). */
  readonly current: HttpRequest;
  readonly redirects: Redirect[];
}

/** Sends `req` and follows its redirects (up to the bound, each through the one cross-origin rule) to a response. */
async function sendFollowing(req: HttpRequest, options: SendOptions, deadline: Deadline): Promise<Arrived> {
  const maxRedirects = Math.max(0, options.maxRedirects ?? DEFAULT_MAX_REDIRECTS);
  const redirects: Redirect[] = [];
  let current = req;
  for (;;) {
    const target = { method: current.method.toUpperCase(), url: current.url };
    const response = await sendOnce(current, target, options, deadline);
    const headers = flattenHeaders(response.headers);
    const location = headers['location'];
    if (!REDIRECT_STATUSES.has(response.statusCode) || location === undefined || maxRedirects === 0) return { response, headers, current, redirects };
    await response.body.dump().catch(() => undefined);
    const next = redirectTarget(current, response.statusCode, location, options.guard);
    if (typeof next === 'string') {
      deadline.settle();
      throw redirectFault(target, next);
    }
    if (redirects.length >= maxRedirects) {
      deadline.settle();
      throw redirectFault(target, `more than ${maxRedirects} redirects (the last one to ${next.request.url}); not followed further`);
    }
    redirects.push({ status: response.statusCode, from: current.url, to: next.request.url, crossOrigin: next.crossOrigin, dropped: next.dropped });
    current = next.request;
  }
}

/** One hop: through the send boundary, then to undici; its faults in the client's words. */
async function sendOnce(current: HttpRequest, target: { method: string; url: string }, options: SendOptions, deadline: Deadline): Promise<Dispatcher.ResponseData> {
  // THE send boundary: nothing leaves carrying a secret bound to another origin (src/core/secrets/bindings.ts).
  const refusal = options.guard?.refusal(current);
  if (refusal !== undefined) {
    deadline.settle();
    throw new HttpFault('refused', `${target.method} ${target.url}: ${refusal}`, target);
  }
  try {
    if (options.signal?.aborted) throw options.signal.reason ?? new Error('aborted');
    return await undiciRequest(current.url, {
      method: target.method,
      // A copy: a dispatcher may add to the object it is handed (undici's proxy adds `host`), and the
      // request is ours, the next hop's redirect is made from it.
      headers: { ...current.headers },
      body: current.body,
      signal: deadline.controller.signal,
      headersTimeout: deadline.timeoutMs,
      bodyTimeout: deadline.timeoutMs,
      dispatcher: dispatcherFor(options),
    });
  } catch (error) {
    deadline.settle();
    if (deadline.expired) throw deadlineFault(target, deadline.timeoutMs, 'before-response');
    throw toHttpFault(error, target, 'before-response', options.signal?.aborted === true);
  }
}

/**
 * Sends a request and returns as soon as the headers arrive; the body is read by the caller. The one
 * deadline (timeoutMs) runs from the first byte sent to the last byte of the body, across redirects.
 */
export async function sendRequestStreaming(req: HttpRequest, options: SendOptions = {}): Promise<StreamingResponse> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  // A request that cannot be written as asked is an input fault, said before anything is sent.
  const malformed = malformedRequestFault(req);
  if (malformed) throw malformed;
  const startedAt = Date.now();
  const clock = performance.now();
  const deadline = responseDeadline(timeoutMs, options.signal);
  const { settle } = deadline;
  const { response, headers, current, redirects } = await sendFollowing(req, options, deadline);
  const target = { method: current.method.toUpperCase(), url: current.url };
  const firstByteMs = performance.now() - clock;
  const declared = Number(headers['content-length']);
  const stream = response.body;
  // A compressed body is read decoded; the limit below counts decoded bytes (contentEncoding.ts).
  const codings = decodableCodings(headers['content-encoding']);

  /** What the body's stream failed with, as the fault the caller sees. */
  const bodyFault = (error: unknown, decoded: DecodedBody | undefined): HttpFault | undefined => {
    if (deadline.expired) return deadlineFault(target, timeoutMs, 'body');
    if (decoded && codings && !options.signal?.aborted && isDecodingError(error)) {
      // No body at all under a coding header: nothing to decode, an empty body.
      if (decoded.codedBytes() === 0) return undefined;
      return new HttpFault('undecodable', `${target.method} ${target.url}: the response body is compressed (Content-Encoding: ${codings.join(', ')}) but does not decode (${faultText(error)}).`, target);
    }
    return toHttpFault(error, target, 'body', options.signal?.aborted === true);
  };

  // One leading byte order mark is no part of the body (byteOrderMark.ts).
  const read = withoutByteOrderMark(bodyReader({ stream, target, declared, maxBodyBytes, codings, settle, fault: bodyFault }));

  return {
    status: response.statusCode,
    statusText: STATUS_TEXT[response.statusCode] ?? '',
    headers,
    startedAt,
    firstByteMs,
    redirects,
    read,
    async discard() {
      settle();
      await stream.dump().catch(() => undefined);
    },
  };
}

/**
 * Where a redirect goes, as the request to send, or why it is not followed. 303, and 301/302 after a POST,
 * become a GET without a body, as browsers and curl do; then the one cross-origin rule decides
 * (src/core/secrets/crossOrigin.ts: another origin gets no credential and no body, https → http is refused).
 */
export function redirectTarget(from: HttpRequest, status: number, location: string, guard?: SecretBindings): { request: HttpRequest; crossOrigin: boolean; dropped: readonly string[] } | string {
  let url: URL;
  try {
    url = new URL(location, from.url);
  } catch {
    return `the server redirected (${status}) to '${location}', which is not a URL`;
  }
  const method = status === 303 || ((status === 301 || status === 302) && from.method.toUpperCase() === 'POST') ? 'GET' : from.method;
  const dropBody = method !== from.method;
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(from.headers)) {
    const lower = name.toLowerCase();
    if (dropBody && (lower === 'content-type' || lower === 'content-length')) continue;
    headers[name] = value;
  }
  const body = dropBody ? undefined : from.body;
  const hop = hopTo(from, { method, url: url.toString(), headers, ...(body === undefined ? {} : { body }) }, 'redirect', guard);
  if (!hop.ok) return `the server redirected (${status}): ${hop.reason}`;
  return { request: hop.request, crossOrigin: hop.crossOrigin, dropped: hop.dropped };
}

/** Reads a whole body into one Buffer, with the streaming variant's limits and fault mapping. */
export async function readBody(response: StreamingResponse): Promise<Buffer> {
  const parts: Buffer[] = [];
  await response.read((chunk) => { parts.push(chunk); });
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
    ...(streaming.redirects.length > 0 ? { redirects: streaming.redirects } : {}),
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
