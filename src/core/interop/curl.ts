// A request as a curl command line for a POSIX shell, without secrets unless the caller opts in.
// By default the values of credential headers (Authorization, X-API-Key, Cookie, …) become shell
// variables ($APIWB_AUTHORIZATION, keeping the scheme: 'Authorization: Bearer '"${APIWB_AUTHORIZATION}")
// or '***' (style 'redacted'), unless the value is one the caller knows is not secret (an env file's value,
// such as the tenant code in X-API-Key: env files refuse secrets); secret-named body/query fields and any
// known secret value are redacted by the Redactor. Unresolved `{{variables}}` (a request straight from a
// .http file) become shell variables too, so the command works once they are exported; an auth reference
// takes the CLI's name for it (secretEnvVarName): `{{$auth.token("engagement")}}` →
// ${APIWB_SECRET_ENGAGEMENT_TOKEN}, and a comment line above the command says how to make each one.
import { authIdFromArgs } from '../auth/authVariables';
import type { AuthEntry } from '../env/model';
import { secretEnvVarName } from '../secrets/secretStore';
import { resolveRequest, type HttpFile, type VariableScope } from '../httpfile';
import { graphqlRequest } from '../graphql/graphqlRequest';
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
  /** Values known not to be secret (an env file's values): kept as they are, even in a credential header. */
  readonly nonSecretValues?: Iterable<string>;
  /** The environment's auth entries: the comment line of each `$auth` variable says how to make it. */
  readonly authEntries?: Readonly<Record<string, AuthEntry>>;
}

export interface CurlCommand {
  readonly command: string;
  /** Shell variables the command reads, to `export` before running it (secret headers and {{refs}}). */
  readonly variables: readonly string[];
  /** Header names whose values were hidden. */
  readonly hiddenHeaders: readonly string[];
}


/** `$auth.token("id")` → { id, field: 'token' }; `$auth.idToken("id")` → field 'id_token'; anything else undefined. */
function authReferenceOf(name: string): { readonly authId: string; readonly field: string } | undefined {
  const match = /^\s*\$auth\.(token|idToken)\s*(\(.*\))\s*$/.exec(name);
  const authId = match?.[2] ? authIdFromArgs(match[2]) : undefined;
  return match && authId ? { authId, field: match[1] === 'idToken' ? 'id_token' : 'token' } : undefined;
}

/** Shell variables made from `$auth` references, with their auth id: each gets a comment saying how to make it. */
type AuthVariables = Map<string, string>;

/** Splits text into literals and `{{ref}}` → shell variables (an auth reference: the CLI's name for it). */
function templateParts(text: string, variables: Set<string>, auth?: AuthVariables): ShellPart[] {
  const parts: ShellPart[] = [];
  let last = 0;
  for (const reference of referencesIn(text)) {
    parts.push({ literal: text.slice(last, reference.start) });
    const authReference = authReferenceOf(reference.name);
    const variable = authReference ? secretEnvVarName(authReference.authId, authReference.field) : shellVariableName(reference.name);
    if (authReference) auth?.set(variable, authReference.authId);
    variables.add(variable);
    parts.push({ variable });
    last = reference.end;
  }
  parts.push({ literal: text.slice(last) });
  return parts;
}

/** Header value parts: a secret literal becomes a variable (scheme kept) unless it only holds {{refs}}. */
function headerParts(name: string, value: string, options: CurlOptions, redactor: Redactor, variables: Set<string>, hidden: string[], auth: AuthVariables): ShellPart[] {
  const lower = name.toLowerCase();
  if (options.includeSecrets || !isCredentialHeader(name)) {
    return templateParts(options.includeSecrets ? value : redactor.text(value), variables, auth);
  }
  const scheme = AUTH_SCHEME.exec(value);
  const credential = scheme ? (scheme[2] ?? '') : value;
  if (isOnlyReferences(credential)) return templateParts(value, variables, auth); // already a variable: nothing secret in it
  // A value of the env file (the tenant code in X-API-Key): env files hold no secret, so it stays as written.
  if (credential !== '' && new Set(options.nonSecretValues ?? []).has(credential)) return templateParts(redactor.text(value), variables, auth);
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
  const auth: AuthVariables = new Map();
  const lines: string[] = [['curl', methodFlag, shellWord(templateParts(url, variables, auth))].filter(Boolean).join(' ')];
  for (const [name, value] of Object.entries(request.headers)) {
    lines.push(`-H ${shellWord([{ literal: `${name}: ` }, ...headerParts(name, value, options, redactor, variables, hidden, auth)])}`);
  }
  if (request.body !== undefined) {
    const contentType = Object.entries(request.headers).find(([k]) => k.toLowerCase() === 'content-type')?.[1] ?? '';
    const body = options.includeSecrets ? request.body : redactBody(request.body, contentType, redactor);
    lines.push(`--data-raw ${shellWord(templateParts(body, variables, auth))}`);
  } else if (request.bodyInclude) {
    lines.push(`--data-binary ${shellWord([{ literal: `@${request.bodyInclude.path}` }])}`);
  }
  lines.push(...(options.networkFlags?.(request.url) ?? []));
  const separator = options.multiline === false ? ' ' : ' \\\n  ';
  const comments = [...auth].map(([variable, authId]) => `# ${howToMake(variable, authId, options.authEntries?.[authId])}\n`).join('');
  return { command: `${comments}${lines.join(separator)}`, variables: [...variables], hiddenHeaders: hidden };
}

/** The comment line for an `$auth` variable: what it holds and how to make it from what the CLI reads. */
function howToMake(variable: string, authId: string, entry: AuthEntry | undefined): string {
  switch (entry?.kind) {
    case 'basic-api-key': {
      const permission = entry.permissionName ?? 'PERMISSION';
      return `${variable}: base64 of ${permission}:<service key>, e.g. export ${variable}="$(printf '%s' ${shellQuote(`${permission}:`)}"$${secretEnvVarName(authId, 'service_key')}" | base64 | tr -d '\\n')"`;
    }
    case 'password-grant':
      return `${variable}: the access_token a password-grant sign-in answers (POST ${entry.tokenUrl ?? 'the Token URL'}, grant_type=password, username ${entry.username ?? 'the user'}, password $${secretEnvVarName(authId, 'password')})`;
    case 'jwt-bearer':
      return `${variable}: the JWT of ${authId}, as apiwb run reads it`;
    default:
      return `${variable}: the value of {{$auth.token("${authId}")}}`;
  }
}

/**
 * "Copy as curl" for the request at `requestIndex` of a parsed .http file. With no scope every
 * `{{variable}}` becomes a shell variable; with a scope (environment names and values, no secrets
 * needed) the resolvable ones are substituted. Undefined when there is no such request.
 */
export function curlForHttpRequest(file: HttpFile, requestIndex: number, scope: VariableScope = {}, options: CurlOptions = {}): CurlCommand | undefined {
  const resolved = resolveRequest(file, requestIndex, scope);
  if (!resolved) return undefined;
  const written = { method: resolved.method, url: resolved.url, headers: resolved.headers, ...(resolved.body !== undefined ? { body: resolved.body } : {}) };
  // A GraphQL request is copied as it is sent: POST of {"query", "variables", "operationName"} JSON.
  const graphql = resolved.bodyInclude ? undefined : graphqlRequest(written);
  return toCurl({
    ...(graphql?.graphql && 'request' in graphql ? graphql.request : written),
    ...(resolved.bodyInclude ? { bodyInclude: { path: resolved.bodyInclude.path } } : {}),
  }, options);
}
