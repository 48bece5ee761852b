// A request as a curl command line for a POSIX shell, without secrets unless the caller opts in.
// By default the values of credential headers (Authorization, X-API-Key, Cookie, …) become shell
// variables ($APIWB_AUTHORIZATION, keeping the scheme: 'Authorization: Bearer '"${APIWB_AUTHORIZATION}")
// or '***' (style 'redacted'); secret-named body/query fields and any known secret value are redacted
// by the Redactor. Unresolved `{{variables}}` (a request straight from a .http file) become shell
// variables too, so the command works once they are exported: `{{$auth.token("engagement")}}` →
// ${APIWB_AUTH_TOKEN_ENGAGEMENT}, `{{fundraising_base_url}}` → ${fundraising_base_url}.
import { resolveRequest, type HttpFile, type VariableScope } from '../httpfile';
import { Redactor, REDACTED } from '../secrets/redact';
import { AUTH_SCHEME, hasReference, isCredentialHeader, isOnlyReferences, isSecretName, referencesIn } from '../secrets/vocabulary';
import { shellQuote, shellVariableName, shellWord, type ShellPart } from './shellQuote';

/** A resolved HttpRequest, or a ResolvedRequest of src/core/httpfile (still holding `{{...}}`), fits. */
export interface CurlRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
  /** A `< ./file` body of a .http request: sent with --data-binary @file. */
  readonly bodyInclude?: { readonly path: string };
}

export interface CurlOptions {
  /** Write secret header values and secret fields as they are. Default false. */
  readonly includeSecrets?: boolean;
  /** How hidden secret header values appear: shell variables (default) or '***'. */
  readonly secretStyle?: 'variable' | 'redacted';
  /** Secret values known to the caller (SecretStore, sign-in), scrubbed wherever they appear. */
  readonly knownSecrets?: Iterable<string>;
  /** The network flags for the request's URL (--proxy, --cacert, --cert: curlNetwork.ts). */
  readonly networkFlags?: (url: string) => readonly string[];
  /** One argument a line with ` \` continuations (default), or everything on one line. */
  readonly multiline?: boolean;
}

export interface CurlCommand {
  readonly command: string;
  /** Shell variables the command reads, to `export` before running it (secret headers and {{refs}}). */
  readonly variables: readonly string[];
  /** Header names whose values were hidden. */
  readonly hiddenHeaders: readonly string[];
}


/** Splits text into literals and `{{ref}}` → shell variables. */
function templateParts(text: string, variables: Set<string>): ShellPart[] {
  const parts: ShellPart[] = [];
  let last = 0;
  for (const reference of referencesIn(text)) {
    parts.push({ literal: text.slice(last, reference.start) });
    const variable = shellVariableName(reference.name);
    variables.add(variable);
    parts.push({ variable });
    last = reference.end;
  }
  parts.push({ literal: text.slice(last) });
  return parts;
}

/** Header value parts: a secret literal becomes a variable (scheme kept) unless it only holds {{refs}}. */
function headerParts(name: string, value: string, options: CurlOptions, redactor: Redactor, variables: Set<string>, hidden: string[]): ShellPart[] {
  const lower = name.toLowerCase();
  if (options.includeSecrets || !isCredentialHeader(name)) {
    return templateParts(options.includeSecrets ? value : redactor.text(value), variables);
  }
  const scheme = AUTH_SCHEME.exec(value);
  const credential = scheme ? (scheme[2] ?? '') : value;
  if (isOnlyReferences(credential)) return templateParts(value, variables); // already a variable: nothing secret in it
  hidden.push(name);
  const prefix = scheme ? `${scheme[1]} ` : '';
  if (options.secretStyle === 'redacted') return [{ literal: `${prefix}${REDACTED}` }];
  const variable = `APIWB_${lower.replace(/-/g, '_').toUpperCase()}`;
  variables.add(variable);
  return [{ literal: prefix }, { variable }];
}

/** The body with secrets redacted; untouched (formatting kept) when there was nothing to redact. */
function redactBody(body: string, contentType: string, redactor: Redactor): string {
  const redacted = redactor.body(body, contentType);
  try {
    return JSON.stringify(JSON.parse(redacted)) === JSON.stringify(JSON.parse(body)) ? body : redacted;
  } catch {
    return redacted;
  }
}

/** Secret-named query values become ***; the URL is otherwise kept as written (no re-encoding). */
function redactUrl(url: string, redactor: Redactor): string {
  const withoutFields = url.replace(/([?&])([^=&#]+)=([^&#]*)/g, (whole, separator: string, name: string, value: string) =>
    isSecretName(safeDecode(name)) && !hasReference(value) ? `${separator}${name}=${REDACTED}` : whole);
  return redactor.text(withoutFields);
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

export function toCurl(request: CurlRequest, options: CurlOptions = {}): CurlCommand {
  const redactor = new Redactor(options.includeSecrets ? [] : (options.knownSecrets ?? []));
  const variables = new Set<string>();
  const hidden: string[] = [];
  const method = request.method.toUpperCase();
  const hasBody = request.body !== undefined || request.bodyInclude !== undefined;
  // curl's own default method: GET without a body, POST with one; HEAD needs --head (-X HEAD hangs).
  const methodFlag = method === 'HEAD' ? '--head' : (method === 'GET' && !hasBody) || (method === 'POST' && hasBody) ? '' : `-X ${shellQuote(method)}`;
  const url = options.includeSecrets ? request.url : redactUrl(request.url, redactor);
  const lines: string[] = [['curl', methodFlag, shellWord(templateParts(url, variables))].filter(Boolean).join(' ')];
  for (const [name, value] of Object.entries(request.headers)) {
    lines.push(`-H ${shellWord([{ literal: `${name}: ` }, ...headerParts(name, value, options, redactor, variables, hidden)])}`);
  }
  if (request.body !== undefined) {
    const contentType = Object.entries(request.headers).find(([k]) => k.toLowerCase() === 'content-type')?.[1] ?? '';
    const body = options.includeSecrets ? request.body : redactBody(request.body, contentType, redactor);
    lines.push(`--data-raw ${shellWord(templateParts(body, variables))}`);
  } else if (request.bodyInclude) {
    lines.push(`--data-binary ${shellWord([{ literal: `@${request.bodyInclude.path}` }])}`);
  }
  lines.push(...(options.networkFlags?.(request.url) ?? []));
  const separator = options.multiline === false ? ' ' : ' \\\n  ';
  return { command: lines.join(separator), variables: [...variables], hiddenHeaders: hidden };
}

/**
 * "Copy as curl" for the request at `requestIndex` of a parsed .http file. With no scope every
 * `{{variable}}` becomes a shell variable; with a scope (environment names and values, no secrets
 * needed) the resolvable ones are substituted. Undefined when there is no such request.
 */
export function curlForHttpRequest(file: HttpFile, requestIndex: number, scope: VariableScope = {}, options: CurlOptions = {}): CurlCommand | undefined {
  const resolved = resolveRequest(file, requestIndex, scope);
  if (!resolved) return undefined;
  return toCurl({
    method: resolved.method,
    url: resolved.url,
    headers: resolved.headers,
    ...(resolved.body !== undefined ? { body: resolved.body } : {}),
    ...(resolved.bodyInclude ? { bodyInclude: { path: resolved.bodyInclude.path } } : {}),
  }, options);
}
