// One request of a parsed .http file made ready to send: auth values fetched (signing in only if the
// credential service is allowed to), every variable substituted, a `< file` body read through a port.
// Anything that stops it is returned in words, never thrown, so the CLI prints it and the panel shows it.
// What it reads from outside the file that is secret where it came from (the process environment, a .env
// file, a secret of an earlier response) it hands out bound there (ReadSecret); prepareToSend binds them
// in the send boundary's guard, and the caller's Redactor learns them (secretValues).
import { AuthError, AuthVariables, findAuthReferences, type AuthReference, type CredentialService } from '../auth';
import type { AuthScheme } from '../auth/explain';
import { authEntryOf, type Environment } from '../env';
import type { HttpRequest } from '../http/types';
import type { Body, BodyFileLine, HttpFile, HttpRequestNode } from '../httpfile';
import {
  fileVariablesFor, requestAt, resolveRequest, resolveVariables,
  type DynamicVariableResolver, type NamedResponse, type NamedResponses, type ResolvedRequest, type ResolvedText, type UnresolvedVariable, type VariableScope,
} from '../httpfile/resolve';
import { graphqlRequest } from '../graphql/graphqlRequest';
import { graphqlFragmentsOf } from '../httpfile/foreign';
import { DYNAMIC_SHAPES } from './dynamicVariables';
import { readDotenv } from './dotenvFile';
import { isPathOnly, shapeRequest, withBasicEncoded } from './requestShape';
import { notSentKind } from './notRun';
import { shownFileLine, withFileParts } from './bodyFileParts';
import { NotTextError } from '../text/bodyFile';
import { directiveRefusal } from '../httpfile/directives';
import { faultText } from '../text/faultText';
import { bindReadSecrets, environmentOrigins, type ReadSecret, type SecretBindings } from '../secrets/bindings';
import { responseSecrets } from '../secrets/responseSecrets';
import { urlParts } from '../http/url';

export interface PrepareContext {
  readonly environment: Environment;
  readonly credentials: CredentialService;
  readonly responses: ReadonlyMap<string, NamedResponse>;
  /** Dynamic variables other than $auth ({{$uuid}}, {{$timestamp}}, …); $auth is handled here. */
  readonly dynamic?: DynamicVariableResolver;
  /**
   * Reads a `< ./file` body, relative to the .http file, as text: UTF-8, or `encoding` when the line
   * names one (`<@latin1 ./file`), decoded by decodeBodyFile (core/text/bodyFile.ts); `strict` (a multipart
   * part): bytes that do not decode throw its NotTextError.
   */
  readonly readInclude: (path: string, encoding?: string, strict?: boolean) => Promise<string>;
}

export type Prepared =
  | {
      readonly ok: true;
      readonly request: HttpRequest;
      readonly resolved: ResolvedRequest;
      readonly scheme: AuthScheme;
      /** Secret values handed out for this request: the caller's Redactor must learn them. */
      readonly secretValues: readonly string[];
      /** The values among them read from outside the file, with where they may go: prepareToSend binds them. */
      readonly readSecrets: readonly ReadSecret[];
      /**
       * The values of the process environment or a .env file the request carries ({{$processEnv X}},
       * {{$env.X}}, {{$dotenv X}}), in words ("the value of {{$processEnv X}}"), never the value.
       */
      readonly environmentSecrets: readonly string[];
      /** Sent as GraphQL JSON (src/core/graphql/graphqlRequest.ts). */
      readonly graphql: boolean;
    }
  | {
      readonly ok: false;
      readonly kind: 'auth' | 'unresolved' | 'missing' | 'include' | 'graphql';
      readonly problem: string;
      /** The auth entry that needs the user (sign in, paste a token), when kind is 'auth'. */
      readonly authId?: string;
      /** The URL as far as it resolved, for messages. */
      readonly url: string;
    };

type Failure = Extract<Prepared, { ok: false }>;

/** A file a body names: the `< file` body (ResolvedRequest's bodyInclude) or a multipart part's line. */
type IncludedFile = Pick<BodyFileLine, 'path' | 'substituteVariables' | 'encoding'>;

export async function prepareRequest(file: HttpFile, requestIndex: number, ctx: PrepareContext): Promise<Prepared> {
  const found = requestAt(file, requestIndex);
  const node = found?.request;
  if (!found || !node) return { ok: false, kind: 'missing', problem: `there is no request #${requestIndex + 1} in this file`, url: '' };
  // `# @disabled`: not sent; `# @loop`, a directive written where it is not read: not sent rather than sent otherwise (directives.ts).
  const refused = directiveRefusal(file, found.block);
  if (refused !== undefined) return { ok: false, kind: 'missing', problem: refused, url: node.requestLine.url };
  // gRPC, WebSocket, SSE, MQTT, AMQP: never sent as HTTP (notRun.ts).
  const notSent = notSentKind(node);
  if (notSent !== undefined) return { ok: false, kind: 'missing', problem: notSent, url: node.requestLine.url };
  // The URL as far as it resolves without $auth, for an auth failure's message only: resolved when one happens.
  const plannedUrl = (): string => resolveRequest(file, requestIndex, { environment: ctx.environment.variables, responses: ctx.responses })?.url ?? node.requestLine.url;

  const references = authReferencesOf(node);
  const auth = new AuthVariables(ctx.credentials);
  // A request without a $auth reference has nothing to fetch, nor to wait for.
  const authFailure = references.length === 0 ? undefined : await fetchAuth(auth, references, ctx.environment, plannedUrl);
  if (authFailure) return authFailure;
  // A value of the process environment or a .env file is a secret of the environment's origins, one of an
  // earlier response that is secret there a secret of that response's origin (ReadSecret): both handed
  // to the caller's Redactor with $auth's.
  const read = new ReadSecrets();
  const environmentSecrets: string[] = [];
  const dotenv = mentionsDotenv(node) ? await readDotenv(ctx.readInclude, ctx.environment.name) : undefined;
  const dynamic: DynamicVariableResolver = {
    resolve: (name, args, lookups) => {
      if (name.startsWith('$auth.')) return auth.resolve(name, args);
      const answer = ctx.dynamic?.resolve(name, args, { ...lookups, ...(dotenv ? { dotenv } : {}) });
      if (typeof answer === 'object' && 'secret' in answer) {
        read.add(answer.value, environmentOrigins(ctx.environment), `${answer.secret} (environment '${ctx.environment.name}')`);
        if (!environmentSecrets.includes(answer.secret)) environmentSecrets.push(answer.secret);
      }
      return answer;
    },
  };
  const scope: VariableScope = { environment: ctx.environment.variables, responses: read.responsesOf(ctx.responses, ctx.environment), dynamic };
  const resolved = resolveWithDirectives(file, requestIndex, scope);
  if (!resolved) return { ok: false, kind: 'missing', problem: 'the request could not be read', url: plannedUrl() };
  const missing = resolved.unresolved[0];
  if (missing) return { ok: false, kind: 'unresolved', problem: unresolvedProblem(missing, ctx.environment), url: resolved.url };

  let body = resolved.body;
  const withFiles: VariableScope = { ...scope, fileVariables: fileVariablesFor(file, requestIndex) };
  if (node.body?.kind === 'inline' && node.body.files) {
    const parts = await multipartBody(node.body, resolved.url, auth, ctx, withFiles);
    if (typeof parts !== 'string') return parts;
    body = parts;
  }
  if (resolved.bodyInclude) {
    const read = await includedText(resolved.bodyInclude, false, auth, ctx, withFiles, resolved.url);
    if (typeof read !== 'string') return read;
    body = read;
  }
  // A path-only request line and header spreads are completed as httpYac completes them (requestShape.ts).
  const shaped = node.headerSpreads.length === 0 && !isPathOnly(resolved.url) ? resolved : shapeRequest(file, node, resolved, scope);
  if ('problem' in shaped) return { ok: false, kind: 'unresolved', problem: shaped.problem, url: resolved.url };
  const written: HttpRequest = { method: resolved.method, url: shaped.url, headers: withBasicEncoded(shaped.headers), ...(body === undefined ? {} : { body }) };
  const graphql = graphqlRequest(written, graphqlFragmentsOf(file));
  if (graphql.graphql && 'problem' in graphql) return { ok: false, kind: 'graphql', problem: graphql.problem, url: shaped.url };
  const request = graphql.graphql ? graphql.request : written;
  return {
    ok: true,
    request,
    resolved,
    scheme: authSchemeOf(references.map((r) => r.authId), ctx.environment, shaped.url, shaped.headers),
    secretValues: [...auth.knownValues, ...read.values()],
    readSecrets: read.all,
    environmentSecrets,
    graphql: graphql.graphql,
  };
}

/** The request prepared (prepareRequest), what it read from outside its file bound in `guard` before it is sent. */
export async function prepareToSend(file: HttpFile, requestIndex: number, ctx: PrepareContext, guard: SecretBindings): Promise<Prepared> {
  const prepared = await prepareRequest(file, requestIndex, ctx);
  if (prepared.ok) bindReadSecrets(guard, prepared.readSecrets, urlParts(prepared.request.url)?.origin);
  return prepared;
}

/** What a request read from outside its file that is secret where it came from, each value once. */
class ReadSecrets {
  readonly all: ReadSecret[] = [];
  private readonly named = new Set<string>();

  add(value: string, origins: readonly string[], what: string, followsRequest?: true): void {
    if (!this.all.some((known) => known.value === value)) this.all.push({ value, origins, what, ...(followsRequest ? { followsRequest } : {}) });
  }

  values(): string[] {
    return this.all.map((known) => known.value);
  }

  /**
   * `responses` as the resolver reads them: the secrets of each one read noted as it is read, bound to where
   * it came from, the origins the environment names and where the file sends it (bindReadSecrets).
   */
  responsesOf(responses: ReadonlyMap<string, NamedResponse>, environment: Environment): NamedResponses {
    return {
      get: (name) => {
        const response = responses.get(name);
        if (response && !this.named.has(name)) {
          this.named.add(name);
          const origins = [...new Set([response.origin, ...environmentOrigins(environment)])];
          for (const value of responseSecrets(response)) this.add(value, origins, `a secret of the response of '${name}'`, true);
        }
        return response;
      },
    };
  }
}

/** Whether any text of the request names {{$dotenv …}} (then its .env file is read first). */
export function mentionsDotenv(node: HttpRequestNode): boolean {
  return requestTexts(node).some((text) => text.includes('$dotenv'));
}

/** Every $auth value the references need, or why one cannot be had. */
async function fetchAuth(auth: AuthVariables, references: readonly AuthReference[], environment: Environment, url: () => string, where = ''): Promise<Failure | undefined> {
  const undeclared = undeclaredAuth(references, environment);
  if (undeclared) return { ok: false, kind: 'unresolved', problem: `${where}${undeclared}`, url: url() };
  try {
    await auth.prepare(references);
    return undefined;
  } catch (error) {
    if (error instanceof AuthError) return { ok: false, kind: 'auth', problem: error.message, authId: error.authId, url: url() };
    throw error;
  }
}

/** A multipart body with its `< ./file` lines replaced by the files' content (includedText), its lines broken with CRLF (bodyFileParts.ts). */
async function multipartBody(body: Extract<Body, { kind: 'inline' }>, url: string, auth: AuthVariables, ctx: PrepareContext, scope: VariableScope): Promise<string | Failure> {
  const parts = await withFileParts({
    text: body.text, firstLine: body.range.start.line, files: body.files ?? [],
    resolve: (text) => resolveVariables(text, scope),
    part: (file) => includedText(file, true, auth, ctx, scope, url),
  });
  if ('problem' in parts) return 'ok' in parts ? parts : { ok: false, kind: 'include', problem: parts.problem, url };
  const missing = parts.unresolved[0];
  return missing ? { ok: false, kind: 'unresolved', problem: unresolvedProblem(missing, ctx.environment), url } : parts.text;
}

/**
 * THE reader of a file a request's body names — the `< file` body and each multipart part alike: read
 * through the port, and for `<@` its {{variables}} substituted, the $auth values it names fetched first as
 * the request's own are (a sign-in when one is needed). `strict`: a multipart part, sent as text only
 * (bytes that do not decode are refused, never sent mangled).
 */
async function includedText(include: IncludedFile, strict: boolean, auth: AuthVariables, ctx: PrepareContext, scope: VariableScope, url: string): Promise<string | Failure> {
  const shown = `${shownFileLine(include)}: `;
  let text: string;
  try {
    text = await ctx.readInclude(include.path, include.encoding, strict);
  } catch (error) {
    const why = error instanceof NotTextError ? `${error.message}; a multipart part is sent as text only, so this request is not sent` : faultText(error);
    return { ok: false, kind: 'include', problem: `${shown}${why}`, url };
  }
  if (!include.substituteVariables) return text;
  const authFailure = await fetchAuth(auth, findAuthReferences([text]), ctx.environment, () => url, shown);
  if (authFailure) return authFailure;
  const substituted = resolveVariables(text, scope);
  const missing = substituted.unresolved[0];
  if (missing) return { ok: false, kind: 'unresolved', problem: `${shown}${unresolvedProblem(missing, ctx.environment)}`, url };
  return substituted.text;
}

export type Checked =
  | { readonly ok: true; /** Resolved with "x" for every dynamic variable: for its shape, never to send. */ readonly resolved: ResolvedRequest }
  | { readonly ok: false; readonly problem: string };

/**
 * What can be known wrong about a request before anything is sent, with no credential touched: an $auth
 * id the environment does not declare, a variable that is not defined (or defined in a cycle), a dynamic
 * variable the table does not know or written with arguments it does not take. Named responses and the
 * values of dynamic variables are not judged here: they exist only while a run goes on.
 */
export function checkRequest(file: HttpFile, requestIndex: number, environment: Environment, resolvedTexts?: Map<string, ResolvedText>): Checked {
  const node = requestAt(file, requestIndex)?.request;
  // Every request of a run is checked in the same scope: texts they share are resolved once.
  const resolved = resolveWithDirectives(file, requestIndex, { environment: environment.variables, dynamic: DYNAMIC_SHAPES, resolvedTexts });
  if (!node || !resolved) return { ok: false, problem: `there is no request #${requestIndex + 1} in this file` };
  const undeclared = undeclaredAuth(authReferencesOf(node), environment);
  if (undeclared) return { ok: false, problem: undeclared };
  const missing = resolved.unresolved.find((u) => u.reason === 'undefined' || u.reason === 'invalid' || u.reason === 'cycle' || u.reason === 'budget');
  return missing ? { ok: false, problem: unresolvedProblem(missing, environment) } : { ok: true, resolved };
}

/**
 * The request resolved, its `# @` directive values too: `# @paging export-ordinal pageRows={{page_rows}}`
 * lets an environment say what differs between servers (a sandbox's small export pages, for one).
 */
function resolveWithDirectives(file: HttpFile, requestIndex: number, scope: VariableScope): ResolvedRequest | undefined {
  const resolved = resolveRequest(file, requestIndex, scope);
  if (!resolved) return undefined;
  if (!Object.values(resolved.directives).some((value) => value.includes('{{'))) return resolved;
  const entries = Object.entries(resolved.directives);
  const fullScope: VariableScope = { ...scope, fileVariables: { ...fileVariablesFor(file, requestIndex), ...scope.fileVariables } };
  const unresolved = [...resolved.unresolved];
  const directives: Record<string, string> = {};
  for (const [key, value] of entries) {
    const result = resolveVariables(value, fullScope);
    directives[key] = result.text;
    for (const u of result.unresolved) if (!unresolved.some((x) => x.name === u.name)) unresolved.push(u);
  }
  return { ...resolved, directives, unresolved };
}

function undeclaredAuth(references: readonly AuthReference[], environment: Environment): string | undefined {
  const reference = references.find((r) => !authEntryOf(environment, r.authId));
  if (!reference) return undefined;
  const known = Object.keys(environment.auth).join(', ') || 'none';
  return `{{$auth.${reference.kind}("${reference.authId}")}}: environment '${environment.name}' has no auth entry '${reference.authId}' (it has: ${known})`;
}

function unresolvedProblem(missing: UnresolvedVariable, environment: Environment): string {
  return `{{${missing.name}}}: ${missing.message.replace('the active environment', `environment '${environment.name}'`)}`;
}

/** The scheme a request authenticates with, for the 401/403 words: its $auth entries, else its URL's shape. */
/**
 * The scheme a request authenticates with, for the 401/403 words: its $auth entries, else what its
 * Authorization header says (the fundraising service takes Basic or a JWT bearer, seed 001 §5), else its
 * URL's shape.
 */
export function authSchemeOf(authIds: readonly string[], environment: Environment, url: string, headers: Readonly<Record<string, string>> = {}): AuthScheme {
  for (const id of authIds) {
    const kind = authEntryOf(environment, id)?.kind;
    if (kind === 'password-grant' || kind === 'basic-api-key' || kind === 'jwt-bearer') return kind;
  }
  const authorization = Object.entries(headers).find(([name]) => name.toLowerCase() === 'authorization')?.[1] ?? '';
  if (/\/v1\//.test(url)) return /^\s*bearer\s/i.test(authorization) ? 'jwt-bearer' : 'basic-api-key';
  if (/\/api\//.test(url)) return 'password-grant';
  return 'unknown';
}

/**
 * The $auth references of a request's own texts, found once per parsed request (a parsed request does
 * not change; a run checks each before sending, then prepares it).
 */
export function authReferencesOf(node: HttpRequestNode): readonly AuthReference[] {
  let references = authReferences.get(node);
  if (!references) {
    references = Object.freeze(findAuthReferences(requestTexts(node)));
    authReferences.set(node, references);
  }
  return references;
}

const authReferences = new WeakMap<HttpRequestNode, readonly AuthReference[]>();

export function requestTexts(node: HttpRequestNode): string[] {
  const texts = [node.requestLine.url];
  for (const q of node.queryContinuations) texts.push(q.text);
  for (const h of node.headers) texts.push(h.value);
  if (node.body?.kind === 'inline') texts.push(node.body.text);
  return texts;
}
