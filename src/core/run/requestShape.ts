// What the request line and headers leave to be completed before a request goes, as httpYac and the
// JetBrains HTTP Client complete it: a path-only request line (`GET /items`) goes to its `Host:` header's
// host (https on port 443 or 8443, else http), else to the `host` variable before it (httpYac's `@host`);
// a header spread `...name` adds the headers of the file variable `name` when it holds a JSON object (spread
// headers win, as in httpYac). Where the source is not known (a script's `exports`), the request is not run:
// `shapeProblem` says why before anything is sent, and `shapeRequest` applies the rule when it is.
// `Authorization: Basic user:password` or `Basic user password` (REST Client, httpYac, JetBrains, and what a
// Postman import writes) goes base64-encoded, as those tools send it (`withBasicEncoded`).
import { basicCredential } from '../auth/basicCredential';
import type { HttpFile, HttpRequestNode } from '../httpfile/model';
import { fileVariablesFor, resolveVariables, type VariableScope } from '../httpfile/resolve';
import { hasNoScheme } from '../httpfile/requestLine';
import { isJsonObject } from '../json/numberText';

/** Whether the URL as written is a path only (no scheme, no host, no leading variable). */
export function isPathOnly(url: string): boolean {
  return url.startsWith('/') && !url.startsWith('//');
}

function hostHeader(headers: Readonly<Record<string, string>>): string | undefined {
  return Object.entries(headers).find(([name]) => name.toLowerCase() === 'host')?.[1];
}

/**
 * Why this request cannot be completed, judged before the run from what is written (file variables,
 * the environment's variable names): undefined when it can. The words say which tool's construct it is.
 */
export function shapeProblem(file: HttpFile, node: HttpRequestNode, environment: Readonly<Record<string, string>>): string | undefined {
  const variables = fileVariablesFor(file, node.index);
  for (const spread of node.headerSpreads) {
    const raw = variables[spread.name];
    if (raw === undefined) {
      return `httpYac header spread ...${spread.name} (line ${spread.range.start.line + 1}): '${spread.name}' is not a file variable of this file (an object set by a script is not known: scripts are not run)`;
    }
    if (headersOf(raw) === undefined) return `httpYac header spread ...${spread.name} (line ${spread.range.start.line + 1}): the file variable '${spread.name}' does not hold a JSON object of headers`;
  }
  if (hasNoScheme(node.requestLine.url)) {
    return `request line URL ${node.requestLine.url} has no scheme: write http:// or https:// before it (API Workbench does not guess which)`;
  }
  if (isPathOnly(node.requestLine.url) && !node.headers.some((h) => h.name.toLowerCase() === 'host') && variables['host'] === undefined && environment['host'] === undefined) {
    return `path-only request line ${node.requestLine.url}: no Host header and no {{host}} variable (httpYac @host) says which server it goes to`;
  }
  return undefined;
}

/** A JSON object's entries as header values (strings kept, others written as JSON), or undefined. */
function headersOf(text: string): Record<string, string> | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isJsonObject(parsed)) return undefined;
  return Object.fromEntries(Object.entries(parsed).map(([name, value]) => [name, typeof value === 'string' ? value : JSON.stringify(value)]));
}

export interface Shaped {
  readonly url: string;
  readonly headers: Record<string, string>;
}

/** The resolved URL and headers completed by the rule above (`scope` as the request was resolved in). */
export function shapeRequest(file: HttpFile, node: HttpRequestNode, resolved: Shaped, scope: VariableScope): Shaped | { readonly problem: string } {
  const own = fileVariablesFor(file, node.index);
  const fullScope: VariableScope = { ...scope, fileVariables: { ...own, ...scope.fileVariables } };
  let headers = resolved.headers;
  for (const spread of node.headerSpreads) {
    const raw = own[spread.name];
    const spreadHeaders = raw === undefined ? undefined : headersOf(resolveVariables(raw, fullScope).text);
    if (!spreadHeaders) return { problem: shapeProblem(file, node, {}) ?? `header spread ...${spread.name} could not be read` };
    headers = { ...headers, ...spreadHeaders };
  }
  if (!isPathOnly(resolved.url)) return { url: resolved.url, headers };
  const host = hostHeader(headers);
  if (host !== undefined) {
    const port = host.split(':')[1];
    return { url: `${port === '443' || port === '8443' ? 'https' : 'http'}://${host.trim()}${resolved.url}`, headers };
  }
  const prefix = resolveVariables('{{host}}', fullScope);
  if (prefix.unresolved.length > 0) return { problem: `path-only request line ${resolved.url}: no Host header and no {{host}} variable (httpYac @host) says which server it goes to` };
  return { url: `${prefix.text.replace(/\/+$/, '')}${resolved.url}`, headers };
}

/**
 * The headers with a written-out Basic credential encoded: `Basic user:password` and `Basic user password`
 * become `Basic base64(user:password)`. A value with neither a colon nor a space is already encoded and is
 * left alone (base64 has neither). Returns the same object when there is nothing to encode.
 */
export function withBasicEncoded(headers: Record<string, string>): Record<string, string> {
  const name = Object.keys(headers).find((key) => key.toLowerCase() === 'authorization');
  const written = name === undefined ? undefined : /^(Basic)\s+(.+)$/is.exec(headers[name]!.trim());
  if (name === undefined || !written) return headers;
  const credential = written[2]!;
  // `user password` (the user has no colon), else `user:password` as written; neither: already encoded.
  const spaced = /^([^\s:]+)\s+(.+)$/s.exec(credential);
  const colon = credential.indexOf(':');
  if (!spaced && colon < 0) return headers;
  const [user, password] = spaced ? [spaced[1]!, spaced[2]!] : [credential.slice(0, colon), credential.slice(colon + 1)];
  return { ...headers, [name]: `${written[1]!} ${basicCredential(user, password)}` };
}
