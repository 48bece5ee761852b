// THE rule of where a secret may go, and the check every request passes before it leaves (the HTTP client
// asks `refusal` before each send and each redirect hop; the cross-origin rule asks `carries` for what a hop
// must drop). A secret is bound to origins: a password to its Token URL's origin; a token, service key,
// Basic credential or pasted JWT to the origins of the environment it was obtained or entered for (every
// http(s) URL among its variables and Token URLs: `originsFor`). A secret held but bound to nothing (an
// APIWB_SECRET_* variable no auth entry of the run's environment reads) may go nowhere; a value of the
// private env file goes as the auth field it fills, else to its environment's origins, and a run holds
// every environment's (bindPrivateFile), so one environment's never goes to another's. Before a request
// leaves, its URL (each part, and whole as it goes out), every header value (whatever the header's name)
// and its body are searched for every value held, in every form secretForms.ts knows; one found in a
// request to an origin it is not bound to refuses the request, naming both origins; a host name is
// searched in lower case (it has no case, and the URL parser lowercases it) and with its punycode labels
// decoded (the parser writes a label outside ASCII as `xn--…`). Values are never part of a message.
// A value a request reads from outside its file is a secret of where it came from (ReadSecret): one of the
// process environment or a .env file ({{$processEnv X}}, {{$env.X}}, {{$dotenv X}}) is bound to the
// origins of the environment in use; one of an earlier response that is secret there
// ({{login.response.body.$.access_token}}: responseSecrets.ts) to that response's origin. Either unless it
// is held already: then it keeps the binding it has (an APIWB_SECRET_* password stays its Token URL's;
// one bound nowhere stays so). The exchange binds them in its guard before the request leaves.
import { authEntryOf, type AuthEntry, type Environment } from '../env/model';
import type { HttpRequest } from '../http/types';
import { urlParts } from '../http/url';
import { resolveVariables } from '../httpfile/resolve';
import { carriesForm, hostForms, MIN_SECRET_LENGTH, secretForms, textViews } from './secretForms';

/** The secret fields of an auth entry, as the SecretStore keys them. */
export type BoundField = 'password' | 'service_key' | 'token' | 'access_token';

/** Where in a request a secret was found: what a hop can drop (a header, a query parameter, user info) or not. */
type RequestPart =
  | { readonly kind: 'header'; readonly name: string }
  /** A header whose NAME carries a secret: never named in words (the name is the secret). */
  | { readonly kind: 'header-name' }
  /** A query parameter whose NAME carries a secret: not named either. */
  | { readonly kind: 'query-name' }
  | { readonly kind: 'query'; readonly name: string }
  | { readonly kind: 'userinfo' }
  | { readonly kind: 'url' }
  | { readonly kind: 'body' };

interface Carried {
  /** "the token of auth 'engagement'": never the value. */
  readonly what: string;
  /** The origins it is bound to (empty: none). */
  readonly origins: readonly string[];
  readonly part: RequestPart;
}

interface Held {
  readonly forms: readonly string[];
  /** The forms in lower case, as a host name reads (inHost). */
  readonly hostForms: readonly string[];
  readonly origins: Set<string>;
  what: string;
  /** A secret of an earlier response only: a request of the file that writes it sends it to its own origin too (bindReadSecrets). */
  followsRequests?: true;
}

/** The words of a request part, as notices and refusals say it. */
export function partWords(part: RequestPart): string {
  switch (part.kind) {
    case 'header': return `header ${part.name}`;
    case 'header-name': return 'a header\'s name';
    case 'query-name': return 'a query parameter\'s name';
    case 'query': return `query parameter ${part.name}`;
    case 'userinfo': return 'the user info of the URL';
    case 'url': return 'the URL';
    case 'body': return 'the body';
  }
}

/** An origin as `new URL` writes it, or undefined for a text that is not an http(s) URL. */
function httpOriginOf(url: string | undefined): string | undefined {
  if (!url) return undefined;
  const parts = urlParts(url.trim());
  return parts && (parts.protocol === 'http:' || parts.protocol === 'https:') ? parts.origin : undefined;
}

/** Every origin an environment points at: its http(s) URL variables (resolved) and its auth entries' Token URLs. */
export function environmentOrigins(environment: Environment): string[] {
  const origins = new Set<string>();
  for (const value of Object.values(environment.variables)) {
    // A URL may be made of other variables (`{{scheme}}://{{host}}`): its origin is the resolved one.
    const origin = httpOriginOf(value.includes('{{') ? resolveVariables(value, { environment: environment.variables }).text : value);
    if (origin) origins.add(origin);
  }
  for (const entry of Object.values(environment.auth)) {
    const origin = httpOriginOf(entry.tokenUrl);
    if (origin) origins.add(origin);
  }
  return [...origins].sort();
}

/**
 * THE binding rule: the origins a secret field of an auth entry may go to. A password goes only to its
 * Token URL's origin (sign-in); everything else to the environment's origins.
 */
export function originsFor(field: BoundField, entry: AuthEntry | undefined, environment: Environment): string[] {
  if (field === 'password') {
    const origin = httpOriginOf(entry?.tokenUrl);
    return origin ? [origin] : [];
  }
  return environmentOrigins(environment);
}

/** A value of http-client.private.env.json that an auth entry takes as one of its secret fields. */
export interface PrivateAuthValue {
  readonly authId: string;
  readonly field: BoundField;
  readonly value: string;
}

/**
 * The private env file's values (environment.privateVariables), every one a secret, bound by THE rule: one
 * an auth entry takes (`authValues`) as that field is (originsFor: a password to its Token URL's origin);
 * every other one to the environment's origins, as a token entered for it would be.
 */
export function bindPrivateValues(bindings: SecretBindings, environment: Environment, authValues: readonly PrivateAuthValue[]): void {
  const file = environment.privateFile ?? 'the private env file';
  const asField = new Set<string>();
  for (const { authId, field, value } of authValues) {
    bindings.bind(value, originsFor(field, authEntryOf(environment, authId), environment), `${fieldWords(field, authId)} (${file})`);
    asField.add(value);
  }
  const origins = environmentOrigins(environment);
  for (const name of environment.privateVariables ?? []) {
    const value = environment.variables[name];
    if (value !== undefined && !asField.has(value)) bindings.bind(value, origins, `the variable '${name}' of ${file}`);
  }
}

/**
 * The whole private env file, bound before a run of `run` sends anything: every environment's values, each
 * by bindPrivateValues to its OWN environment's origins, not only the run's. A value kept for `production`
 * that a `staging` request carries (a `< ./http-client.private.env.json` body, a header or URL that holds
 * it) is then a held secret bound elsewhere: refused at the send boundary and masked by the Redactor. A
 * value the env file itself gives the run's environment as a plain variable is no secret to that
 * environment: it may go to the run's origins too.
 */
export function bindPrivateFile(bindings: SecretBindings, environments: readonly Environment[], run: Environment, authValuesOf: (environment: string) => readonly PrivateAuthValue[]): void {
  const kept = new Set<string>();
  for (const environment of environments) {
    const authValues = authValuesOf(environment.name);
    bindPrivateValues(bindings, environment, authValues);
    for (const value of privateValuesOf(environment, authValues)) kept.add(value);
  }
  const runPrivate = new Set(run.privateVariables ?? []);
  const runOrigins = environmentOrigins(run);
  for (const [name, value] of Object.entries(run.variables)) {
    if (!runPrivate.has(name) && kept.has(value)) bindings.bind(value, runOrigins, `the variable '${name}'`);
  }
}

/** Every value the private env file gives `environment` (its variables and its auth entries' fields). */
export function privateValuesOf(environment: Environment, authValues: readonly PrivateAuthValue[]): string[] {
  return [
    ...(environment.privateVariables ?? []).map((variable) => environment.variables[variable] ?? ''),
    ...authValues.map((v) => v.value),
  ].filter((value) => value !== '');
}

/**
 * What of the private env file cannot be protected: its non-empty values shorter than MIN_SECRET_LENGTH,
 * which bind() does not hold and the Redactor does not mask (masking "913" everywhere would garble every
 * text). In words, each by its name (never the value): "the variable 'pin'", "the password of auth 'x'".
 */
export function unprotectedPrivateValues(environment: Environment, authValues: readonly PrivateAuthValue[]): string[] {
  const short = (value: string | undefined): boolean => value !== undefined && value !== '' && value.length < MIN_SECRET_LENGTH;
  const names = (environment.privateVariables ?? []).filter((name) => short(environment.variables[name])).map((name) => `the variable '${name}'`);
  for (const { authId, field, value } of authValues) if (short(value)) names.push(fieldWords(field, authId));
  return [...new Set(names)];
}

/** The warning for unprotectedPrivateValues (undefined when there is none): once per run, naming each. */
export function unprotectedPrivateWords(environment: Environment, names: readonly string[]): string | undefined {
  if (names.length === 0) return undefined;
  const file = environment.privateFile ?? 'the private env file';
  const listed = names.length === 1 ? names[0]! : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]!}`;
  return `warning: ${listed} of ${file} ${names.length === 1 ? 'is' : 'are'} shorter than ${MIN_SECRET_LENGTH} characters: ` +
    `too short to be recognised, so ${names.length === 1 ? 'it is' : 'they are'} neither masked in what is printed nor kept from other origins. ` +
    `Give a secret at least ${MIN_SECRET_LENGTH} characters, or keep a value that is not secret in http-client.env.json.`;
}

/** A value a request read from outside its file, and the origins it came from (see the top of this file). */
export interface ReadSecret {
  readonly value: string;
  readonly origins: readonly string[];
  /** "the value of {{$processEnv X}} (environment 'dev')", "a secret of the response of 'login'": never the value. */
  readonly what: string;
  /** A secret of an earlier response: the request that writes it may send it to its own origin (a sign-in server's token to the API). */
  readonly followsRequest?: true;
}

/**
 * Binds the values a request read (see the top of this file), each unless it is held already. A secret
 * of an earlier response is bound to where it came from, the environment's origins, and the origin of
 * each request that writes it (`requestOrigin`): where the file sends it, never where a hop would take it
 * (a redirect or a next link to another origin drops it). Held otherwise first (a stored token, a value of
 * the environment), it keeps the binding it has: a response echoing a stored secret never widens it.
 */
export function bindReadSecrets(bindings: SecretBindings, read: readonly ReadSecret[], requestOrigin?: string): void {
  for (const { value, origins, what, followsRequest } of read) {
    const mine = followsRequest && requestOrigin ? [...origins, requestOrigin] : origins;
    if (bindings.originsOf(value) === undefined) bindings.bind(value, mine, what, followsRequest);
    else if (followsRequest && requestOrigin) bindings.follow(value, requestOrigin);
  }
}

/** "the token of auth 'engagement'" (words for messages; never the value). */
export function fieldWords(field: BoundField, authId: string): string {
  const name = field === 'service_key' ? 'service key' : field === 'access_token' ? 'access token' : field;
  return `the ${name} of auth '${authId}'`;
}

export class SecretBindings {
  private readonly held = new Map<string, Held>();

  /** Binds `value` to `origins` (added to those it had); `what` names it in messages. Short values are not searched for. */
  bind(value: string, origins: Iterable<string>, what: string, followsRequests?: true): void {
    if (value.length < MIN_SECRET_LENGTH) return;
    let held = this.held.get(value);
    if (!held) {
      const forms = secretForms(value);
      held = { forms, hostForms: hostForms(forms), origins: new Set(), what, ...(followsRequests ? { followsRequests } : {}) };
      this.held.set(value, held);
    } else if (!followsRequests) delete held.followsRequests;
    for (const origin of origins) held.origins.add(origin);
  }

  /** A secret of an earlier response only (bound so, never otherwise since): `origin` may have it too. */
  follow(value: string, origin: string): void {
    const held = this.held.get(value);
    if (held?.followsRequests) held.origins.add(origin);
  }

  /** The origins `value` is bound to (undefined: not held). */
  originsOf(value: string): readonly string[] | undefined {
    const held = this.held.get(value);
    return held ? [...held.origins].sort() : undefined;
  }

  /** Every value held, for a Redactor to learn. */
  values(): string[] {
    return [...this.held.keys()];
  }

  get size(): number {
    return this.held.size;
  }

  /** The held secrets `text` carries, in any known form. */
  inText(text: string): Held[] {
    if (this.held.size === 0 || text.length < MIN_SECRET_LENGTH) return [];
    const views = textViews(text);
    const found: Held[] = [];
    for (const held of this.held.values()) if (carriesForm(views, held.forms)) found.push(held);
    return found;
  }

  /** Every held secret the request carries, and where. */
  carries(request: HttpRequest): Carried[] {
    if (this.held.size === 0) return [];
    const found: Carried[] = [];
    const add = (helds: readonly Held[], part: RequestPart): void => {
      for (const held of helds) found.push({ what: held.what, origins: [...held.origins].sort(), part });
    };
    const note = (text: string, part: RequestPart): void => add(this.inText(text), part);
    this.urlCarries(request.url, note, add);
    // The name too: a header can be named by a variable as well as valued by one (then it is not named).
    for (const name of Object.keys(request.headers)) note(`${name}: ${request.headers[name] ?? ''}`, headerPart(name, this));
    if (request.body) note(request.body, { kind: 'body' });
    return found;
  }

  /** The URL's parts that carry a secret: user info, each query parameter, else the URL itself (host, path, or across parts). */
  private urlCarries(url: string, note: (text: string, part: RequestPart) => void, add: (helds: readonly Held[], part: RequestPart) => void): void {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      note(url, { kind: 'url' });
      return;
    }
    // The URL whole, as it goes out: a secret the parser cuts across parts (a `?` in the path, a `&` in a
    // query value) is in no single part, but whole on the request line.
    const whole = this.inText(parsed.href);
    const inParts = new Set<Held>();
    const notePart = (text: string, part: RequestPart): void => {
      const helds = this.inText(text);
      for (const held of helds) inParts.add(held);
      add(helds, part);
    };
    if (parsed.username || parsed.password) notePart(`${parsed.username}:${parsed.password}`, { kind: 'userinfo' });
    for (const raw of parsed.search.slice(1).split('&')) if (raw !== '') notePart(raw, queryPart(raw, this));
    // What is left (host, path, fragment) cannot be dropped from a request.
    parsed.username = '';
    parsed.password = '';
    parsed.search = '';
    const rest = new Set([...this.inText(parsed.toString()), ...this.inHost(url), ...whole.filter((held) => !inParts.has(held))]);
    add([...rest], { kind: 'url' });
  }

  /**
   * The held secrets in a URL's host name, compared in lower case: a host name has no case, and the URL
   * parser writes it in lower case (`{{token}}.other.test` goes out lowercased, DNS, TLS and Host alike).
   */
  private inHost(url: string): Held[] {
    const origin = this.held.size === 0 ? undefined : urlParts(url)?.origin;
    if (!origin) return [];
    // A label outside ASCII goes out as punycode (`xn--…`): its views decode it (textViews).
    const views = textViews(origin);
    const found: Held[] = [];
    for (const held of this.held.values()) if (carriesForm(views, held.hostForms)) found.push(held);
    return found;
  }

  /**
   * The held secrets found anywhere in the request that are not bound to `origin`: one search over all its
   * texts at once. Most requests carry none, or only their own origin's: then nothing more is done.
   */
  private foreignIn(request: HttpRequest, origin: string): Held[] {
    if (this.held.size === 0) return [];
    let text = request.url;
    const headers = request.headers;
    for (const name in headers) text += `\n${name}: ${headers[name] ?? ''}`;
    if (request.body) text += `\n${request.body}`;
    const found = this.inText(text);
    for (const held of this.inHost(request.url)) if (!found.includes(held)) found.push(held);
    return found.filter((held) => !held.origins.has(origin));
  }

  /** The held secrets the request carries to an origin they are not bound to, and where. */
  misplaced(request: HttpRequest): Carried[] {
    const origin = httpOriginOf(request.url) ?? request.url;
    if (this.foreignIn(request, origin).length === 0) return [];
    return this.carries(request).filter((c) => !c.origins.includes(origin));
  }

  /** Why the request must not leave (it carries a secret bound elsewhere), or undefined. */
  refusal(request: HttpRequest): string | undefined {
    const wrong = this.misplaced(request)[0];
    if (!wrong) return undefined;
    const origin = httpOriginOf(request.url) ?? 'an address that is not a URL';
    return `not sent to ${origin}: ${partWords(wrong.part)} carries ${wrong.what}, which belongs to ${belongsWords(wrong.origins)}`;
  }
}

/** A header as a request part: by its name, unless its name carries a secret held. */
export function headerPart(name: string, bindings: SecretBindings | undefined): RequestPart {
  return bindings !== undefined && bindings.inText(name).length > 0 ? { kind: 'header-name' } : { kind: 'header', name };
}

/** A query parameter (`name=value` as written) as a request part: by its name, unless its name carries a secret held. */
export function queryPart(raw: string, bindings: SecretBindings | undefined): RequestPart {
  const name = queryName(raw);
  return bindings !== undefined && bindings.inText(name).length > 0 ? { kind: 'query-name' } : { kind: 'query', name };
}

/** "http://a:1" / "http://a:1 and http://b:2" / "no origin of this environment". */
function belongsWords(bound: readonly string[]): string {
  // Sorted, so that the same binding always reads the same whatever order the env file listed its hosts.
  const origins = [...bound].sort();
  if (origins.length === 0) return 'no origin (nothing of the environment it came with names a host for it): it is never sent';
  if (origins.length === 1) return `${origins[0]} only`;
  return `${origins.slice(0, -1).join(', ')} and ${origins[origins.length - 1]} only`;
}

/** A query part's name, decoded (`raw` is `name=value` as written). */
export function queryName(raw: string): string {
  const name = raw.split('=')[0] ?? '';
  try {
    return decodeURIComponent(name.replace(/\+/g, ' '));
  } catch {
    return name;
  }
}
