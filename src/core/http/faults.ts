// Turns whatever undici or Node throws into an HttpFault whose message a person can act on: it names
// the method and URL and says what happened in words, never an error code alone.
import { HttpFault, type HttpFaultKind } from './types';
import { faultText } from '../text/faultText';

/** Where in the exchange the error happened; the same socket error means different things. */
export type ExchangePhase = 'before-response' | 'body';

const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'EADDRNOTAVAIL']);
const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT', 'ETIMEDOUT']);
const DROP_CODES = new Set([
  'UND_ERR_SOCKET', 'ECONNRESET', 'EPIPE', 'UND_ERR_CLOSED', 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH',
  'ERR_STREAM_PREMATURE_CLOSE', 'UND_ERR_INFO',
]);
const TLS_CODES = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT', 'SELF_SIGNED_CERT_IN_CHAIN', 'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT', 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY', 'CERT_HAS_EXPIRED', 'CERT_NOT_YET_VALID',
  'ERR_TLS_CERT_ALTNAME_INVALID', 'CERT_UNTRUSTED', 'CERT_REJECTED',
]);

/** The fault kinds that are the connection's (lost, reset, timed out, never made), not a verdict on an answer. */
const CONNECTION_FAULT_KINDS: ReadonlySet<string> = new Set<HttpFaultKind>(['connection', 'timeout', 'dropped', 'tls']);

/** Whether a fault (or a walk's failure kind) is the connection's: even after the headers, there is no response to judge. */
export function isConnectionFault(kind: string | undefined): boolean {
  return kind !== undefined && CONNECTION_FAULT_KINDS.has(kind);
}

function errorCodes(error: unknown): string[] {
  const codes: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') codes.push(code);
    current = (current as { cause?: unknown }).cause;
  }
  return codes;
}

function classify(codes: readonly string[], phase: ExchangePhase): HttpFaultKind | undefined {
  for (const code of codes) {
    if (TIMEOUT_CODES.has(code)) return 'timeout';
    if (TLS_CODES.has(code) || code.startsWith('ERR_TLS') || code.startsWith('ERR_SSL') || code.startsWith('CERT_')) return 'tls';
    if (CONNECTION_CODES.has(code)) return 'connection';
    if (DROP_CODES.has(code)) return 'dropped';
  }
  return phase === 'body' ? 'dropped' : undefined;
}

/** The server's certificate chains to an authority not trusted here (a company's own, most often). */
const UNKNOWN_ISSUER_CODES = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT', 'SELF_SIGNED_CERT_IN_CHAIN', 'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT', 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
]);

/** How to trust a company's certificate authority, wherever requests are sent from. */
export const ADD_CA_ADVICE = 'If it is your company\'s authority (a network that inspects TLS signs with its own), add its certificate (PEM) ' +
  'instead of switching verification off: in the env file, "ApiWorkbench": { "CA Bundle": "path/to/company-ca.pem" } in the environment; ' +
  'for apiwb, --cacert FILE or NODE_EXTRA_CA_CERTS=FILE; in VS Code, also the system\'s certificates (http.systemCertificates). ' +
  'It is trusted on top of the system\'s authorities.';

function tlsAdvice(codes: readonly string[], target: string, detail: string): string {
  if (codes.some((c) => UNKNOWN_ISSUER_CODES.has(c))) {
    return `${target}: the server's certificate was issued by an authority that is not trusted here (${detail}). ${ADD_CA_ADVICE}`;
  }
  if (codes.some((c) => /CERTIFICATE_REQUIRED|BAD_CERTIFICATE|UNKNOWN_CA|HANDSHAKE_FAILURE/.test(c))) {
    return `${target}: the server refused the TLS handshake (${detail}); it may ask for a client certificate: configure one for this host ("SSLConfiguration" in the env file).`;
  }
  return `${target}: the TLS certificate could not be verified (${detail}). Verification is on by default; turn it off only for a server you trust.`;
}

/** A proxy that answered 407 or refused the tunnel, said as such (undici reports it as an argument error). */
function proxyRefusal(message: string, target: string): string | undefined {
  const status = /Proxy (?:response \((\d{3})\)|Authentication Required \((407)\))/.exec(message);
  const code = status?.[1] ?? status?.[2];
  if (!code) return undefined;
  if (code === '407') {
    return `${target}: the proxy asks for a user name and password (407 Proxy Authentication Required). ` +
      'Give the user name in the proxy URL (http://USER@proxy:port) and the password in the environment variable APIWB_SECRET_PROXY_PASSWORD ' +
      '(or the whole URL in HTTPS_PROXY); in VS Code, run "API Workbench: Set Proxy Password". A proxy password is never read from a file.';
  }
  return `${target}: the proxy refused to carry the request (it answered ${code} to the tunnel request).`;
}

function describe(kind: HttpFaultKind, target: string, phase: ExchangePhase, detail: string): string {
  switch (kind) {
    case 'timeout':
      return phase === 'body'
        ? `${target} timed out while the response body was arriving (${detail}).`
        : `${target} timed out waiting for the server to answer (${detail}).`;
    case 'connection':
      return `${target} could not connect: the server refused or could not be reached (${detail}).`;
    case 'dropped':
      return phase === 'body'
        ? `${target}: the connection was dropped in the middle of the response body (${detail}).`
        : `${target}: the server closed the connection before answering (${detail}).${target.includes(' https:') ? ' A server that requires a client certificate does so when none is offered: configure one for this host ("SSLConfiguration" in the env file).' : ''}`;
    case 'tls':
      return tlsAdvice([], target, detail);
    case 'aborted':
      return `${target} was cancelled.`;
    case 'too-large':
    case 'redirect':
    case 'undecodable':
    case 'refused':
    case 'invalid-request':
      return `${target}: ${detail}`;
  }
}

/** Maps an error thrown while sending or reading to an HttpFault (already-faults pass through). */
export function toHttpFault(
  error: unknown,
  request: { method: string; url: string },
  phase: ExchangePhase,
  aborted: boolean,
): HttpFault {
  if (error instanceof HttpFault) return error;
  const target = `${request.method} ${request.url}`;
  if (aborted) return new HttpFault('aborted', describe('aborted', target, phase, ''), request);
  const codes = errorCodes(error);
  const kind = classify(codes, phase) ?? 'connection';
  const message = faultText(error);
  const detail = codes.length > 0 ? `${codes[0]}: ${message}` : message;
  const refused = proxyRefusal(message, target);
  const words = refused ?? (kind === 'tls' ? tlsAdvice(codes, target, detail) : describe(kind, target, phase, detail));
  const fault = new HttpFault(refused ? 'connection' : kind, words, request);
  (fault as { cause?: unknown }).cause = error;
  return fault;
}

export function tooLargeFault(request: { method: string; url: string }, limit: number, seen: number): HttpFault {
  const target = `${request.method} ${request.url}`;
  return new HttpFault(
    'too-large',
    `${target}: the response body exceeded the ${formatBytes(limit)} limit (at least ${formatBytes(seen)} arrived); reading stopped. Raise the limit or page the request.`,
    request,
  );
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}

/** The one deadline per response ran out: headers and body together took longer than allowed. */
export function deadlineFault(request: { method: string; url: string }, timeoutMs: number, phase: ExchangePhase): HttpFault {
  const target = `${request.method} ${request.url}`;
  const seconds = timeoutMs >= 1000 ? `${Math.round(timeoutMs / 100) / 10} s` : `${timeoutMs} ms`;
  const where = phase === 'body' ? 'the body was still arriving' : 'no answer had arrived';
  return new HttpFault('timeout', `${target}: no complete response within ${seconds} (${where}); the time allowed covers the headers and the whole body.`, request);
}

export function redirectFault(request: { method: string; url: string }, detail: string): HttpFault {
  return new HttpFault('redirect', `${request.method} ${request.url}: ${detail}`, request);
}

/** What an HTTP header name may be (RFC 9110 token). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** What a header value may not hold: a line break would end the header there and start another. */
const HEADER_VALUE_BREAK = /[\r\n\0]/;

/**
 * The request as written cannot be sent (an input fault, said as one: never "could not connect"): a
 * header name that is not a token, or a header value with CR, LF or NUL in it. Undefined when it can.
 */
export function malformedRequestFault(request: { method: string; url: string; headers: Readonly<Record<string, string>> }): HttpFault | undefined {
  for (const name in request.headers) {
    const value = request.headers[name]!;
    const problem = !HEADER_NAME.test(name)
      ? `the header name '${name}' is not a valid header name`
      : HEADER_VALUE_BREAK.test(value) ? `the value of header ${name} holds a line break (CR or LF) or NUL, which would end the header there and start another` : undefined;
    if (problem) {
      const target = { method: request.method.toUpperCase(), url: request.url };
      return new HttpFault('invalid-request', `${target.method} ${target.url}: not sent: ${problem}. This is a fault in the request as written (a value or a variable holding it), not the server's.`, target);
    }
  }
  return undefined;
}
