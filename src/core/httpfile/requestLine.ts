// The request line: which words open one (the ONE list of methods and request kinds), what another
// tool would read as a new request, and the line's parts (method, URL, HTTP version, query parameters).
// httpYac opens a request at every method of its list and at the keywords of its other protocols; REST
// Client and JetBrains at an HTTP method (or a bare URL). API Workbench sends HTTP only: every other kind
// is parsed as a request of its kind so that the run can say, by name, that it is not sent.
import type { QueryParameter, RequestKind, RequestLine } from './model';
import { leadingCode, range, lineRange } from './lines';

/** The HTTP methods completion offers, in its order. */
export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS', 'CONNECT', 'TRACE'] as const;

/** WebDAV and the other HTTP methods of httpYac's list: read (and sent) as HTTP, not offered by completion. */
const MORE_HTTP_METHODS = [
  'PROPFIND', 'PROPPATCH', 'MKCOL', 'COPY', 'MOVE', 'LOCK', 'UNLOCK', 'CHECKOUT', 'CHECKIN', 'REPORT', 'MERGE',
  'MKACTIVITY', 'MKWORKSPACE', 'VERSION-CONTROL', 'BASELINE-CONTROL', 'MKCALENDAR', 'ACL', 'SEARCH',
] as const;

/** Request-line keywords of other request kinds (httpYac), each with its kind. */
const OTHER_KINDS: Readonly<Record<string, RequestKind>> = {
  GRAPHQL: 'graphql',
  GRPC: 'grpc',
  WEBSOCKET: 'websocket', WS: 'websocket', WSS: 'websocket',
  SSE: 'sse', EVENTSOURCE: 'sse',
  MQTT: 'mqtt', MQTTS: 'mqtt',
  AMQP: 'amqp',
};

/** A bare URL of another kind (httpYac reads `grpc://…`, `ws://…` as requests of that kind). */
const OTHER_SCHEMES: ReadonlyArray<readonly [RegExp, RequestKind]> = [
  [/^grpc:\/\//i, 'grpc'], [/^wss?:\/\//i, 'websocket'], [/^mqtts?:\/\//i, 'mqtt'], [/^amqps?:\/\//i, 'amqp'],
];

const KIND_OF_WORD = new Map<string, RequestKind>([
  ...[...HTTP_METHODS, ...MORE_HTTP_METHODS].map((m) => [m, 'http'] as const),
  ...Object.entries(OTHER_KINDS),
]);

/** What each kind is called in messages. */
export const REQUEST_KIND_NAMES: Readonly<Record<RequestKind, string>> = {
  http: 'HTTP', graphql: 'GraphQL', grpc: 'gRPC', websocket: 'WebSocket', sse: 'server-sent events (SSE)', mqtt: 'MQTT', amqp: 'AMQP',
};

/** The request kinds API Workbench sends: HTTP, and GraphQL as its JSON body over HTTP (src/core/graphql/). */
export const SENT_KINDS: ReadonlySet<RequestKind> = new Set<RequestKind>(['http', 'graphql']);

/** Why a request of another kind is not sent, by name (the run, the editor's send, the diagnostic), or undefined for a kind that is. */
export function notSentWords(line: RequestLine): string | undefined {
  if (SENT_KINDS.has(line.kind)) return undefined;
  const word = line.methodWritten && kindOfKeyword(line.method) === line.kind ? line.method : line.url.split(':')[0] ?? '';
  return `${REQUEST_KIND_NAMES[line.kind]} request (${word}, httpYac): not supported — API Workbench sends HTTP requests only`;
}

/** The kind a request-line keyword opens (case-insensitive), or undefined when it is no keyword of the list. */
export function kindOfKeyword(word: string): RequestKind | undefined {
  return KIND_OF_WORD.get(word.toUpperCase());
}

/** An HTTP version ending a request line: tried only on a line that ends with a digit (endsWithDigit). */
export const VERSION_AT_END = /\s+(HTTP\/\d(?:\.\d)?)$/i;

/** Whether `text` ends with 0-9: VERSION_AT_END cannot match a text that does not (\d is 0-9). */
export function endsWithDigit(text: string): boolean {
  const last = text.charCodeAt(text.length - 1);
  return last >= 48 && last <= 57;
}

/** A URL without a scheme: a hostname or IPv4 address, then `:port` or a `/` (`localhost:8080/a`, `h.test/a`). */
const SCHEMELESS = /^(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*)(?::\d+(?:[/?#\s]|$)|\/)/i;

/** Whether a request line's URL is a host without a scheme (httpYac reads it as a request; API Workbench does not guess the scheme). */
export function hasNoScheme(url: string): boolean {
  return !/^[a-z][a-z0-9+.-]*:\/\//i.test(url) && SCHEMELESS.test(url);
}

/** A URL as a request line's target: absolute (any scheme), a path, starting with a `{{variable}}`, or a host without a scheme. */
const URL_START = /^(?:[a-z][a-z0-9+.-]*:\/\/|\/(?![/*])|\{\{)/i;
const urlStarts = (text: string): boolean => URL_START.test(text) || hasNoScheme(text);

/**
 * Whether another tool would open a new request at this line: a keyword of the one list followed by a URL
 * (a `{{ }}` in it may hold spaces), or a bare absolute URL. A body line such as `"GET": "/v1"` is not.
 */
export function looksLikeRequestLine(text: string): boolean {
  // Every keyword and URL scheme starts with a letter: most lines are out at once.
  const lead = leadingCode(text) | 0x20;
  if (lead < 0x61 || lead > 0x7a) return false;
  const keyword = KEYWORD_LINE.exec(text);
  if (keyword) return KIND_OF_WORD.has(keyword[1] ?? '') && urlStarts(keyword[2] ?? '');
  return BARE_URL.test(text);
}

/**
 * Whether a block's first line (after its comments, directives and variables) is a request line, THE rule
 * the parser asks before reading a line as one: a method or another kind's keyword of the one list, alone
 * (being typed) or before its target; another upper-case word (a method of the server's own) before a URL
 * or a path; or, the method left out (GET, as REST Client reads it), a URL or a path alone, with no space
 * outside a `{{ }}` but the one before an HTTP version. Prose (`These are notes`, the text below a
 * Markdown `### heading` in a body) is none: a GET of prose is never read.
 */
export function isRequestLine(text: string): boolean {
  const content = text.trim();
  const space = content.search(/\s/);
  const first = space === -1 ? content : content.slice(0, space);
  const rest = space === -1 ? '' : content.slice(space).trimStart();
  if (kindOfKeyword(first) !== undefined) {
    // `GET`, `get /a`, `GET anything`; a capitalised word of prose (`Get the list`, `Search works`) is no method.
    return first === first.toUpperCase() || rest === '' || urlStarts(rest);
  }
  if (space !== -1 && /^[A-Z]+$/.test(first)) return urlStarts(rest);
  const version = endsWithDigit(content) ? VERSION_AT_END.exec(content) : null;
  const target = version ? content.slice(0, version.index) : content;
  return urlStarts(target) && !/\s/.test(target.replace(/\{\{[^}]*\}\}/g, ''));
}

/** An upper-case word and what follows it (a header's name ends in ':' and never matches). */
const KEYWORD_LINE = /^\s*([A-Z][A-Z-]*)\s+(\S.*)$/;
/** A bare absolute URL alone on its line. */
const BARE_URL = /^\s*[a-z][a-z0-9+.-]*:\/\/\S+\s*$/i;

/** A line continuing the request line's URL: `?a=1` / `&b=2` (REST Client, any indent), or an indented `/path` piece (JetBrains). */
export function isUrlContinuation(text: string): boolean {
  const lead = text.trimStart();
  if (lead.startsWith('?') ? !lead.startsWith('??') : lead.startsWith('&')) return true;
  return lead !== text && lead.startsWith('/') && !lead.startsWith('//') && !lead.startsWith('/*');
}

export function parseRequestLine(line: number, text: string): RequestLine {
  const indent = text.length - text.trimStart().length;
  const content = text.trimEnd();
  const firstSpace = content.slice(indent).search(/\s/);
  const firstToken = firstSpace === -1 ? content.slice(indent) : content.slice(indent, indent + firstSpace);
  const keywordKind = firstSpace === -1 ? undefined : kindOfKeyword(firstToken);
  const hasMethod = firstSpace !== -1 && (keywordKind !== undefined || /^[A-Z]+$/.test(firstToken));
  const method = hasMethod ? firstToken.toUpperCase() : 'GET';
  const methodRange = hasMethod ? range(line, indent, line, indent + firstToken.length) : range(line, indent, line, indent);
  let urlStart = hasMethod ? indent + firstToken.length : indent;
  while (urlStart < content.length && /\s/.test(content[urlStart] ?? '')) urlStart++;
  let urlEnd = content.length;
  let httpVersion: string | undefined;
  let httpVersionRange: RequestLine['httpVersionRange'];
  const version = endsWithDigit(content) ? VERSION_AT_END.exec(content.slice(urlStart)) : null;
  if (version) {
    httpVersion = version[1];
    const versionStart = content.length - (version[1]?.length ?? 0);
    httpVersionRange = range(line, versionStart, line, content.length);
    urlEnd = urlStart + version.index;
  }
  const url = content.slice(urlStart, urlEnd);
  return {
    method,
    methodWritten: hasMethod,
    methodRange,
    // An HTTP method does not make a ws:// or grpc:// URL HTTP: the scheme says the kind (httpYac).
    kind: (keywordKind === undefined || keywordKind === 'http' ? OTHER_SCHEMES.find(([scheme]) => scheme.test(url))?.[1] : keywordKind) ?? 'http',
    url,
    urlRange: range(line, urlStart, line, urlEnd),
    httpVersion,
    httpVersionRange,
    range: lineRange(line, text),
  };
}

/** Parameters after the first `?` (or from `start` on a continuation line). */
export function queryParametersOf(line: number, text: string, start: number): QueryParameter[] {
  const result: QueryParameter[] = [];
  const content = text.trimEnd();
  let q = content.indexOf('?', start);
  if (q === -1) {
    if (content[start] !== '&') return result;
    q = start;
  }
  const versionMatch = endsWithDigit(content) ? VERSION_AT_END.exec(content) : null;
  const end = versionMatch ? versionMatch.index : content.length;
  let from = q + 1;
  while (from <= end) {
    let amp = content.indexOf('&', from);
    if (amp === -1 || amp > end) amp = end;
    const part = content.slice(from, amp);
    if (part.length > 0) {
      const eq = part.indexOf('=');
      const name = eq === -1 ? part : part.slice(0, eq);
      const value = eq === -1 ? '' : part.slice(eq + 1);
      const valueStart = eq === -1 ? amp : from + eq + 1;
      result.push({
        name: name.trim(),
        value,
        range: range(line, from, line, amp),
        nameRange: range(line, from, line, from + name.length),
        valueRange: range(line, valueStart, line, valueStart + value.length),
      });
    }
    from = amp + 1;
  }
  return result;
}
